/**
 * `npm run bench:watchers [-- --processes 3 --watchers 1000 --watcher-processes 2 --samples 400 --pause-ms 50]`
 *
 * A player's action-to-patch latency (from sending an `act` to receiving the patch that holds
 * its step, measured on the player's client) with 0 and then with N watchers on the table, in
 * one run. `--processes P` game servers (the built server, as `npm start` runs it) share a
 * private redis-server; the watchers (`--watcher-processes K` more children sharing N SDK
 * clients that join `joinOrCreate('watch', { table })` through the P processes in turn and
 * decode every patch)
 * are spread by matchmaking over relay rooms of `ceil(N / (P − 1))` watchers each (all N when
 * P = 1), which go to the processes other than the table's when there are any; this process is
 * the player. The player plays 500 000 CARATS step by step (25 steps a unit), one action
 * `--pause-ms` after the reply to the previous one. The watchers also time when each step's
 * frame was read from their socket (before their process decoded it or the other frames of the
 * same burst: `stampOnRead`), which gives how far behind the player they are. For each server process: its
 * CPU time during each run (from /proc), its watchers, the frames it coalesced (its /metrics),
 * and the CPU per watcher-step (the watched run's CPU less the quiet run's, per step delivered
 * to its watchers).
 *
 * The watchers' clients stand for a thousand machines of their own; here they share this one,
 * so they run at the lowest CPU priority (`nice -n 19`; `--no-nice` to turn that off), and
 * `--pin 0/1/1` pins the server, the watchers and the player to CPU lists (taskset), so that
 * their decoding does not take the server's CPU.
 *
 * Prints p50/p95/p99 of both runs and their ratio; the last line is JSON.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { Client, type Room } from '@colyseus/sdk';
import { Redis } from 'ioredis';
import { builtServer } from '../tools/built-server';
import { spawnChild } from '../tools/child-processes';
import { newCheckpointSigningKey } from '../tools/checkpoint-key';
import { optionsOrExit, UsageError, whole, type CommandLine } from '../tools/command-line';
import { freePort, RedisServer } from '../tools/redis-server';
import { setHarnessStakeLimit } from '../tools/stake-limit';
import { startCluster, type Cluster } from './start-cluster';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const CARATS_ACTIONS: unknown[] = [{ type: 'reveal_winning' }, ...Array.from({ length: 24 }, (_, index) => ({ type: 'reveal', index }))];
const JOIN_BATCH = 50;
const WARMUP_ACTIONS = 25;

interface BenchOptions {
  readonly processes: number;
  readonly watchers: number;
  readonly samples: number;
  readonly pauseMs: number;
  /** CPU lists (taskset) of the server, the watchers and the player; none: not pinned. */
  readonly pins: { readonly server: string; readonly watchers: string; readonly player: string } | undefined;
  /** The watchers at the lowest CPU priority (`nice -n 19`). */
  readonly niceWatchers: boolean;
  /** Client processes the watchers are spread over. */
  readonly watcherProcesses: number;
}

const COMMAND_LINE: CommandLine<BenchOptions> = {
  synopsis: 'npm run bench:watchers -- [--processes 3] [--watchers 1000] [--watcher-processes 2] [--samples 400] [--pause-ms 50] [--pin 0/1/1] [--no-nice]',
  defaults: { processes: 3, watchers: 1000, samples: 400, pauseMs: 50, pins: undefined, niceWatchers: true, watcherProcesses: 2 },
  flags: [
    { name: '--processes', value: 'P', help: 'game server processes sharing one Redis (default 3: the table on one, its watchers on the others)', set: (o, v) => (o.processes = whole(v, 1, 16)) },
    { name: '--watchers', value: 'N', help: 'watchers of the table in the second run (default 1000)', set: (o, v) => (o.watchers = whole(v, 0, 100_000)) },
    { name: '--watcher-processes', value: 'K', help: 'client processes the watchers are spread over (default 2)', set: (o, v) => (o.watcherProcesses = whole(v, 1, 64)) },
    { name: '--samples', value: 'N', help: 'actions timed in each run (default 400)', set: (o, v) => (o.samples = whole(v, 1, 1_000_000)) },
    { name: '--pause-ms', value: 'T', help: 'pause after each reply before the next action (default 50)', set: (o, v) => (o.pauseMs = whole(v, 0, 60_000)) },
    {
      name: '--pin',
      value: 'S/W/P',
      help: 'CPU lists (taskset) of the server, the watchers and the player, e.g. 0/1/1',
      set: (o, v) => {
        const [server, watchers, player] = v.split('/');
        if (!server || !watchers || !player) throw new UsageError('takes <server cpus>/<watchers cpus>/<player cpus>, e.g. 0/1/1');
        o.pins = { server, watchers, player };
      },
    },
    { name: '--no-nice', help: 'the watchers at the same CPU priority as the rest (default: nice 19)', set: (o) => (o.niceWatchers = false) },
  ],
};

