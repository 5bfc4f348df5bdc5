/**
 * `npm run bench:dealer`: what a purchase costs Redis, held to a target (docs/dealer.md,
 * "Benchmark"). Its headline is the instructions Redis runs a purchase, counted with its server
 * under valgrind's callgrind: a count that, unlike a rate, does not move with the disk, and moves
 * little with what else the machine does (its batching and the round's length: the figures
 * printed with it). On a private Redis (appendonly yes, appendfsync always), through the
 * RedisStore's one-script purchase, each count is of a round of 5,000 purchases after a round of
 * 5,000 that gives every player its protection's allowance, as in play:
 * - a purchase, as the store makes it: the headline, held to tools/dealer-bench.ts's target
 *   (no regression from 173,500, 1 % of tolerance): PASS or FAIL, and exit 1 on FAIL;
 * - the law's share: the same purchase without its protection's checks, and without them and the
 *   regulator's archive line (its script stripped of those lines, all else the same), each on
 *   players and an emission of its own; the difference is what the law costs;
 * - a bare script (`redis-benchmark` running INCR a cursor, HINCRBY a wallet, RPUSH a journal
 *   line), the floor of what a purchase does.
 * Then, as a secondary figure, purchases a second against the bare script a second: rounds of
 * each alternate on a Redis not under valgrind (the disk's fsync time drifts on a shared machine),
 * and the ratio of their medians is printed with what each operation cost Redis. `--instructions`
 * counts without the timed rounds. The figures go to stdout, the same as JSON on its last line;
 * progress to stderr.
 *
 * `--compare <what>` alternates rounds of two dealer setups instead, in the same run, and prints
 * their medians and ratio (docs/scaling.md):
 * - `protocols`: on one Redis, the one-script purchase against the per-slot one;
 * - `masters`: the per-slot purchase with WAIT for one replica on a local Redis Cluster of 1
 *   master + 1 replica against one of 3 + 3 (no AOF on the nodes: the replica holds the copy);
 * - `wait`: on a 3 + 3 cluster, the per-slot purchase without WAIT against with WAIT 1;
 * - `lanes`: on a 3 + 3 cluster, per slot with WAIT 1, one game and price on 1 lane against 3
 *   (`sequenceLanes`); it prints the master each lane lands on and each master's Redis CPU
 *   per setup, which shows the dealing spread over the masters.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { RedisStore, type RedisStoreOptions } from '../src/dealer/redis/store';
import { readScripts, type RedisClient } from '../src/redis-scripts/loader';
import { NOEL_TABLES } from '../src/games/noel-de-la-chance/prize-table';
import { optionsOrExit, UsageError, whole, type CommandLine } from '../tools/command-line';
import { callgrindTotal, INSTRUCTIONS_TARGET, INSTRUCTIONS_TOLERANCE, purchaseWithoutTheLaw, verdict, type LawlessPart } from '../tools/dealer-bench';
import { median } from '../tools/median';
import { RedisCluster } from '../tools/redis-cluster';
import { RedisServer } from '../tools/redis-server';

const COMPARISONS = ['protocols', 'masters', 'wait', 'lanes'] as const;

interface Options {
  readonly instructions: boolean;
  readonly compare: (typeof COMPARISONS)[number] | undefined;
  readonly purchases: number;
  readonly rounds: number;
  readonly inFlight: number;
  readonly connections: number;
  readonly players: number;
  readonly redisConfig: readonly (readonly [name: string, value: string])[];
}

const DEFAULTS: Options = {
  instructions: false,
  compare: undefined,
  purchases: 50_000,
  rounds: 5,
  inFlight: 50,
  connections: 2,
  players: 1000,
  redisConfig: [],
};

const COMMAND: CommandLine<Options> = {
  synopsis: 'npm run bench:dealer -- [options]',
  defaults: DEFAULTS,
  flags: [
    { name: '--instructions', help: "only the counts under callgrind (the headline, the law's share, the verdict): no timed rounds", set: (o) => (o.instructions = true) },
    {
      name: '--compare',
      value: 'WHAT',
      help: 'protocols | masters | wait | lanes: two dealer setups, timed rounds alternating, instead\n(no count, no verdict)',
      set: (o, v) => {
        const what = COMPARISONS.find((c) => c === v);
        if (!what) throw new UsageError(`must be ${COMPARISONS.join(', ')}, got ${JSON.stringify(v)}`);
        o.compare = what;
      },
    },
    { name: '--purchases', value: 'N', help: `purchases a timed round (default ${DEFAULTS.purchases}); a count is of 5,000 always`, set: (o, v) => (o.purchases = whole(v, 1, 10_000_000)) },
    { name: '--rounds', value: 'N', help: `timed rounds of each (default ${DEFAULTS.rounds})`, set: (o, v) => (o.rounds = whole(v, 1, 1000)) },
    { name: '--in-flight', value: 'N', help: `purchases in flight, and redis-benchmark's clients (default ${DEFAULTS.inFlight})`, set: (o, v) => (o.inFlight = whole(v, 1, 10_000)) },
    { name: '--connections', value: 'N', help: `the dealer's connections, one store each (default ${DEFAULTS.connections})`, set: (o, v) => (o.connections = whole(v, 1, 100)) },
    { name: '--players', value: 'N', help: `players buying (default ${DEFAULTS.players})`, set: (o, v) => (o.players = whole(v, 1, 1_000_000)) },
    {
      name: '--redis-config',
      value: 'NAME=VALUE',
      help: "CONFIG SET on the bench's Redis before anything is written, to weigh a setting\n(repeatable; e.g. hash-max-listpack-entries=0; not with --compare)",
      set: (o, v) => {
        const match = /^([a-z0-9-]+)=(.+)$/.exec(v);
        if (!match) throw new UsageError(`takes <name>=<value>, got ${JSON.stringify(v)}`);
        o.redisConfig = [...o.redisConfig, [match[1]!, match[2]!]];
      },
    },
  ],
  finish: (o) => {
    if (o.compare !== undefined && o.redisConfig.length > 0) throw new UsageError('--redis-config is for the count and its timed rounds, not --compare');
    if (o.compare !== undefined && o.instructions) throw new UsageError('--compare times two setups: it counts no instructions');
  },
};

const OPTIONS = optionsOrExit(COMMAND);
const { purchases: PURCHASES, rounds: ROUNDS, inFlight: IN_FLIGHT, connections: CONNECTIONS, players: PLAYERS } = OPTIONS;
/** Purchases a counted round, and a round before it: the target's (Redis runs some fifty times slower under callgrind). */
const COUNTED = 5_000;
/** Purchases a counted setup's players are funded for (and its limits): as when the target was counted, whose digits it keeps. */
const COUNT_FUNDED = 5 * COUNTED;
const TABLE = NOEL_TABLES[0]!;
const REDIS_BENCHMARK = process.env['REDIS_BENCHMARK'] ?? 'redis-benchmark';
const DEALER_LUA = new URL('../src/dealer/lua/', import.meta.url);

