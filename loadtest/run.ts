import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Fleet } from '../tools/fleet';
import type { LedgerLine } from '../src/protocol/operator-api';
import { parisDay, parseLedger } from '../src/wallet/reconcile';
import type { OperatorSignIn } from './player';
import { ReferenceWallet } from './reference-wallet';
import { freePort, RedisServer } from '../tools/redis-server';
import { ChildServer } from '../tools/server-process';
import { checkPhaseBooks, httpBlocks, httpReports, readBlocks, readReports, type BlocksRead, type BlocksReader, type ReportsReading } from './collect';
import { BOOKS_AGE_MS } from '../src/reports/report-rows';
import { drive, type DriveSettings, type PhaseResult } from './drive';
import { RedisCommandCounter } from './redis-commands';
import { bundledEcho } from './echo-bundle';
import type { LoadtestOptions } from './options';
import { MachineSampler, ProcSampler } from './samplers';
import { randomToken, syntheticPlayersEnv } from './server-env';
import { Stats } from './stats';
import { childProfiler, selfProfiler, type WindowProfiler } from './profiler';
import { driveOnWorkers } from './workers';
import { efficiency, phaseEfficiency, phaseReport, ratio, type PhaseEfficiency, type PhaseReport, type Report, type ServerUsage } from './report';

/**
 * A whole run: start what is needed (a private Redis, K game server processes: tools/fleet.ts)
 * unless endpoints are given, drive the load, check the books, stop the servers; then the same
 * load against the echo server for the baseline; then the report.
 */

export interface RunHooks {
  /** Progress and notes (stderr by default). */
  readonly log?: (line: string) => void;
  /** Reads the operator's block report another way than `GET /admin/blocks` (tests). */
  readonly readBlocks?: BlocksReader;
  /** The command line, for the report. */
  readonly command?: string;
}

type WindowHooks = NonNullable<DriveSettings['window']>;

/** What one run shares among its phases. */
interface RunContext {
  readonly options: LoadtestOptions;
  readonly log: (line: string) => void;
  /** This process's CPU and memory, over each phase's window. */
  readonly harness: ProcSampler;
  /** Prefix of the run's pseudonyms. */
  readonly prefix: string;
}

/** A process measured over the window. */
interface Measured {
  readonly name: string;
  readonly sampler: ProcSampler;
  readonly url?: string;
}

/** What a phase measured: the phase (still connected, for the books), its report, and what its processes used. */
interface MeasuredPhase {
  readonly phase: PhaseResult;
  readonly report: PhaseReport;
  readonly usage: ServerUsage[];
}

/** What the game phase gives the report. */
interface GameOutcome {
  run: PhaseReport | undefined;
  /** `--wallet seamless`: the server's ledger against the operator's, after the books. */
  walletDifferences?: number;
  books: Report['books'];
  processes: ServerUsage[];
  harness: Report['harness'];
  efficiency: PhaseEfficiency | undefined;
  endpoints: readonly string[];
  readonly failures: string[];
}

/** What the echo phase gives the report. */
interface EchoOutcome {
  readonly echo: PhaseReport | null;
  readonly processes: ServerUsage[];
  readonly efficiency: PhaseEfficiency | null;
  readonly note?: string;
}

async function assertUp(endpoint: string): Promise<void> {
  const res = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(10_000) }).catch((err: Error) => {
    throw new Error(`${endpoint} does not answer: ${err.message}`);
  });
  if (!res.ok) throw new Error(`${endpoint}/health answered ${res.status}`);
}

/**
 * The window's hooks of both (either may be absent): `second` opens last and closes first, so
 * that a slow `first` (a profiler writing its file) does not stretch what `second` measures.
 */
function bothWindows(first: WindowHooks | undefined, second: WindowHooks | undefined): WindowHooks | undefined {
  if (!first || !second) return first ?? second;
  return {
    open: async (players) => {
      await first.open(players);
      await second.open(players);
    },
    close: async () => {
      await second.close();
      await first.close();
    },
  };
}

