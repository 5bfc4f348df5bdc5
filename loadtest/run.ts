import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { builtServer } from '../scripts/built-server';
import { RedisCluster } from '../tools/redis-cluster';
import { RedisServer } from '../tools/redis-server';
import { checkBooks } from './books';
import { Deadline, httpBlocks, readBlocks, type BlocksReader } from './collect';
import { drive, type DriveSettings } from './drive';
import { RedisCommandCounter } from './redis-commands';
import { bundledEcho } from './echo-bundle';
import type { LoadtestOptions } from './options';
import { ChildServer, freePort, MachineSampler, ProcSampler, randomToken, syntheticPlayersEnv } from './processes';
import { Stats } from './stats';
import { childProfiler, selfProfiler, type WindowProfiler } from './profiler';
import { driveOnWorkers } from './workers';
import { efficiency, phaseEfficiency, phaseReport, ratio, type PhaseEfficiency, type PhaseReport, type Report, type ServerUsage } from './report';

/**
 * A whole run: start what is needed (a private Redis, K game server processes) unless
 * endpoints are given, drive the load, check the books, stop the servers; then the same load
 * against the echo server for the baseline; then the report.
 */

export interface RunHooks {
  /** Progress and notes (stderr by default). */
  readonly log?: (line: string) => void;
  /** Reads the operator's block report another way than `GET /admin/blocks` (tests). */
  readonly readBlocks?: BlocksReader;
  /** The command line, for the report. */
  readonly command?: string;
}

async function assertUp(endpoint: string): Promise<void> {
  const res = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(10_000) }).catch((err: Error) => {
    throw new Error(`${endpoint} does not answer: ${err.message}`);
  });
  if (!res.ok) throw new Error(`${endpoint}/health answered ${res.status}`);
}

function usageOf(name: string, sampler: ProcSampler, url?: string): ServerUsage {
  return { name, ...(url ? { url } : {}), ...sampler.usage() };
}

type WindowHooks = NonNullable<DriveSettings['window']>;

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