/** The equivalent work, bare: what a purchase must at least do on Redis. */
const EQUIVALENT_LUA = `
local position = redis.call('INCR', KEYS[1])
local balance = redis.call('HINCRBY', KEYS[2], 'balance', -tonumber(ARGV[1]))
redis.call('RPUSH', KEYS[3], 'stake|-' .. ARGV[1] .. '|' .. balance .. '|' .. ARGV[2] .. '|unit:' .. position)
return position`;

/** A reality check no bench run reaches: the session is kept, as in play. */
const BENCH_PROTECTION = { realityCheckMs: 24 * 3_600_000, sessionIdleMs: 30 * 60_000 };

function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** `n` with thousands separated, as the figures print. */
function figure(n: number): string {
  return n.toLocaleString('en-US');
}

/** Bytes the Redis server has written to its AOF so far (no rewrite runs: see `fresh`). */
async function aofBytes(redis: RedisClient): Promise<number> {
  return Number(/^aof_current_size:(\d+)/m.exec(await redis.info('persistence'))?.[1] ?? NaN);
}

/** Scripts the Redis server has run so far (EVALSHA and EVAL calls). */
async function scriptCalls(redis: RedisClient): Promise<number> {
  const info = await redis.info('commandstats');
  const calls = (command: string) => Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return calls('evalsha') + calls('eval');
}