/** With --profile: the profilers run over the window only, and write their files under `<dir>/<suffix>`. */
function profileWindow(ctx: RunContext, profilers: readonly WindowProfiler[], suffix: string): WindowHooks | undefined {
  const dir = ctx.options.profileDir;
  if (!dir) return undefined;
  return {
    open: () => Promise.all(profilers.map((p) => p.start())).then(() => undefined),
    close: async () => {
      for (const p of profilers) ctx.log(`profile of the window: ${await p.stop(join(dir, suffix))}`);
    },
  };
}

/** `--wallet seamless`: the reference operator, the servers' settings for it, the players' sign-in. */
interface Seamless {
  readonly wallet: ReferenceWallet;
  readonly jwtSecret: string;
  readonly signIn: OperatorSignIn;
}

/** Drives one phase against `endpoints`, measuring `serving` and the harness over its window. */
async function measurePhase(ctx: RunContext, target: DriveSettings['target'], endpoints: readonly string[], durationS: number, serving: readonly Measured[], window: WindowHooks | undefined, seamless?: Seamless): Promise<MeasuredPhase> {
  const { options } = ctx;
  const machine = new MachineSampler();
  const samplers = [...serving, { name: 'harness', sampler: ctx.harness }];
  const settings: DriveSettings = { target, endpoints, durationS, options, samplers, machine, prefix: ctx.prefix, log: ctx.log, ...(window ? { window } : {}), ...(seamless ? { operatorSignIn: seamless.signIn } : {}) };
  const phase = await (options.workers > 1 ? driveOnWorkers(settings, options.workers) : drive(settings));
  const cpu = { machine: machine.busyPercent(), run: samplers.reduce((sum, s) => sum + s.sampler.usage().cpuAvgPercent, 0) };
  const usage = serving.map((s) => ({ name: s.name, ...(s.url ? { url: s.url } : {}), ...s.sampler.usage() }));
  return { phase, report: phaseReport(phase, endpoints, options, cpu), usage };
}

/** The fleet the options ask for, each server with an inspector when profiling. */
async function startFleet(ctx: RunContext, operatorToken: string, seamless: Seamless | undefined): Promise<{ fleet: Fleet; inspectPorts: number[] }> {
  const { options } = ctx;
  const inspectPorts = options.profileDir ? await Promise.all(Array.from({ length: options.processes }, () => freePort())) : [];
  const fleet = await Fleet.start({
    processes: options.processes,
    ...(options.redis ? { redis: { cluster: options.redisCluster } } : {}),
    env: {
      ...syntheticPlayersEnv(seamless?.jwtSecret ?? randomToken(36), operatorToken),
      ...seamless?.wallet.serverEnv(),
      REDIS_PREFIX: `loadtest-${ctx.prefix.slice(2, -1)}`,
      ...options.serverEnv,
    },
    ...(options.profileDir ? { nodeArgs: (i: number) => [`--inspect=127.0.0.1:${inspectPorts[i]}`] } : {}),
    log: ctx.log,
  });
  return { fleet, inspectPorts };
}

/** What the books compare, read before the phase: the block report and, on given servers, the operator's reports. */
interface BooksBefore {
  readonly reader: BlocksReader;
  readonly blocks: BlocksRead;
  /** Undefined on the harness's own servers: their reports are compared whole. */
  readonly reports: ReportsReading | undefined;
  readonly operatorToken: string | undefined;
}

/**
 * The books of the game phase, bounded by `booksTimeoutS` (5 minutes); a check that cannot finish
 * is one problem. The operator's reports are read BOOKS_AGE_MS after the drain (with a margin):
 * by then the server reads its books again, with every unit sold.
 */
