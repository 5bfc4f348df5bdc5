import { randomBytes } from 'node:crypto';
import type { BooksResult, PlayerBooks, RecallFacts } from '../books';
import { checkPhaseBooks, httpBlocks, readBlocks, type Collected } from '../collect';
import { drive, type PhaseResult } from '../drive';
import { DEFAULTS } from '../options';
import type { OperatorSignIn, SyntheticPlayer } from '../player';
import { playerPseudonym } from '../pseudonyms';
import { randomToken, syntheticPlayersEnv } from '../server-env';
import type { ArchiveWriterProcess } from '../../tools/archive-writer-process';
import { startArchiveCheck, type ArchiveCheck } from './archive-check';
import { ChaosCluster, type ServerExit } from './cluster';
import { checkFeedOrder, type FeedOrderResult, type UnitSighting } from './feed-order';
import { FeedWatch } from './feed-watch';
import { FaultInjector } from './faults';
import type { ChaosOptions } from './options';
import { countByKind, planFaults, type Fault, type FaultKind } from './plan';
import { checkEveryProcess, type ServiceCheck } from './service-check';
import { ReferenceWallet, type WalletCheck } from '../reference-wallet';

/**
 * One chaos run: Redis (AOF, fsync always) and K server processes; synthetic players (the
 * load-test harness, resilient) and feed spectators; the faults of the seeded plan during the
 * window; then everything restored, the players and the sweeper finish every unit, and the
 * books are checked as the load test checks them, plus: every unit finished and credited, and
 * no feed win ahead of its player (feed-order.ts); last, every process still serves what a client
 * needs (service-check.ts).
 */