/** Seconds of CPU the Redis server has used so far (user + system). */
async function redisCpuSeconds(redis: RedisClient): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/**
 * The bench's Redis, with `wrapper` (callgrind) or without: no AOF rewrite in the middle of a
 * round (each round reads the AOF's growth), then `--redis-config`'s settings.
 */
async function fresh(wrapper?: readonly string[]): Promise<RedisServer> {
  progress(`starting redis-server${wrapper ? ' under callgrind' : ''} (appendonly yes, appendfsync always)`);
  const server = await RedisServer.start({ appendOnly: true, ...(wrapper ? { wrapper } : {}) });
  const redis = new Redis(server.url);
  try {
    await redis.config('SET', 'auto-aof-rewrite-percentage', '0');
    for (const [name, value] of OPTIONS.redisConfig) {
      await redis.config('SET', name, value).catch((err: unknown) => {
        throw new Error(`--redis-config ${name}=${value}: ${err instanceof Error ? err.message : String(err)}`);
      });
      progress(`redis: ${name} ${value}`);
    }
  } catch (err) {
    await server.stop();
    throw err;
  } finally {
    redis.disconnect();
  }
  return server;
}

/**
 * Round `round` of `purchases` (`label` in the progress lines): IN_FLIGHT lanes, each buying
 * again as soon as its purchase is answered, spread over the stores (one connection each, as
 * separate dealers would be). Purchases a second.
 */
async function dealerRound(stores: readonly RedisStore[], purchases: number, round: number, label: string): Promise<number> {
  let issued = 0;
  let done = 0;
  const started = performance.now();
  const ticker = setInterval(() => {
    const s = (performance.now() - started) / 1000;
    progress(`  ${label}: ${done} / ${purchases} purchases, ${Math.round(done / s)}/s`);
  }, 1000);
  const lane = async (store: RedisStore) => {
    while (issued < purchases) {
      const k = issued++;
      const result = await store.sales.purchase({
        playerId: `p${k % PLAYERS}`,
        requestId: `b${round}-${k}`,
        game: TABLE.game,
        stake: TABLE.stake,
        now: Date.now(),
        // The play service's checks, as the server asks them (the limits are set by `prepare`).
        protection: BENCH_PROTECTION,
      });
      if (!result.ok) throw new Error(`purchase refused: ${result.code} ${result.message}`);
      done++;
    }
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => lane(stores[i % stores.length]!)));
  } finally {
    clearInterval(ticker);
  }
  return purchases / ((performance.now() - started) / 1000);
}

/** `n` runs of the bare script by `redis-benchmark` (IN_FLIGHT clients). Scripts a second. */
async function redisBenchmarkRound(port: number, sha: string, n: number, round: string): Promise<number> {
  const args = [
    '-h', '127.0.0.1', '-p', String(port),
    '-c', String(IN_FLIGHT), '-n', String(n), '-r', String(PLAYERS), '--csv',
    'EVALSHA', sha, '3', 'rb:cursor', 'rb:wallet:__rand_int__', 'rb:journal:__rand_int__', String(TABLE.stake), String(Date.now()),
  ];
  const started = performance.now();
  const ticker = setInterval(() => progress(`  ${round}: ${Math.round((performance.now() - started) / 1000)} s`), 1000);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(REDIS_BENCHMARK, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', (err) => reject(new Error(`cannot run ${REDIS_BENCHMARK}: ${err.message}`)));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`redis-benchmark exited ${code}:\n${out}`))));
  }).finally(() => clearInterval(ticker));
  // --csv: a header line, then "<test>","<requests per second>",...
  const row = output.trim().split('\n').find((line) => line.startsWith('"EVALSHA'));
  const rps = Number(row?.split('","')[1]);
  if (!Number.isFinite(rps)) throw new Error(`no figure in redis-benchmark's output:\n${output}`);
  return rps;
}

/**
 * Opens the bench's emission (a block per lane at least, enough for `purchases`), funds the
 * players through `store` and sets each one's stake limits (week and day), which purchases
 * check and never reach.
 */