async function gameBooks(ctx: RunContext, phase: PhaseResult, endpoints: readonly string[], before: BooksBefore): Promise<Report['books']> {
  const { options } = ctx;
  ctx.log(`checking the books: ${phase.playersConnected} players, ${phase.unitsBought} units`);
  const started = performance.now();
  const reports = { reader: httpReports(endpoints[0]!, before.operatorToken), notBefore: started + BOOKS_AGE_MS + 500, ...(before.reports ? { before: before.reports } : {}) };
  let books: Report['books'];
  try {
    ({ books } = await checkPhaseBooks(phase, { endpoints, reader: before.reader, before: before.blocks, reports, timeoutS: options.booksTimeoutS, requestTimeoutMs: options.requestTimeoutMs }));
  } catch (err) {
    books = { ok: false, problems: [`the books check did not finish: ${(err as Error).message}`], problemCount: 1 };
  }
  ctx.log(`books checked in ${((performance.now() - started) / 1000).toFixed(1)} s: ${books.ok ? 'exact' : `${books.problemCount} problems`}`);
  return books;
}

/** The game servers (started, or given), driven and measured, then their books checked. */
async function gamePhase(ctx: RunContext, hooks: RunHooks, seamless?: Seamless): Promise<GameOutcome> {
  const { options } = ctx;
  const out: GameOutcome = {
    run: undefined,
    books: { ok: false, problems: ['the run did not get as far as the books'], problemCount: 1 },
    processes: [],
    harness: { cpuAvgPercent: 0, rssMB: 0 },
    efficiency: undefined,
    endpoints: options.endpoints ?? [],
    failures: [],
  };
  let fleet: Fleet | undefined;
  const profilers: WindowProfiler[] = [];
  const serving: Measured[] = [];
  try {
    let operatorToken = options.operatorToken;
    if (!options.endpoints) {
      operatorToken = randomToken();
      const started = await startFleet(ctx, operatorToken, seamless);
      fleet = started.fleet;
      out.endpoints = fleet.endpoints;
      for (const [i, s] of fleet.servers.entries()) {
        serving.push({ name: s.name, sampler: new ProcSampler(s.pid), url: s.url });
        if (options.profileDir) profilers.push(await childProfiler(s.name, started.inspectPorts[i]!, options.profileKind));
      }
    }
    for (const e of out.endpoints) await assertUp(e);
    const redis = fleet?.redis instanceof RedisServer ? fleet.redis : undefined;
    if (redis?.pid) serving.push({ name: 'redis', sampler: new ProcSampler(redis.pid) });
    for (const s of serving) s.sampler.start();

    const reader = hooks.readBlocks ?? httpBlocks(out.endpoints[0]!, operatorToken);
    const before: BooksBefore = {
      reader,
      blocks: await readBlocks(reader),
      reports: fleet ? undefined : await readReports(httpReports(out.endpoints[0]!, operatorToken)),
      operatorToken,
    };
    if (options.profileDir) profilers.push(selfProfiler('harness', options.profileKind));
    const redisCommands = redis ? new RedisCommandCounter(redis.url) : undefined;
    const { phase, report, usage } = await measurePhase(ctx, 'game', out.endpoints, options.durationS, serving, bothWindows(profileWindow(ctx, profilers, 'game'), redisCommands), seamless);
    out.run = report;
    // The report lists the servers and Redis; the efficiency counts them as the serving side.
    out.processes = usage;
    const h = ctx.harness.usage();
    out.harness = { cpuAvgPercent: h.cpuAvgPercent, rssMB: h.rssMaxMB };
    out.efficiency = phaseEfficiency(report, usage, h, redisCommands?.count ?? null);
    for (const s of fleet?.servers ?? []) if (s.exited) out.failures.push(`${s.name} exited during the run (${s.exited.code ?? s.exited.signal}):\n${s.output.slice(-2000)}`);

    out.books = await gameBooks(ctx, phase, out.endpoints, before);
    if (seamless) {
      const differences = await seamless.wallet.differences(await serverLedger(out.endpoints[0]!, operatorToken!));
      out.walletDifferences = differences.length;
      ctx.log(`the wallet ledgers reconciled: ${differences.length} differences`);
      if (differences.length > 0) out.failures.push(`the wallet ledgers differ: ${JSON.stringify(differences.slice(0, 5))}`);
    }
    await phase.close();
    if (report.throughput.unitsBought === 0) out.failures.push('no unit was bought during the window');
  } catch (err) {
    out.failures.push((err as Error).message);
  } finally {
    for (const s of serving) s.sampler.stop();
    for (const p of profilers) p.close();
    await fleet?.stop();
  }
  return out;
}