interface WorkerOptions {
  readonly ports: readonly number[];
  readonly room: string;
  readonly count: number;
  /** The index of this process's first watcher among all (where its turn over the ports starts). */
  readonly first: number;
}

/** The watchers process's own command line (this script, started by itself). */
const WORKER_COMMAND_LINE: CommandLine<WorkerOptions> = {
  synopsis: 'bench-watchers.ts --watchers-worker --ports P1,P2 --room R --count N --first I',
  defaults: { ports: [], room: '', count: 0, first: 0 },
  flags: [
    { name: '--watchers-worker', help: 'be the watchers process', set: () => undefined },
    { name: '--ports', value: 'P1,P2', help: "the servers' ports, joined through in turn", set: (o, v) => (o.ports = v.split(',').map((p) => whole(p, 1, 65_535))) },
    { name: '--room', value: 'R', help: 'the table to watch', set: (o, v) => (o.room = v) },
    { name: '--count', value: 'N', help: 'watchers', set: (o, v) => (o.count = whole(v, 0, 100_000)) },
    { name: '--first', value: 'I', help: "this process's first watcher among all", set: (o, v) => (o.first = whole(v, 0, 100_000)) },
  ],
};

/** CLOCK_MONOTONIC in ms: one clock for the player's and the watchers' processes on this machine. */
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Percentiles { min: number; p50: number; p95: number; p99: number; max: number; mean: number; n: number }

function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const mean = sorted.reduce((s, v) => s + v, 0) / (sorted.length || 1);
  return { min: round(sorted[0] ?? NaN), p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? NaN), mean: round(mean), n: sorted.length };
}

interface UnitView { unitId: string; steps: { length: number } }