async function prepare(store: RedisStore, purchases: number, lanes = 1): Promise<void> {
  const blockCount = Math.max(Math.ceil(purchases / TABLE.blockSize) + 1, 2 * lanes);
  await store.emissions.openEmission({ emissionId: 'bench', table: TABLE, blockCount, now: Date.now() });
  const funds = purchases * TABLE.stake;
  await Promise.all(Array.from({ length: PLAYERS }, (_, p) => store.wallets.deposit(`p${p}`, funds, 'bench', Date.now())));
  const stakeLimits = { stake_week: funds, stake_day: funds };
  await Promise.all(Array.from({ length: PLAYERS }, (_, p) => store.protections.changeProtection(`p${p}`, { what: 'limits', limits: stakeLimits, raiseDelayMs: 48 * 3_600_000 }, Date.now())));
}

/** A dealer setup: its stores (one connection each), and its end. */
interface Setup {
  readonly name: string;
  readonly stores: readonly RedisStore[];
  stop(): Promise<void>;
}

/**
 * A setup on `server` under its own prefix; `lawless` replaces its purchase script by one
 * without that part of the law's work (tools/dealer-bench.ts), all else the same.
 */
async function onOneRedis(server: RedisServer, name: string, purchases: number, options: RedisStoreOptions, lawless?: LawlessPart): Promise<Setup> {
  const clients = Array.from({ length: CONNECTIONS }, () => new Redis(server.url, { enableAutoPipelining: true }));
  const stores = clients.map((client) => new RedisStore(client, { prefix: name, ...options }));
  if (lawless) {
    for (const client of clients) purchaseWithoutTheLaw(client, readScripts(DEALER_LUA).get('purchaseUnits')!.lua, lawless);
  }
  await prepare(stores[0]!, purchases);
  return { name, stores, stop: async () => clients.forEach((c) => c.disconnect()) };
}

async function onCluster(masters: number, name: string, options: RedisStoreOptions, shared?: RedisCluster): Promise<Setup> {
  progress(`${name}: ${shared ? 'on the cluster started' : `starting a local cluster of ${masters} + ${masters}`}`);
  const cluster = shared ?? (await RedisCluster.start({ masters }));
  const clients = Array.from({ length: CONNECTIONS }, () => cluster.client({ enableAutoPipelining: true }));
  const stores = clients.map((client) => new RedisStore(client, { prefix: name, protocol: 'per-slot', ...options }));
  await prepare(stores[0]!, PURCHASES * ROUNDS, options.sequenceLanes);
  return {
    name,
    stores,
    stop: async () => {
      clients.forEach((c) => c.disconnect());
      if (!shared) await cluster.stop();
    },
  };
}