/** The server's wallet ledger (GET /admin/wallet-ledger), of the Paris days of the last two days. */
async function serverLedger(endpoint: string, operatorToken: string): Promise<LedgerLine[]> {
  const days = [...new Set([Date.now() - 86_400_000, Date.now()].map(parisDay))];
  const lines: LedgerLine[] = [];
  for (const day of days) {
    const res = await fetch(`${endpoint}/admin/wallet-ledger?day=${day}`, { headers: { authorization: `Bearer ${operatorToken}` } });
    if (!res.ok) throw new Error(`GET /admin/wallet-ledger answered ${res.status}`);
    lines.push(...parseLedger(await res.text(), `the server's ledger of ${day}`));
  }
  return lines;
}

/** The baseline: the same load against a bare Colyseus server that only echoes. */
async function echoPhase(ctx: RunContext): Promise<EchoOutcome> {
  const { options } = ctx;
  if (!options.echo) return { echo: null, processes: [], efficiency: null, note: 'skipped (--no-echo)' };
  let server: ChildServer | undefined;
  const profilers: WindowProfiler[] = [];
  try {
    const inspectPort = options.profileDir ? await freePort() : 0;
    // The servers' extra environment: the echo's feed reads FEED_BATCH_MS from it, to batch as they do.
    server = await ChildServer.start({
      name: 'echo',
      script: await bundledEcho(),
      port: await freePort(),
      env: { ...options.serverEnv },
      nodeArgs: options.profileDir ? [`--inspect=127.0.0.1:${inspectPort}`] : [],
      readyPath: '/__healthcheck', // Colyseus's own: the echo has no /ready
    });
    const serving = [{ name: 'echo', sampler: new ProcSampler(server.pid), url: server.url }];
    serving[0]!.sampler.start();
    if (options.profileDir) profilers.push(await childProfiler('echo', inspectPort, options.profileKind), selfProfiler('harness', options.profileKind));
    ctx.log(`echo server (pid ${server.pid}) on ${server.url}`);
    const { phase, report, usage } = await measurePhase(ctx, 'echo', [server.url], options.echoDurationS, serving, profileWindow(ctx, profilers, 'echo'));
    await phase.close();
    serving[0]!.sampler.stop();
    return { echo: report, processes: usage, efficiency: phaseEfficiency(report, usage, ctx.harness.usage()) };
  } catch (err) {
    return { echo: null, processes: [], efficiency: null, note: `the echo baseline failed: ${(err as Error).message}` };
  } finally {
    for (const p of profilers) p.close();
    await server?.stop();
  }
}

/** A phase report with nothing in it, for a run that did not get as far as its window. */
function emptyPhase(endpoints: readonly string[], options: LoadtestOptions): PhaseReport {
  return phaseReport(
    { target: 'game', stats: new Stats(), playersConnected: 0, feedSpectators: 0, tableWatchers: 0, watchedTables: 0, listedTables: undefined, spectatorsConnected: 0, unitsBought: 0, rampSeconds: 0, undrained: 0, bytes: null },
    endpoints,
    options,
  );
}