export interface ChaosReport {
  readonly format: 'chaos-report/v1';
  readonly ok: boolean;
  readonly command: string;
  readonly seed: number;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly options: ChaosOptions;
  readonly faults: { readonly planned: number; readonly injected: number; readonly byKind: Record<FaultKind, number>; readonly plannedByKind: Record<FaultKind, number> };
  /** Server processes that exited by themselves (a fault's effect), restarted by the run. */
  readonly serverExits: { readonly count: number; readonly first: readonly ServerExit[] };
  readonly units: { readonly bought: number; readonly finished: number; readonly seenFinishedByPlayer: number; readonly finishedUnseen: number; readonly unfinished: number };
  readonly feed: FeedOrderResult & { readonly rejoins: number };
  readonly books: Pick<BooksResult, 'checked' | 'problemCount'>;
  /** The regulator's archive verified and reconciled with the journals (null when the run stopped before its check). */
  readonly archive: { readonly records: number; readonly seals: number; readonly onItsWay: number; readonly writerOutages: number; readonly problems: number } | null;
  /** `--wallet seamless`: the operator's wallet's faults, its movements and the ledgers' reconciliation (null otherwise, or when the run stopped before its check). */
  readonly wallet: Omit<WalletCheck, 'problems'> | null;
  /** After the faults, on every process: the feed joined, `/tables` read, every (game, price) sold (failures are in `failures`). */
  readonly afterFaults: Omit<ServiceCheck, 'failures'> & { readonly failed: number };
  /** Books problems + units left unfinished + feed wins ahead of their player or matching no unit + archive problems. */
  readonly mismatches: number;
  readonly problems: readonly string[];
  /** What clients met (retried or counted), by code. */
  readonly clientErrors: Record<string, number>;
  readonly failures: readonly string[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function recallOf(endpoint: string, token: string, unitId: string): Promise<{ status?: string } | undefined> {
  try {
    const res = await fetch(`${endpoint}/history/${encodeURIComponent(unitId)}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
    return res.ok ? ((await res.json()) as { status?: string }) : undefined;
  } catch {
    return undefined;
  }
}

/** Waits (bounded) until every unit bought is finished: by its player, its table, or the sweeper. */
async function waitUntilFinished(players: readonly SyntheticPlayer[], endpoints: readonly string[], until: number): Promise<number> {
  let open = players.flatMap((p) => p.units.filter((u) => u.prize === null).map((u) => ({ p, unitId: u.unitId })));
  while (open.length > 0 && performance.now() < until) {
    const still: typeof open = [];
    for (const [i, o] of open.entries()) {
      const r = await recallOf(endpoints[i % endpoints.length]!, o.p.token, o.unitId);
      if (r?.status !== 'finished') still.push(o);
    }
    open = still;
    if (open.length > 0) await sleep(1000);
  }
  return open.length;
}

/** What the run found, filled in step by step (a step that throws leaves the rest as it was). */
interface Findings {
  readonly clientErrors: Map<string, number>;
  readonly feeds: FeedWatch[];
  injector: FaultInjector | undefined;
  books: BooksResult | undefined;
  feed: FeedOrderResult;
  afterFaults: ServiceCheck;
  units: ChaosReport['units'];
  readonly problems: string[];
  unfinishedProblems: number;
  /** The regulator's archive, checked after the books. */
  archive: ArchiveCheck | undefined;
  /** `--wallet seamless`: the two ledgers, checked last. */
  wallet: WalletCheck | undefined;
  readonly failures: string[];
}

type Units = ChaosReport['units'];

function faultPlan(options: ChaosOptions, log: (line: string) => void): Fault[] {
  const plan = planFaults({
    seed: options.seed,
    spanMs: options.minutes * 60_000,
    meanGapMs: Math.round(60_000 / options.faultsPerMinute),
    servers: options.processes,
    players: options.players,
    freezeMinMs: options.freezeMinMs,
    freezeMaxMs: options.freezeMaxMs,
    weights: options.weights,
  });
  log(`chaos run, seed ${options.seed}: ${plan.length} faults planned over ${options.minutes} min (${Object.entries(countByKind(plan)).map(([k, n]) => `${k} ${n}`).join(', ')})`);
  return plan;
}

/** The players' load over the window, with the faults of `plan` during it and everything restored after. */
function playThroughFaults(options: ChaosOptions, ctx: { cluster: ChaosCluster; writer: ArchiveWriterProcess; plan: readonly Fault[]; prefix: string; log: (line: string) => void; found: Findings; seamless: Seamless | undefined }): Promise<PhaseResult> {
  const { cluster, found, log, seamless } = ctx;
  return drive({
    target: 'game',
    endpoints: cluster.endpoints,
    durationS: options.minutes * 60,
    options: { ...DEFAULTS, players: options.players, spectators: 0, durationS: options.minutes * 60, thinkMs: options.thinkMs, warmupS: 2, drainS: options.drainS, echo: false, seed: options.seed, progress: options.progress },
    samplers: [],
    prefix: ctx.prefix,
    log,
    resilient: true,
    ...(seamless ? { operatorSignIn: seamless.signIn } : {}),
    window: {
      open: async (joined) => {
        found.injector = new FaultInjector(ctx.plan, cluster, () => joined, options.seed, log, ctx.writer);
        found.injector.start();
        await seamless?.wallet.startFaults(options.minutes * 60_000);
      },
      close: async () => {
        await found.injector?.stop();
        await seamless?.wallet.stopFaults();
        await cluster.restore();
        log(`faults over: ${found.injector?.injected.length ?? 0} injected; everything restored, draining`);
      },
    },
  });
}

/** Every unit bought, finished or not (a mismatch), and how each was seen, for the feed's order. */
function tallyUnits(players: readonly SyntheticPlayer[], ledger: readonly PlayerBooks[], collected: Collected): { units: Units; unfinished: string[]; sightings: UnitSighting[] } {
  const units = { bought: 0, finished: 0, seenFinishedByPlayer: 0, finishedUnseen: 0, unfinished: 0 };
  const unfinished: string[] = [];
  const sightings: UnitSighting[] = [];
  for (const player of players) {
    const books = ledger.find((b) => b.playerId === player.playerId)!;
    for (const u of books.units) {
      const r = collected.recalls.get(u.unitId) as RecallFacts | { error: string } | undefined;
      const recall = r && 'status' in r ? r : undefined;
      const seenAt = player.finishedSeen.get(u.unitId);
      units.bought++;
      if (recall?.status === 'finished') {
        units.finished++;
        if (seenAt !== undefined) units.seenFinishedByPlayer++;
        else units.finishedUnseen++;
      } else {
        units.unfinished++;
        unfinished.push(`unit ${u.unitId} of ${player.pseudonym} is not finished after the drain (${recall ? recall.status : 'no recall'})`);
      }
      sightings.push({
        pseudonym: player.pseudonym,
        unitId: u.unitId,
        game: u.game,
        stake: u.stake,
        prize: u.prize,
        seenAt,
        completedBy: recall?.completedBy ?? null,
        finishedAt: recall?.finishedAt ? Date.parse(recall.finishedAt) : null,
      });
    }
  }
  return { units, unfinished, sightings };
}

/** Feed spectators, the players through the faults, the drain; then the books, every unit, the feed's order. */
/** `--wallet seamless`: the reference operator, and the players' sign-in by its token. */
interface Seamless {
  readonly wallet: ReferenceWallet;
  readonly signIn: OperatorSignIn;
}

async function runAndCheck(options: ChaosOptions, cluster: ChaosCluster, plan: readonly Fault[], prefix: string, operatorToken: string, log: (line: string) => void, found: Findings, seamless: Seamless | undefined): Promise<void> {
  const endpoints = cluster.endpoints;
  const archive = await startArchiveCheck(cluster.redisTarget, `chaos-${prefix.slice(2, -1)}`);
  const reader = httpBlocks(endpoints[0]!, operatorToken);
  const before = await readBlocks(reader);
  for (let i = 0; i < options.feedSpectators; i++) {
    const watch = new FeedWatch(i, endpoints, prefix, (code) => found.clientErrors.set(code, (found.clientErrors.get(code) ?? 0) + 1));
    await watch.join();
    found.feeds.push(watch);
  }
  const phase = await playThroughFaults(options, { cluster, writer: archive.writer, plan, prefix, log, found, seamless });
  for (const [code, n] of phase.stats.allErrors) found.clientErrors.set(code, (found.clientErrors.get(code) ?? 0) + n);

  const left = await waitUntilFinished(phase.players, endpoints, performance.now() + options.drainS * 1000);
  log(`every unit finished? ${left === 0 ? 'yes' : `no: ${left} still unfinished after ${options.drainS} s`}`);
  // Every movement decided first: the books read the operator's balances, prizes paid.
  if (seamless) {
    found.wallet = await seamless.wallet.check(cluster.redisTarget, `chaos-${prefix.slice(2, -1)}`, options.drainS * 1000);
    found.problems.push(...found.wallet.problems);
    const w = found.wallet;
    log(`seamless wallet: ${w.debits} debits (${w.dealt} dealt, ${w.refused} refused, ${w.rolledBack} rolled back), ${w.creditsPaid}/${w.credits} prizes paid, ${w.undecided} undecided; the ledgers reconciled: ${w.differences} differences`);
  }

  const { books, collected, ledger } = await checkPhaseBooks(phase, { endpoints, reader, before, timeoutS: 300, requestTimeoutMs: 10_000, recalledPrizes: true });
  found.books = books;
  found.problems.push(...books.problems);
  found.archive = await archive.finish();
  found.problems.push(...found.archive.problems);
  log(`archive: ${found.archive.records} records, ${found.archive.seals} seals, ${found.archive.onItsWay} money entries on their way, ${found.archive.writerOutages} writer outages (drains failing, retried): ${found.archive.problems.length} problems`);

  const tally = tallyUnits(phase.players, ledger, collected);
  found.units = tally.units;
  found.unfinishedProblems = tally.unfinished.length;
  found.problems.push(...tally.unfinished);
  await Promise.all(found.feeds.map((f) => f.stop()));
  found.feed = checkFeedOrder(found.feeds.flatMap((f) => f.wins), tally.sightings, options.abandonAfterS * 1000);
  found.problems.push(...found.feed.problems);
  // A feed check that saw no win while units won checked nothing: its spectators were blind.
  if (found.feed.wins === 0 && tally.sightings.some((u) => (u.prize ?? 0) > 0)) found.failures.push('the feed spectators saw none of the wins played: the feed order was not checked');
  await phase.close();

  // Last, once the books are read (its sales are no player's): a process the faults left
  // half-broken fails the run, though its players had moved on to the others.
  found.afterFaults = await checkEveryProcess(endpoints, (i) => playerPseudonym(prefix, options.players + i), 10_000, seamless?.signIn);
  log(`after the faults, every process serves? ${found.afterFaults.failures.length === 0 ? `yes: ${endpoints.length} processes, feed joined, /tables read, ${found.afterFaults.sold} (game, price) sold` : `no: ${found.afterFaults.failures.length} failures`}`);
  found.failures.push(...found.afterFaults.failures.map((f) => `after the faults, ${f}`));
}

export async function runChaos(options: ChaosOptions, command: string, log: (line: string) => void): Promise<ChaosReport> {
  const startedAt = new Date();
  const prefix = `ch${randomBytes(3).toString('hex')}-`;
  const operatorToken = randomToken();
  const jwtSecret = randomToken(36);
  const plan = faultPlan(options, log);
  const wallet = options.wallet === 'seamless' ? await ReferenceWallet.start(options.seed, log) : undefined;
  const seamless = wallet && { wallet, signIn: wallet.signIn(jwtSecret) };
  const cluster = await ChaosCluster.start(options.processes, {
    REDIS_PREFIX: `chaos-${prefix.slice(2, -1)}`,
    ...syntheticPlayersEnv(jwtSecret, operatorToken),
    ...wallet?.serverEnv(),
    ABANDON_AFTER_SECONDS: String(options.abandonAfterS),
    SWEEP_EVERY_SECONDS: String(options.sweepEveryS),
  }, log, options.redisCluster, options.negativeControl);
  const found: Findings = {
    clientErrors: new Map(),
    feeds: [],
    injector: undefined,
    books: undefined,
    feed: checkFeedOrder([], [], 0),
    afterFaults: { processes: 0, sold: 0, failures: [] },
    units: { bought: 0, finished: 0, seenFinishedByPlayer: 0, finishedUnseen: 0, unfinished: 0 },
    problems: [],
    unfinishedProblems: 0,
    archive: undefined,
    wallet: undefined,
    failures: [],
  };
  try {
    await runAndCheck(options, cluster, plan, prefix, operatorToken, log, found, seamless);
  } catch (err) {
    found.failures.push((err as Error).stack ?? (err as Error).message);
  } finally {
    await found.injector?.stop().catch(() => undefined);
    await Promise.all(found.feeds.map((f) => f.stop()));
    await cluster.stop();
    await wallet?.stop();
  }
  const injected = found.injector?.injected ?? [];
  if (injected.length < options.minFaults) found.failures.push(`${injected.length} faults injected, fewer than the ${options.minFaults} asked for (--min-faults)`);
  const archiveProblems = found.archive?.problems.length ?? 1;
  const walletProblems = seamless ? (found.wallet ? found.wallet.differences + found.wallet.undecided : 1) : 0;
  const mismatches = (found.books?.problemCount ?? 1) + found.unfinishedProblems + found.feed.ahead + found.feed.phantom + archiveProblems + walletProblems;
  return {
    format: 'chaos-report/v1',
    ok: mismatches === 0 && found.failures.length === 0,
    command,
    seed: options.seed,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    options,
    faults: { planned: plan.length, injected: injected.length, byKind: countByKind(injected), plannedByKind: countByKind(plan) },
    serverExits: { count: cluster.unplannedExits.length, first: cluster.unplannedExits.slice(0, 3) },
    units: found.units,
    feed: { ...found.feed, rejoins: found.feeds.reduce((n, f) => n + f.rejoins, 0) },
    books: { checked: found.books?.checked ?? { players: 0, units: 0, unitsFinished: 0, recallsRescored: 0, blocks: 0, stakes: 0, prizes: 0 }, problemCount: found.books?.problemCount ?? 1 },
    archive: found.archive ? { records: found.archive.records, seals: found.archive.seals, onItsWay: found.archive.onItsWay, writerOutages: found.archive.writerOutages, problems: found.archive.problems.length } : null,
    wallet: found.wallet ? (({ problems: _, ...w }) => w)(found.wallet) : null,
    afterFaults: { processes: found.afterFaults.processes, sold: found.afterFaults.sold, failed: found.afterFaults.failures.length },
    mismatches,
    problems: found.problems.slice(0, 50),
    clientErrors: Object.fromEntries([...found.clientErrors].sort((a, b) => b[1] - a[1])),
    failures: found.failures,
  };
}