export async function runLoadtest(options: LoadtestOptions, hooks: RunHooks = {}): Promise<Report> {
  const log = hooks.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const startedAt = new Date();
  const loadAtStart = loadavg()[0]!;
  if (loadAtStart > 0.5) log(`note: the machine is already busy (load average ${loadAtStart.toFixed(2)} over the last minute): figures will be lower than on a quiet machine`);
  const failures: string[] = [];
  const prefix = `lt${randomBytes(4).toString('hex')}-`;
  const harness = new ProcSampler(process.pid);
  harness.start();

  let redis: RedisServer | undefined;
  let redisCluster: RedisCluster | undefined;
  const servers: ChildServer[] = [];
  let run: PhaseReport | undefined;
  let books: Report['books'] = { ok: false, problems: ['the run did not get as far as the books'], problemCount: 1 };
  let processes: ServerUsage[] = [];
  let harnessUsage = { cpuAvgPercent: 0, rssMB: 0 };
  let gameEfficiency: PhaseEfficiency | undefined;
  let endpoints: readonly string[] = options.endpoints ?? [];
  const drivePhase = (settings: DriveSettings) => (options.workers > 1 ? driveOnWorkers(settings, options.workers) : drive(settings));
  const profilers: WindowProfiler[] = [];
  const profileWindow = (list: WindowProfiler[], suffix: string) => (options.profileDir ? {
    open: () => Promise.all(list.map((p) => p.start())).then(() => undefined),
    close: async () => {
      for (const p of list) log(`profile of the window: ${await p.stop(join(options.profileDir!, suffix))}`);
    },
  } : undefined);

  try {
    let operatorToken = options.operatorToken;
    if (!options.endpoints) {
      if (options.redisCluster) {
        redisCluster = await RedisCluster.start();
        log(`Redis Cluster (3 masters + 3 replicas) on ${redisCluster.nodes}`);
      } else if (options.redis) {
        redis = await RedisServer.start();
        log(`redis-server on ${redis.url}`);
      }
      const script = builtServer();
      operatorToken = randomToken();
      const jwtSecret = randomToken(36);
      for (let k = 0; k < options.processes; k++) {
        const port = await freePort();
        const name = `server-${k + 1}`;
        const env: Record<string, string> = {
          ...syntheticPlayersEnv(jwtSecret, operatorToken),
          PUBLIC_ADDRESS: `127.0.0.1:${port}`,
          REDIS_PREFIX: `loadtest-${prefix.slice(2, -1)}`,
          ...(redis ? { REDIS_URL: redis.url } : {}),
          ...(redisCluster ? { REDIS_CLUSTER_NODES: redisCluster.nodes } : {}),
          ...options.serverEnv,
        };
        const inspectPort = options.profileDir ? await freePort() : 0;
        const nodeArgs = options.profileDir ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
        // One after the other: the first opens the emissions, the others find them.
        const server = await ChildServer.start({ name, script, port, env, nodeArgs });
        servers.push(server);
        if (options.profileDir) profilers.push(await childProfiler(name, inspectPort, options.profileKind));
        log(`${name} (pid ${server.pid}) on ${server.url}`);
      }
      endpoints = servers.map((s) => s.url);
    }
    for (const e of endpoints) await assertUp(e);
    for (const s of servers) s.sampler.start();
    const redisPid = (redis as unknown as { process?: { pid?: number } } | undefined)?.process?.pid;
    const redisSampler = redisPid ? new ProcSampler(redisPid) : undefined;
    redisSampler?.start();
    const samplers = [
      ...servers.map((s) => ({ name: s.name, sampler: s.sampler })),
      ...(redisSampler ? [{ name: 'redis', sampler: redisSampler }] : []),
      { name: 'harness', sampler: harness },
    ];

    const reader = hooks.readBlocks ?? httpBlocks(endpoints[0]!, operatorToken);
    const before = await readBlocks(reader);
    if (options.profileDir) profilers.push(selfProfiler('harness', options.profileKind));
    const redisCommands = redis ? new RedisCommandCounter(redis.url) : undefined;
    const window = bothWindows(profileWindow(profilers, 'game'), redisCommands);
    const machine = new MachineSampler();
    const phase = await drivePhase({ target: 'game', endpoints, durationS: options.durationS, options, samplers, machine, prefix, log, ...(window ? { window } : {}) });
    run = phaseReport(phase, endpoints, options, { machine: machine.busyPercent(), run: samplers.reduce((sum, s) => sum + s.sampler.usage().cpuAvgPercent, 0) });
    processes = [
      ...servers.map((s) => usageOf(s.name, s.sampler, s.url)),
      ...(redisSampler ? [usageOf('redis', redisSampler)] : []),
    ];
    const h = harness.usage();
    harnessUsage = { cpuAvgPercent: h.cpuAvgPercent, rssMB: h.rssMaxMB };
    gameEfficiency = phaseEfficiency(run, processes, h, redisCommands?.count ?? null);
    for (const s of servers) if (s.exited) failures.push(`${s.name} exited during the run (${s.exited.code ?? s.exited.signal}):\n${s.output.slice(-2000)}`);

    log(`checking the books: ${phase.playersConnected} players, ${phase.unitsBought} units`);
    const booksStarted = performance.now();
    try {
      const deadline = new Deadline(performance.now() + options.booksTimeoutS * 1000);
      const collected = await phase.collect(endpoints, deadline, options.requestTimeoutMs);
      const after = await readBlocks(reader);
      books = checkBooks({
        players: collected.players,
        recalls: collected.recalls,
        blocksBefore: before.counts,
        blocksAfter: after.counts,
        ...(before.error ?? after.error ? { blocksError: `GET /admin/blocks: ${before.error ?? after.error}` } : {}),
      });
    } catch (err) {
      books = { ok: false, problems: [`the books check did not finish: ${(err as Error).message}`], problemCount: 1 };
    }
    log(`books checked in ${((performance.now() - booksStarted) / 1000).toFixed(1)} s: ${books.ok ? 'exact' : `${books.problemCount} problems`}`);
    await phase.close();
    redisSampler?.stop();
    if (run.throughput.unitsBought === 0) failures.push('no unit was bought during the window');
  } catch (err) {
    failures.push((err as Error).message);
  } finally {
    for (const p of profilers) p.close();
    await Promise.all(servers.map((s) => s.stop()));
    await redis?.stop();
    await redisCluster?.stop();
  }

  // The baseline: the same load against a bare Colyseus server that only echoes.
  let echo: PhaseReport | null = null;
  let echoProcesses: ServerUsage[] = [];
  let echoEfficiency: PhaseEfficiency | null = null;
  let note: string | undefined;
  if (options.echo) {
    let server: ChildServer | undefined;
    const echoProfilers: WindowProfiler[] = [];
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
      server.sampler.start();
      if (options.profileDir) echoProfilers.push(await childProfiler('echo', inspectPort, options.profileKind), selfProfiler('harness', options.profileKind));
      const window = profileWindow(echoProfilers, 'echo');
      log(`echo server (pid ${server.pid}) on ${server.url}`);
      const machine = new MachineSampler();
      const echoSamplers = [{ name: 'echo', sampler: server.sampler }, { name: 'harness', sampler: harness }];
      const phase = await drivePhase({
        target: 'echo',
        endpoints: [server.url],
        durationS: options.echoDurationS,
        options,
        machine,
        samplers: echoSamplers,
        prefix,
        log,
        ...(window ? { window } : {}),
      });
      echo = phaseReport(phase, [server.url], options, { machine: machine.busyPercent(), run: echoSamplers.reduce((sum, s) => sum + s.sampler.usage().cpuAvgPercent, 0) });
      echoProcesses = [usageOf('echo', server.sampler, server.url)];
      echoEfficiency = phaseEfficiency(echo, echoProcesses, harness.usage());
      await phase.close();
    } catch (err) {
      note = `the echo baseline failed: ${(err as Error).message}`;
      failures.push(note);
    } finally {
      for (const p of echoProfilers) p.close();
      await server?.stop();
    }
  } else {
    note = 'skipped (--no-echo)';
  }
  harness.stop();

  const emptyRun: PhaseReport = run ?? phaseReport(
    { target: 'game', stats: new Stats(), playersConnected: 0, feedSpectators: 0, tableWatchers: 0, watchedTables: 0, listedTables: undefined, spectatorsConnected: 0, unitsBought: 0, rampSeconds: 0, undrained: 0, bytes: null },
    endpoints,
    options,
  );
  return {
    format: 'loadtest-report/v1',
    ok: books.ok && failures.length === 0,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    command: hooks.command ?? '',
    machine: { cpus: cpus().length, node: process.version, platform: `${process.platform} ${process.arch}`, loadAverageAtStart: Math.round(loadAtStart * 100) / 100 },
    options,
    mode: { servers: options.endpoints ? 'given' : 'started', processes: options.endpoints ? options.endpoints.length : options.processes, redis: options.redis },
    run: emptyRun,
    books,
    processes,
    harness: harnessUsage,
    efficiency: efficiency(gameEfficiency ?? phaseEfficiency(emptyRun, [], harness.usage()), echoEfficiency),
    baseline: { echo, processes: echoProcesses, ratio: ratio(emptyRun, echo), ...(note ? { note } : {}) },
    failures,
  };
}

export function defaultReportFile(startedAt: string): string {
  return join('reports', `loadtest-${startedAt.replace(/[:.]/g, '-')}.json`);
}