/** Calls `onStep(key, at)` once per new step of any unit, as patches are applied; `at` from `clock`. */
function watchSteps(room: Room, onStep: (key: string, at: number) => void, clock: () => number = now): void {
  const seen = new Map<string, number>();
  room.onStateChange(() => {
    const at = clock();
    const units = (room.state as { units?: Iterable<UnitView> }).units;
    if (!units) return;
    for (const unit of units) {
      const known = seen.get(unit.unitId) ?? 0;
      for (let seq = known; seq < unit.steps.length; seq++) onStep(`${unit.unitId}#${seq}`, at);
      if (unit.steps.length > known) seen.set(unit.unitId, unit.steps.length);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// A watchers process: `--watchers-worker --ports P1,P2 --room R --count N --first I`.

/**
 * Stamps each frame of `room` when its WebSocket reads it, and leaves the decoding for later in
 * the same turn of the event loop: frames that come in one burst (a relay sends a step to all
 * its watchers at once) are all stamped before any is decoded, so a watcher's time is when its
 * frame reached this process, not when this process got round to it after decoding a thousand
 * others. Returns the stamp of the frame being decoded.
 */
function stampOnRead(room: Room): () => number {
  const events = (room as unknown as { connection: { events: { onmessage?: (event: unknown) => void } } }).connection.events;
  const decode = events.onmessage!;
  let decoding = 0;
  events.onmessage = (event) => {
    const at = now();
    queueDecode(() => {
      decoding = at;
      decode(event);
    });
  };
  return () => decoding;
}

const decodeQueue: (() => void)[] = [];
function queueDecode(decode: () => void): void {
  if (decodeQueue.push(decode) === 1) {
    setImmediate(() => {
      for (const next of decodeQueue.splice(0)) next();
    });
  }
}

async function watchersWorker(): Promise<void> {
  const { ports, room: roomId, count, first } = optionsOrExit(WORKER_COMMAND_LINE);
  const arrivals = new Map<string, number[]>();
  const rooms: Room[] = [];
  for (let i = 0; i < count; i += JOIN_BATCH) {
    const batch = await Promise.all(Array.from({ length: Math.min(JOIN_BATCH, count - i) }, async (_, j) => {
      const port = ports[(first + i + j) % ports.length]!;
      const room = await new Client(`http://127.0.0.1:${port}`).joinOrCreate('watch', { table: roomId });
      room.onMessage('*', () => undefined);
      watchSteps(room, (key, at) => {
        let list = arrivals.get(key);
        if (!list) arrivals.set(key, (list = []));
        list.push(at);
      }, stampOnRead(room));
      return room;
    }));
    rooms.push(...batch);
    // Matchmaking counts each process's rooms about once a second: a relay room that opens
    // when another fills goes to the least loaded process only once the counts are known.
    if (batch.some((room) => rooms.filter((r) => r.roomId === room.roomId).length === 1)) await sleep(1200);
  }
  const perRoom: Record<string, number> = {};
  for (const room of rooms) perRoom[room.roomId] = (perRoom[room.roomId] ?? 0) + 1;
  console.log(`ready ${JSON.stringify(perRoom)}`);
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === 'count') {
      let n = 0;
      for (const list of arrivals.values()) n += list.length;
      console.log(`count ${n}`);
    } else if (line === 'report') {
      console.log(`report ${JSON.stringify(Object.fromEntries(arrivals))}`);
    } else if (line === 'stop') {
      await Promise.all(rooms.map((r) => Promise.race([r.leave().catch(() => undefined), sleep(2000)])));
      process.exit(0);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The player (main process).

function lineReader(child: ChildProcess): (prefix: string, timeoutMs: number) => Promise<string> {
  const waiting: { prefix: string; resolve: (line: string) => void }[] = [];
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const i = waiting.findIndex((w) => line.startsWith(w.prefix));
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve(line);
  });
  return (prefix, timeoutMs) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${prefix}" line in ${timeoutMs} ms`)), timeoutMs);
    waiting.push({ prefix, resolve: (line) => {
      clearTimeout(timer);
      resolve(line.slice(prefix.length));
    } });
  });
}


/** The launcher of a process pinned to `cpuList` (taskset), at nice 19 if `niced`. */
function launcher(cpuList: string | undefined, niced = false): string[] {
  return [...(niced ? ['nice', '-n', '19'] : []), ...(cpuList === undefined ? [] : ['taskset', '-c', cpuList])];
}

const JWT_SECRET = 'bench-watchers-secret-of-thirty-two-chars';
const OPERATOR_TOKEN = 'bench-watchers-operator-token';

/** P servers as `npm start` runs them (dist/main.js, built first when stale), on a private redis-server. */
async function startServers(options: BenchOptions): Promise<{ cluster: Cluster; redis: RedisServer }> {
  const redis = await RedisServer.start();
  const ports = await Promise.all(Array.from({ length: options.processes }, () => freePort()));
  const perRelay = Math.ceil(options.watchers / Math.max(1, options.processes - 1));
  const cluster = await startCluster({
    ports,
    script: builtServer(),
    env: {
      REDIS_URL: redis.url, CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey(), REDIS_PREFIX: 'bench', JWT_SECRET, DEV_LOGIN: 'true', DEV_LOGIN_PER_MINUTE: '100000', OPERATOR_TOKEN, LOG_LEVEL: 'warn',
      WATCHERS_MAX: String(options.watchers), WATCH_ROOM_MAX_CLIENTS: String(Math.max(1, perRelay)),
      DEMO_BALANCE_CENTS: '10000000', MAX_MESSAGES_PER_SECOND: '1000', EMISSION_BLOCKS: '2', PACE_UNIT_MS: '0',
    },
    onLine: (i, line) => /warn|error/i.test(line) && console.log(`[p${i}] ${line}`),
  });
  if (options.pins) for (const p of cluster.processes) spawnSync('taskset', ['-cp', options.pins.server, String(p.child.pid)], { stdio: 'ignore' });
  return { cluster, redis };
}

/** CPU time (user + system, ms) a process has used so far (/proc, Linux). */
function cpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100)
}