/** `--compare`: rounds of two setups alternate; medians, ratio (second / first), round by round. */
async function compare(what: (typeof COMPARISONS)[number]): Promise<void> {
  const setups: Setup[] = [];
  let server: RedisServer | undefined;
  let cluster: RedisCluster | undefined;
  try {
    if (what === 'protocols') {
      server = await fresh();
      setups.push(await onOneRedis(server, 'one-script', PURCHASES * ROUNDS, { protocol: 'one-script' }));
      setups.push(await onOneRedis(server, 'per-slot', PURCHASES * ROUNDS, { protocol: 'per-slot' }));
    } else if (what === 'masters') {
      setups.push(await onCluster(1, 'masters-1', { waitReplicas: 1 }));
      setups.push(await onCluster(3, 'masters-3', { waitReplicas: 1 }));
    } else if (what === 'lanes') {
      cluster = await RedisCluster.start({ masters: 3 });
      setups.push(await onCluster(3, 'lanes-1', { waitReplicas: 1, sequenceLanes: 1 }, cluster));
      setups.push(await onCluster(3, 'lanes-3', { waitReplicas: 1, sequenceLanes: 3 }, cluster));
      for (let lane = 0; lane < 3; lane++) {
        const key = setups[1]!.stores[0]!.keys.lane(TABLE.game, TABLE.stake, lane).current;
        console.log(`lane ${lane} (${key}): master :${(await cluster.masterOf(key)).port}`);
      }
    } else {
      cluster = await RedisCluster.start({ masters: 3 });
      setups.push(await onCluster(3, 'no-wait', { waitReplicas: 0 }, cluster));
      setups.push(await onCluster(3, 'wait-1', { waitReplicas: 1 }, cluster));
    }
    // On a shared cluster, each master's Redis CPU per setup: where the dealing ran.
    const masters = cluster ? await cluster.masters() : [];
    const masterClients = masters.map((m) => new Redis(m.port, '127.0.0.1'));
    const masterCpu = setups.map(() => masters.map(() => 0));
    const rounds: number[][] = setups.map(() => []);
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        for (const [i, setup] of setups.entries()) {
          const before = await Promise.all(masterClients.map(redisCpuSeconds));
          rounds[i]!.push(await dealerRound(setup.stores, PURCHASES, round, `${setup.name} round ${round}`));
          const after = await Promise.all(masterClients.map(redisCpuSeconds));
          after.forEach((cpu, m) => (masterCpu[i]![m]! += cpu - before[m]!));
          progress(`${setup.name} round ${round}: ${Math.round(rounds[i]!.at(-1)!)} purchases/s`);
        }
      }
    } finally {
      masterClients.forEach((c) => c.disconnect());
    }
    if (masters.length > 0) {
      for (const [i, setup] of setups.entries()) {
        console.log(`${setup.name}: Redis CPU seconds per master ${masters.map((m, j) => `:${m.port} ${masterCpu[i]![j]!.toFixed(1)}`).join(', ')}`);
      }
    }
    await Promise.all(setups.flatMap((s) => s.stores.map((store) => store.close())));
    const medians = rounds.map((r) => Math.round(median(r)));
    const ratio = Number((medians[1]! / medians[0]!).toFixed(3));
    const pairRatios = rounds[0]!.map((first, i) => Number((rounds[1]![i]! / first).toFixed(3)));
    for (const [i, setup] of setups.entries()) console.log(`${setup.name}: ${medians[i]} purchases/s (rounds ${rounds[i]!.map(Math.round).join(', ')})`);
    console.log(`ratio ${setups[1]!.name} / ${setups[0]!.name}: ${ratio}; round by round: ${pairRatios.join(', ')}`);
    console.log(JSON.stringify({
      compare: what,
      setups: setups.map((s, i) => ({
        name: s.name,
        purchasesPerSecond: medians[i],
        rounds: rounds[i]!.map(Math.round),
        ...(masters.length > 0 ? { redisCpuSecondsPerMaster: masterCpu[i]!.map((cpu) => Number(cpu.toFixed(2))) } : {}),
      })),
      ratio,
      pairRatios,
      purchasesPerRound: PURCHASES,
      rounds: ROUNDS,
      inFlight: IN_FLIGHT,
      connections: CONNECTIONS,
      players: PLAYERS,
    }));
  } finally {
    for (const setup of setups) await setup.stop();
    await cluster?.stop();
    await server?.stop();
  }
}

/**
 * What one round cost Redis: its CPU seconds, the bytes it wrote to the AOF, and the scripts it
 * ran (the dealer's purchases share a script call when they come in the same turn: fewer calls
 * a round, less work a purchase).
 */
interface RoundCost {
  readonly perSecond: number;
  readonly redisCpuSeconds: number;
  readonly aofBytes: number;
  readonly scriptCalls: number;
}

async function measured(redis: RedisClient, run: () => Promise<number>): Promise<RoundCost> {
  const [cpu, bytes, calls] = [await redisCpuSeconds(redis), await aofBytes(redis), await scriptCalls(redis)];
  const perSecond = await run();
  return {
    perSecond,
    redisCpuSeconds: (await redisCpuSeconds(redis)) - cpu,
    aofBytes: (await aofBytes(redis)) - bytes,
    scriptCalls: (await scriptCalls(redis)) - calls,
  };
}

/** Purchases a script call over `rounds` of `purchases` each. */
function purchasesPerCall(rounds: readonly RoundCost[], purchases: number): number {
  return Number(((purchases * rounds.length) / rounds.reduce((sum, r) => sum + r.scriptCalls, 0)).toFixed(1));
}

/**
 * A counted round: Redis's instructions and AOF bytes an operation, purchases a script call, and
 * the round's seconds (Redis's timer runs the while, and its instructions count with the round's).
 */
interface Counted {
  readonly instructions: number;
  readonly aofBytes: number;
  readonly perCall: number;
  readonly seconds: number;
}

