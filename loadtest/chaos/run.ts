import { randomBytes } from 'node:crypto';
import { checkBooks, type BooksResult, type RecallFacts } from '../books';
import { collectBooks, Deadline, httpBlocks, readBlocks, withRecalledPrizes } from '../collect';
import { drive } from '../drive';
import { DEFAULTS } from '../options';
import type { SyntheticPlayer } from '../player';
import { randomToken, syntheticPlayersEnv } from '../processes';
import { ChaosCluster, type ServerExit } from './cluster';
import { checkFeedOrder, type FeedOrderResult, type UnitSighting } from './feed-order';
import { FeedWatch } from './feed-watch';
import { FaultInjector } from './faults';
import type { ChaosOptions } from './options';
import { countByKind, planFaults, type FaultKind } from './plan';

/**
 * One chaos run: Redis (AOF, fsync always) and K server processes; synthetic players (the
 * load-test harness, resilient) and feed spectators; the faults of the seeded plan during the
 * window; then everything restored, the players and the sweeper finish every unit, and the
 * books are checked as the load test checks them, plus: every unit finished and credited, and
 * no feed win ahead of its player (feed-order.ts).
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
  /** Books problems + units left unfinished + feed wins ahead of their player or matching no unit. */
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

export async function runChaos(options: ChaosOptions, command: string, log: (line: string) => void): Promise<ChaosReport> {
  const startedAt = new Date();
  const failures: string[] = [];
  const prefix = `ch${randomBytes(3).toString('hex')}-`;
  const operatorToken = randomToken();
  const jwtSecret = randomToken(36);
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

  const cluster = await ChaosCluster.start(options.processes, (redisEnv) => ({
    ...redisEnv,
    REDIS_PREFIX: `chaos-${prefix.slice(2, -1)}`,
    ...syntheticPlayersEnv(jwtSecret, operatorToken),
    ABANDON_AFTER_SECONDS: String(options.abandonAfterS),
    SWEEP_EVERY_SECONDS: String(options.sweepEveryS),
  }), log, options.redisCluster);
  const clientErrors = new Map<string, number>();
  const feeds: FeedWatch[] = [];
  let injector: FaultInjector | undefined;
  let players: readonly SyntheticPlayer[] = [];
  let booksResult: BooksResult | undefined;
  let feed: FeedOrderResult = checkFeedOrder([], [], 0);
  const units = { bought: 0, finished: 0, seenFinishedByPlayer: 0, finishedUnseen: 0, unfinished: 0 };
  const problems: string[] = [];
  let unfinishedProblems = 0;
  try {
    const endpoints = cluster.endpoints;
    for (const [i, s] of cluster.servers.entries()) log(`${s.name} (pid ${s.pid}) on ${endpoints[i]}`);
    const blocks = httpBlocks(endpoints[0]!, operatorToken);
    const before = await readBlocks(blocks);
    for (let i = 0; i < options.feedSpectators; i++) {
      const watch = new FeedWatch(i, endpoints, prefix, (code) => clientErrors.set(code, (clientErrors.get(code) ?? 0) + 1));
      await watch.join();
      feeds.push(watch);
    }
    const phase = await drive({
      target: 'game',
      endpoints,
      durationS: options.minutes * 60,
      options: { ...DEFAULTS, players: options.players, spectators: 0, durationS: options.minutes * 60, thinkMs: options.thinkMs, warmupS: 2, drainS: options.drainS, echo: false, seed: options.seed, progress: options.progress },
      samplers: [],
      prefix,
      log,
      resilient: true,
      window: {
        open: async (joined) => {
          injector = new FaultInjector(plan, cluster, () => joined, options.seed, log);
          injector.start();
        },
        close: async () => {
          await injector?.stop();
          await cluster.restore();
          log(`faults over: ${injector?.injected.length ?? 0} injected; everything restored, draining`);
        },
      },
    });
    players = phase.players;
    for (const [code, n] of phase.stats.allErrors) clientErrors.set(code, (clientErrors.get(code) ?? 0) + n);

    const left = await waitUntilFinished(players, endpoints, performance.now() + options.drainS * 1000);
    log(`every unit finished? ${left === 0 ? 'yes' : `no: ${left} still unfinished after ${options.drainS} s`}`);
    const collected = await collectBooks(players, endpoints, new Deadline(performance.now() + 300_000), 10_000);
    const after = await readBlocks(blocks);
    const ledger = withRecalledPrizes(collected);
    booksResult = checkBooks({
      players: ledger,
      recalls: collected.recalls,
      blocksBefore: before.counts,
      blocksAfter: after.counts,
      ...(before.error ?? after.error ? { blocksError: `GET /admin/blocks: ${before.error ?? after.error}` } : {}),
    });
    problems.push(...booksResult.problems);

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
          unfinishedProblems++;
          problems.push(`unit ${u.unitId} of ${player.pseudonym} is not finished after the drain (${recall ? recall.status : 'no recall'})`);
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
    await Promise.all(feeds.map((f) => f.stop()));
    feed = checkFeedOrder(feeds.flatMap((f) => f.wins), sightings, options.abandonAfterS * 1000);
    problems.push(...feed.problems);
    await phase.close();
  } catch (err) {
    failures.push((err as Error).stack ?? (err as Error).message);
  } finally {
    await injector?.stop().catch(() => undefined);
    await Promise.all(feeds.map((f) => f.stop()));
    await cluster.stop();
  }
  const injected = injector?.injected.length ?? 0;
  if (injected < options.minFaults) failures.push(`${injected} faults injected, fewer than the ${options.minFaults} asked for (--min-faults)`);
  const mismatches = (booksResult?.problemCount ?? 1) + unfinishedProblems + feed.ahead + feed.phantom;
  return {
    format: 'chaos-report/v1',
    ok: mismatches === 0 && failures.length === 0,
    command,
    seed: options.seed,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    options,
    faults: { planned: plan.length, injected, byKind: countByKind(injector?.injected ?? []), plannedByKind: countByKind(plan) },
    serverExits: { count: cluster.unplannedExits.length, first: cluster.unplannedExits.slice(0, 3) },
    units,
    feed: { ...feed, rejoins: feeds.reduce((n, f) => n + f.rejoins, 0) },
    books: { checked: booksResult?.checked ?? { players: 0, units: 0, unitsFinished: 0, recallsRescored: 0, blocks: 0, stakes: 0, prizes: 0 }, problemCount: booksResult?.problemCount ?? 1 },
    mismatches,
    problems: problems.slice(0, 50),
    clientErrors: Object.fromEntries([...clientErrors].sort((a, b) => b[1] - a[1])),
    failures,
  };
}