/** Frames a process coalesced for its watchers so far (its /metrics). */
async function coalescedFrames(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith('lottery_spectator_frames_coalesced_total{room="watch"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** The watchers' processes: this script with --watchers-worker, each a share of the watchers, joined to `roomId` one process after the other. */
async function startWatchers(options: BenchOptions, ports: readonly number[], roomId: string): Promise<{ workers: WatchersProcess[]; perRoom: Record<string, number> }> {
  const workers: WatchersProcess[] = [];
  const perRoom: Record<string, number> = {};
  const started = Date.now();
  const share = Math.ceil(options.watchers / options.watcherProcesses);
  try {
    for (let first = 0; first < options.watchers; first += share) {
      const count = Math.min(share, options.watchers - first);
      // The watchers' clients stand for a thousand other machines: on this one they run at the
      // lowest CPU priority (--no-nice to run them at the same priority as the rest).
      const [command, ...args] = [...launcher(options.pins?.watchers, options.niceWatchers), process.execPath, '--import', 'tsx', SELF, '--watchers-worker', '--ports', ports.join(','), '--room', roomId, '--count', String(count), '--first', String(first)];
      const child = spawnChild(command!, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
      const worker = { child, next: lineReader(child) };
      workers.push(worker);
      // One process after the other: relay rooms fill in turn, as with one process.
      for (const [room, n] of Object.entries(JSON.parse(await worker.next('ready ', 300_000)) as Record<string, number>)) perRoom[room] = (perRoom[room] ?? 0) + n;
    }
  } catch (err) {
    for (const { child } of workers) child.kill('SIGKILL');
    throw err;
  }
  console.log(`${options.watchers} watchers joined in ${((Date.now() - started) / 1000).toFixed(1)} s from ${workers.length} client processes, in relay rooms of ${Object.values(perRoom).join(', ')}`);
  return { workers, perRoom };
}

interface WatchersProcess {
  readonly child: ChildProcess;
  readonly next: ReturnType<typeof lineReader>;
}

/** Asks every watchers process the same question; their answers, in order. */
async function askAll(workers: readonly WatchersProcess[], question: string, timeoutMs: number): Promise<string[]> {
  return Promise.all(workers.map(({ child, next }) => {
    const answer = next(`${question} `, timeoutMs);
    child.stdin!.write(`${question}\n`);
    return answer;
  }));
}

interface Phase {
  readonly latencies: number[];
  /** When the player received each step (key: unitId#seq). */
  readonly playerAt: Map<string, number>;
}

/** Plays units step by step; measures each action's patch on the player's client. */
async function play(room: Room, samples: number, pauseMs: number, requestIds: () => string): Promise<Phase> {
  const latencies: number[] = [];
  const playerAt = new Map<string, number>();
  let stepArrived: (() => void) | undefined;
  // Stamped as the watchers' frames are (when read), so that both sides are timed alike.
  watchSteps(room, (key, at) => {
    playerAt.set(key, at);
    stepArrived?.();
  }, stampOnRead(room));
  const total = samples + WARMUP_ACTIONS;
  let done = 0;
  while (done < total) {
    await room.request('buy', { stake: 500, requestId: requestIds() });
    for (const action of CARATS_ACTIONS) {
      if (done >= total) break;
      await sleep(pauseMs);
      const arrived = new Promise<void>((resolve) => (stepArrived = resolve));
      const sentAt = now();
      const reply = room.request('act', { action });
      await arrived;
      const latency = now() - sentAt;
      stepArrived = undefined;
      await reply;
      if (done >= WARMUP_ACTIONS) latencies.push(latency);
      done++;
    }
    // Finish the unit whatever is left, so that the next purchase is allowed.
    const units = (room.state as { units: Iterable<{ status: string }> }).units;
    if ([...units].some((u) => u.status !== 'finished')) {
      const arrived = new Promise<void>((resolve) => (stepArrived = resolve));
      await room.request('act', { action: { type: 'auto' } });
      await arrived;
      stepArrived = undefined;
    }
  }
  return { latencies, playerAt };
}

/** The player's client, logged in on the server. */
async function playerClient(port: number): Promise<Client> {
  const login = await (await fetch(`http://127.0.0.1:${port}/auth/dev-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench' }) })).json() as { token: string };
  await setHarnessStakeLimit(`http://127.0.0.1:${port}`, login.token);
  const client = new Client(`http://127.0.0.1:${port}`);
  client.auth.token = login.token;
  return client;
}

/** A new 500 000 CARATS table of the player's. */
async function newTable(client: Client): Promise<Room> {
  const room = await client.create('table', { game: '500000-carats' });
  room.onMessage('*', () => undefined);
  return room;
}

/** Which process (index) holds a room, from the matchmaker's listing in Redis. */
async function hostOf(redis: Redis, cluster: Cluster, roomId: string): Promise<number> {
  const cache = await redis.hget('roomcaches', roomId);
  const address = cache ? (JSON.parse(cache) as { publicAddress: string }).publicAddress : '';
  return cluster.processes.findIndex((p) => p.publicAddress === address);
}

interface Watched {
  readonly watched: Phase;
  readonly report: Record<string, number[]>;
  /** The table's process, and each process's watchers. */
  readonly tableProcess: number;
  readonly watchersOn: number[];
  /** Each process's CPU time during the watched play (ms). */
  readonly cpuMs: number[];
}

/** The watched run: the watchers join, the player plays, then when each watcher got each step. */
async function watchedRun(options: BenchOptions, cluster: Cluster, redis: Redis, client: Client, requestIds: () => string): Promise<Watched> {
  const room = await newTable(client);
  await room.request('watchers', { open: true });
  const ports = cluster.processes.map((p) => p.port);
  const { workers, perRoom } = await startWatchers(options, ports, room.roomId);
  try {
    const tableProcess = await hostOf(redis, cluster, room.roomId);
    const watchersOn = cluster.processes.map(() => 0);
    for (const [roomId, n] of Object.entries(perRoom)) watchersOn[await hostOf(redis, cluster, roomId)]! += n;
    await sleep(1000);
    const before = cluster.processes.map((p) => cpuMs(p.child.pid));
    const watched = await play(room, options.samples, options.pauseMs, requestIds);
    // Let the watchers receive the last steps (they may be far behind) before the report.
    const expected = options.watchers * watched.playerAt.size;
    for (let waited = 0; waited < 30_000; waited += 250) {
      const counts = await askAll(workers, 'count', 10_000);
      if (counts.reduce((sum, n) => sum + Number(n), 0) >= expected) break;
      await sleep(250);
    }
    const used = cluster.processes.map((p, i) => cpuMs(p.child.pid) - before[i]!);
    const report: Record<string, number[]> = {};
    for (const answer of await askAll(workers, 'report', 60_000)) {
      for (const [key, times] of Object.entries(JSON.parse(answer) as Record<string, number[]>)) (report[key] ??= []).push(...times);
    }
    for (const { child } of workers) child.stdin!.write('stop\n');
    await room.leave();
    return { watched, report, tableProcess, watchersOn, cpuMs: used };
  } finally {
    for (const { child } of workers) child.kill('SIGKILL');
  }
}

/** How far behind the player each watcher got each step (never ahead: ≥ 0). */
function watcherLags(watched: Phase, report: Record<string, number[]>): { lags: number[]; ahead: number; received: number } {
  const lags: number[] = [];
  let ahead = 0;
  let received = 0;
  for (const [key, times] of Object.entries(report)) {
    const playerAt = watched.playerAt.get(key);
    if (playerAt === undefined) continue;
    for (const t of times) {
      received++;
      lags.push(t - playerAt);
      if (t < playerAt) ahead++;
    }
  }
  return { lags, ahead, received };
}

interface Quiet {
  readonly alone: Phase;
  /** Each process's CPU time during the quiet play (ms). */
  readonly cpuMs: number[];
}

function printResults(options: BenchOptions, quiet: Quiet, run: Watched, coalesced: number[], loadAverageAtStart: number): void {
  const { watchers } = options;
  const { alone } = quiet;
  const { watched, report } = run;
  const { lags, ahead, received } = watcherLags(watched, report);
  const zero = percentiles(alone.latencies);
  const many = percentiles(watched.latencies);
  const ratio = { p50: +(many.p50 / zero.p50).toFixed(2), p95: +(many.p95 / zero.p95).toFixed(2), p99: +(many.p99 / zero.p99).toFixed(2) };
  const lag = percentiles(lags);
  const steps = watched.playerAt.size;
  const processes = run.cpuMs.map((used, i) => ({
    process: i,
    table: i === run.tableProcess,
    watchers: run.watchersOn[i]!,
    cpuMsQuiet: Math.round(quiet.cpuMs[i]!),
    cpuMsWatched: Math.round(used),
    coalesced: coalesced[i]!,
    // What the watchers added, per step delivered to one of them.
    cpuUsPerWatcherStep: run.watchersOn[i]! > 0 ? Math.round(((used - quiet.cpuMs[i]!) * 1000) / (run.watchersOn[i]! * steps)) : null,
  }));
  console.log(`${watchers} watchers: ${JSON.stringify(many)}`);
  console.log(`ratio (${watchers} / 0 watchers): p50 ×${ratio.p50}, p95 ×${ratio.p95}, p99 ×${ratio.p99}`);
  console.log(`watchers behind the player: ${JSON.stringify(lag)} over ${received} step deliveries (${watchers} × ${steps} steps expected); ahead of the player: ${ahead}`);
  for (const p of processes) console.log(`process ${p.process}${p.table ? ' (the table)' : ''}: ${p.watchers} watchers, CPU ${p.cpuMsQuiet} ms quiet → ${p.cpuMsWatched} ms watched, ${p.coalesced} frames coalesced${p.cpuUsPerWatcherStep === null ? '' : `, ${p.cpuUsPerWatcherStep} µs CPU per watcher-step`}`);
  console.log(JSON.stringify({
    bench: 'watchers',
    game: '500000-carats',
    processes: options.processes,
    watchers,
    samples: options.samples,
    pauseMs: options.pauseMs,
    pin: options.pins ? `${options.pins.server}/${options.pins.watchers}/${options.pins.player}` : null,
    niceWatchers: options.niceWatchers,
    watcherProcesses: options.watcherProcesses,
    cpus: cpus().length,
    loadAverageAtStart: +loadAverageAtStart.toFixed(2),
    loadAverageAtEnd: +loadavg()[0]!.toFixed(2),
    node: process.version,
    latencyMs: { '0': zero, [String(watchers)]: many },
    ratio,
    watcherLagMs: lag,
    watcherDeliveries: received,
    expectedDeliveries: watchers * steps,
    watchersAhead: ahead,
    perProcess: processes,
  }));
}

async function main(): Promise<void> {
  const options = optionsOrExit(COMMAND_LINE);
  const { watchers, samples, pauseMs, pins, processes } = options;
  if (pins) spawnSync('taskset', ['-cp', pins.player, String(process.pid)], { stdio: 'ignore' });
  const loadAverageAtStart = loadavg()[0]!;
  if (loadAverageAtStart > cpus().length / 2) {
    console.log(`warning: load average ${loadAverageAtStart.toFixed(2)} on ${cpus().length} CPUs: other work on this machine will show in the figures`);
  }
  const pinned = pins ? `, pinned ${pins.server}/${pins.watchers}/${pins.player} (servers/watchers/player)` : '';
  console.log(`bench:watchers — ${processes} server processes, ${samples} actions with 0 then ${watchers} watchers, ${pauseMs} ms between actions; watchers in ${options.watcherProcesses} client processes ${options.niceWatchers ? 'at nice 19' : 'not niced'}${pinned}; ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(2)}, Node ${process.version}`);
  const { cluster, redis } = await startServers(options);
  const listing = new Redis(redis.url);
  try {
    const client = await playerClient(cluster.processes[0]!.port);
    let n = 0;
    const requestIds = () => `bench_${++n}`;
    const quietTable = await newTable(client);
    const before = cluster.processes.map((p) => cpuMs(p.child.pid));
    const alone = await play(quietTable, samples, pauseMs, requestIds);
    const quiet = { alone, cpuMs: cluster.processes.map((p, i) => cpuMs(p.child.pid) - before[i]!) };
    await quietTable.leave();
    console.log(`0 watchers: ${JSON.stringify(percentiles(alone.latencies))}`);
    const run = await watchedRun(options, cluster, listing, client, requestIds);
    const coalesced = await Promise.all(cluster.processes.map((p) => coalescedFrames(p.port)));
    printResults(options, quiet, run, coalesced, loadAverageAtStart);
  } finally {
    listing.disconnect();
    await cluster.stop();
    await redis.stop();
  }
  process.exit(0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  (process.argv.includes('--watchers-worker') ? watchersWorker() : main()).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