interface Counts {
  readonly purchase: Counted;
  readonly withoutProtection: Counted;
  readonly withoutTheLaw: Counted;
  readonly script: Counted;
  /** Redis's instructions a second with nothing asked: its timer (serverCron), which runs through every round. */
  readonly idlePerSecond: number;
}

/** How long Redis is counted idle, for its timer's rate. */
const IDLE_MS = 3_000;

/** Exits 2, saying so, when valgrind (callgrind and its control) is not installed. */
function needValgrind(): void {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--version'], { stdio: 'ignore' });
  } catch {
    console.error("bench:dealer counts Redis's instructions under valgrind's callgrind, and valgrind is not installed (Debian: apt-get install valgrind); --compare runs without it");
    process.exit(2);
  }
}

/** The counts, each of COUNTED operations after COUNTED purchases of its setup (callgrind zeroed before, dumped after). */
async function countInstructions(): Promise<Counts> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
  const out = join(dir, 'callgrind.out');
  const server = await fresh(['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`]);
  const setups: Setup[] = [];
  const redis = new Redis(server.url);
  let dumps = 0;
  const control = (what: '-z' | '-d') => execFileSync('callgrind_control', [what, String(server.pid!)], { stdio: 'ignore' });
  /** Redis's instructions while `run` runs (callgrind zeroed before, dumped after), and its seconds. */
  const counting = async <T>(run: () => Promise<T>) => {
    control('-z');
    const started = performance.now();
    const result = await run();
    const seconds = (performance.now() - started) / 1000;
    control('-d');
    // Callgrind numbers its dumps from 1: `<out>.<n>`.
    return { result, seconds, instructions: callgrindTotal(readFileSync(`${out}.${++dumps}`, 'utf8')) };
  };
  const count = async (run: () => Promise<number>): Promise<Counted> => {
    let counted = { seconds: 0, instructions: 0 };
    const round = await measured(redis, async () => {
      const { result, ...rest } = await counting(run);
      counted = rest;
      return result;
    });
    return { instructions: Math.round(counted.instructions / COUNTED), aofBytes: Math.round(round.aofBytes / COUNTED), perCall: purchasesPerCall([round], COUNTED), seconds: counted.seconds };
  };
  /** A setup's first round, then its counted one. */
  const purchases = async (name: string, lawless?: LawlessPart) => {
    const setup = await onOneRedis(server, name, COUNT_FUNDED, {}, lawless);
    setups.push(setup);
    await dealerRound(setup.stores, COUNTED, 0, `${name} first round`);
    progress(`${name}: counting ${COUNTED} purchases`);
    const counted = await count(() => dealerRound(setup.stores, COUNTED, 1, `${name} counted`));
    await Promise.all(setup.stores.map((s) => s.close()));
    return counted;
  };
  try {
    const purchase = await purchases('bench');
    progress(`bare script: counting ${COUNTED} runs`);
    const sha = String(await redis.script('LOAD', EQUIVALENT_LUA));
    const script = await count(() => redisBenchmarkRound(server.port, sha, COUNTED, 'bare script counted'));
    const withoutProtection = await purchases('no-protection', 'protection');
    const withoutLaw = await purchases('no-law', 'law');
    progress(`idle: counting ${IDLE_MS / 1000} s`);
    const idle = await counting(() => delay(IDLE_MS));
    return { purchase, withoutProtection, withoutTheLaw: withoutLaw, script, idlePerSecond: idle.instructions / idle.seconds };
  } finally {
    redis.disconnect();
    for (const setup of setups) await setup.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The timed rounds' medians and what each operation cost Redis. */
interface Timed {
  readonly dealer: readonly RoundCost[];
  readonly bench: readonly RoundCost[];
  readonly clientCpuSeconds: number;
}

/** ROUNDS rounds of PURCHASES purchases and as many bare scripts, alternating, on a Redis not under valgrind. */
async function timeRounds(): Promise<Timed> {
  const server = await fresh();
  const redis = new Redis(server.url);
  let setup: Setup | undefined;
  try {
    setup = await onOneRedis(server, 'bench', PURCHASES * ROUNDS, {});
    const sha = String(await redis.script('LOAD', EQUIVALENT_LUA));
    const dealer: RoundCost[] = [];
    const bench: RoundCost[] = [];
    let clientCpuSeconds = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const clientBefore = process.cpuUsage();
      dealer.push(await measured(redis, () => dealerRound(setup!.stores, PURCHASES, round, `dealer round ${round}`)));
      const client = process.cpuUsage(clientBefore);
      clientCpuSeconds += (client.user + client.system) / 1e6;
      progress(`dealer round ${round}: ${Math.round(dealer.at(-1)!.perSecond)} purchases/s`);
      bench.push(await measured(redis, () => redisBenchmarkRound(server.port, sha, PURCHASES, `redis-benchmark round ${round}`)));
      progress(`redis-benchmark round ${round}: ${Math.round(bench.at(-1)!.perSecond)} scripts/s`);
    }
    await Promise.all(setup.stores.map((s) => s.close()));
    return { dealer, bench, clientCpuSeconds };
  } finally {
    redis.disconnect();
    await setup?.stop();
    await server.stop();
  }
}

/** What this run set otherwise than the target's setup (none: its count is held to the target). */
function changedFromTarget(): string[] {
  const changed: string[] = [];
  if (IN_FLIGHT !== DEFAULTS.inFlight) changed.push(`--in-flight ${IN_FLIGHT}`);
  if (CONNECTIONS !== DEFAULTS.connections) changed.push(`--connections ${CONNECTIONS}`);
  if (PLAYERS !== DEFAULTS.players) changed.push(`--players ${PLAYERS}`);
  for (const [name, value] of OPTIONS.redisConfig) changed.push(`--redis-config ${name}=${value}`);
  return changed;
}

/**
 * The counts in words, the law's share among them; the same for the JSON line. Redis's timer runs
 * through a round for as long as it lasts, and a round without the law is shorter: the law's
 * share compares the counts without it (its idle rate times each round's seconds).
 */
function reportCounts(counts: Counts): Record<string, unknown> {
  const { purchase, withoutProtection, withoutTheLaw: lawless, script, idlePerSecond } = counts;
  const timer = (c: Counted) => Math.round((idlePerSecond * c.seconds) / COUNTED);
  const work = (c: Counted) => c.instructions - timer(c);
  const law = work(purchase) - work(lawless);
  const protection = work(purchase) - work(withoutProtection);
  const archiveLine = law - protection;
  const share = Number((law / purchase.instructions).toFixed(3));
  const ratio = Number((purchase.instructions / script.instructions).toFixed(3));
  console.log(
    `Redis instructions a purchase: ${figure(purchase.instructions)} (callgrind; RedisStore.purchase, ${IN_FLIGHT} in flight over ${CONNECTIONS} connections, ` +
      `${PLAYERS} players; ${figure(COUNTED)} counted after ${figure(COUNTED)}; ${purchase.perCall} purchases a script call, ${purchase.aofBytes} AOF bytes a purchase)`,
  );
  console.log(
    `  of which Redis's timer: ${figure(timer(purchase))} (the round's ${purchase.seconds.toFixed(1)} s at ${figure(Math.round(idlePerSecond))} instructions a second, counted idle)`,
  );
  console.log(
    `  the law's share: ${figure(law)} (${(share * 100).toFixed(1)} %): protection's checks ${figure(protection)}, the archive's line ${figure(archiveLine)} ` +
      `(timer aside: a purchase ${figure(work(purchase))}, without protection's checks ${figure(work(withoutProtection))}, without both ${figure(work(lawless))})`,
  );
  console.log(`  a bare script (INCR, HINCRBY, RPUSH; redis-benchmark, ${IN_FLIGHT} clients): ${figure(script.instructions)}, ${script.aofBytes} AOF bytes; a purchase ÷ a bare script ${ratio}`);
  return {
    redisInstructionsPerPurchase: purchase.instructions,
    redisTimerPerPurchase: timer(purchase),
    lawShare: { instructions: law, share, protectionChecks: protection, archiveLine },
    redisInstructionsWithoutProtection: withoutProtection.instructions,
    redisInstructionsWithoutTheLaw: lawless.instructions,
    redisInstructionsPerBenchmarkScript: script.instructions,
    instructionsRatio: ratio,
    aofBytesPerPurchase: purchase.aofBytes,
    aofBytesPerBenchmarkScript: script.aofBytes,
    purchasesPerScriptCall: purchase.perCall,
    countedPurchases: COUNTED,
    countedSeconds: Number(purchase.seconds.toFixed(1)),
    redisIdleInstructionsPerSecond: Math.round(idlePerSecond),
  };
}

/** The timed rounds in words (the ratio of medians, what each operation cost Redis); the same for the JSON line. */
function reportTimes({ dealer, bench, clientCpuSeconds }: Timed): Record<string, unknown> {
  const perOp = (rounds: readonly RoundCost[], of: (r: RoundCost) => number, scale: number, digits: number) =>
    Number(((rounds.reduce((sum, r) => sum + of(r), 0) * scale) / (PURCHASES * rounds.length)).toFixed(digits));
  const cpuMicros = (rounds: readonly RoundCost[]) => perOp(rounds, (r) => r.redisCpuSeconds, 1e6, 1);
  const bytes = (rounds: readonly RoundCost[]) => perOp(rounds, (r) => r.aofBytes, 1, 0);
  const rate = (rounds: readonly RoundCost[]) => Math.round(median(rounds.map((r) => r.perSecond)));
  const dealerPerSecond = rate(dealer);
  const benchPerSecond = rate(bench);
  const ratio = Number((dealerPerSecond / benchPerSecond).toFixed(3));
  // The disk's fsync time drifts during a run: the ratio of each pair of neighbouring rounds
  // shows how much of the spread is the disk's.
  const pairRatios = dealer.map((d, i) => Number((d.perSecond / bench[i]!.perSecond).toFixed(3)));
  console.log(
    `purchases a second: ${figure(dealerPerSecond)} against ${figure(benchPerSecond)} bare scripts a second, ratio ${ratio} ` +
      `(medians of ${ROUNDS} alternating rounds of ${figure(PURCHASES)}; round by round ${pairRatios.join(', ')})`,
  );
  console.log(
    `  Redis CPU ${cpuMicros(dealer)} µs a purchase, ${cpuMicros(bench)} a bare script; ${bytes(dealer)} and ${bytes(bench)} AOF bytes; ` +
      `${purchasesPerCall(dealer, PURCHASES)} purchases a script call; the dealer process ${((clientCpuSeconds * 1e6) / (PURCHASES * dealer.length)).toFixed(1)} µs of CPU a purchase`,
  );
  return {
    dealerPurchasesPerSecond: dealerPerSecond,
    redisBenchmarkPerSecond: benchPerSecond,
    ratio,
    pairRatios,
    dealerRounds: dealer.map((r) => Math.round(r.perSecond)),
    redisBenchmarkRounds: bench.map((r) => Math.round(r.perSecond)),
    redisCpuMicrosPerPurchase: cpuMicros(dealer),
    redisCpuMicrosPerBenchmarkScript: cpuMicros(bench),
    dealerProcessCpuMicrosPerPurchase: Number(((clientCpuSeconds * 1e6) / (PURCHASES * dealer.length)).toFixed(1)),
    aofBytesPerPurchase: bytes(dealer),
    aofBytesPerBenchmarkScript: bytes(bench),
    purchasesPerScriptCall: purchasesPerCall(dealer, PURCHASES),
    purchasesPerRound: PURCHASES,
    rounds: ROUNDS,
  };
}

async function main(): Promise<number> {
  if (OPTIONS.compare) {
    await compare(OPTIONS.compare);
    return 0;
  }
  needValgrind();
  const counts = await countInstructions();
  const timed = OPTIONS.instructions ? undefined : await timeRounds();
  const counted = reportCounts(counts);
  const times = timed ? reportTimes(timed) : undefined;
  const judged = verdict(counts.purchase.instructions, counts.purchase.perCall, changedFromTarget());
  console.log(judged.sentence);
  console.log(JSON.stringify({
    ...counted,
    target: INSTRUCTIONS_TARGET,
    tolerance: INSTRUCTIONS_TOLERANCE,
    verdict: judged.outcome,
    ...(times ? { time: times } : {}),
    ...(OPTIONS.redisConfig.length > 0 ? { redisConfig: Object.fromEntries(OPTIONS.redisConfig) } : {}),
    inFlight: IN_FLIGHT,
    connections: CONNECTIONS,
    players: PLAYERS,
  }));
  return judged.outcome === 'fail' ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