export async function runLoadtest(options: LoadtestOptions, hooks: RunHooks = {}): Promise<Report> {
  const log = hooks.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const startedAt = new Date();
  const loadAtStart = loadavg()[0]!;
  if (loadAtStart > 0.5) log(`note: the machine is already busy (load average ${loadAtStart.toFixed(2)} over the last minute): figures will be lower than on a quiet machine`);
  const harness = new ProcSampler(process.pid);
  harness.start();
  const ctx: RunContext = { options, log, harness, prefix: `lt${randomBytes(4).toString('hex')}-` };

  // --wallet seamless: the same load on internal servers first, then on the operator's wallet.
  const internal = options.wallet === 'seamless' ? await gamePhase(ctx, hooks) : undefined;
  const game = options.wallet === 'seamless' ? await seamlessPhase(ctx, hooks) : await gamePhase(ctx, hooks);
  const echo = await echoPhase(ctx);
  harness.stop();

  const run = game.run ?? emptyPhase(game.endpoints, options);
  const failures = [...(internal?.failures.map((f) => `internal: ${f}`) ?? []), ...game.failures, ...(options.echo && !echo.echo ? [echo.note!] : [])];
  return {
    format: 'loadtest-report/v1',
    ok: game.books.ok && (internal?.books.ok ?? true) && failures.length === 0,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    command: hooks.command ?? '',
    machine: { cpus: cpus().length, node: process.version, platform: `${process.platform} ${process.arch}`, loadAverageAtStart: Math.round(loadAtStart * 100) / 100 },
    options,
    mode: { servers: options.endpoints ? 'given' : 'started', processes: options.endpoints ? options.endpoints.length : options.processes, redis: options.redis },
    run,
    books: game.books,
    processes: game.processes,
    harness: game.harness,
    efficiency: efficiency(game.efficiency ?? phaseEfficiency(run, [], harness.usage()), echo.efficiency),
    baseline: { echo: echo.echo, processes: echo.processes, ratio: ratio(run, echo.echo), ...(echo.note ? { note: echo.note } : {}) },
    ...(internal ? { wallet: walletComparison(options, internal, game) } : {}),
    failures,
  };
}

/** The game phase on seamless servers, the reference operator answering after `walletLatencyMs`. */
async function seamlessPhase(ctx: RunContext, hooks: RunHooks): Promise<GameOutcome> {
  const wallet = await ReferenceWallet.start(ctx.options.seed, ctx.log);
  try {
    await wallet.steady(ctx.options.walletLatencyMs);
    const jwtSecret = randomToken(36);
    return await gamePhase(ctx, hooks, { wallet, jwtSecret, signIn: wallet.signIn(jwtSecret) });
  } finally {
    await wallet.stop();
  }
}

/** The seamless run against the internal one: p99 action→patch and server CPU a unit. */
function walletComparison(options: LoadtestOptions, internal: GameOutcome, seamless: GameOutcome): NonNullable<Report['wallet']> {
  const figures = (o: GameOutcome) => ({ p99ActionToPatchMs: o.run?.latency.actionToPatch.p99 ?? null, cpuMsPerUnit: o.efficiency?.cpuMsPerUnit ?? null, unitsPerSecond: o.run?.throughput.unitsPerSecond ?? null });
  const a = figures(internal);
  const b = figures(seamless);
  const ratio = (x: number | null, y: number | null) => (x === null || y === null || x === 0 ? null : Math.round((y / x) * 100) / 100);
  return {
    latencyMs: options.walletLatencyMs,
    internal: { ...a, booksOk: internal.books.ok },
    seamless: { ...b, booksOk: seamless.books.ok, ledgerDifferences: seamless.walletDifferences ?? null },
    ratio: { p99ActionToPatch: ratio(a.p99ActionToPatchMs, b.p99ActionToPatchMs), cpuMsPerUnit: ratio(a.cpuMsPerUnit, b.cpuMsPerUnit) },
  };
}

export function defaultReportFile(startedAt: string): string {
  return join('reports', `loadtest-${startedAt.replace(/[:.]/g, '-')}.json`);
}
