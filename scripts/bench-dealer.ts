/**
 * `npm run bench:dealer`: purchases per second through the RedisStore, against `redis-benchmark`
 * running a Lua script that does the bare equivalent work (increment a cursor, debit a wallet,
 * append a journal line), on the same private Redis with appendonly yes + appendfsync always.
 * Rounds alternate between the two so that both see the same disk (whose fsync time drifts a
 * lot on a shared machine); the medians and their ratio are printed, as JSON on the last line.
 * Progress goes to stderr.
 *
 * With appendfsync always, Redis fsyncs the AOF once per event-loop turn, and how long that
 * takes grows with the bytes written: so each round also reads how many AOF bytes an operation
 * wrote, and a third kind of round runs the bare script padded to write as many bytes per call
 * as a purchase does (`--no-padded` leaves it out). The dealer against the padded script shows
 * what is left of the gap once the bytes are the same.
 *
 * Options: --purchases <n per round> --rounds <n> --in-flight <n> --connections <n> --players <n>
 *   --no-padded --redis-config <name>=<value> (repeatable: CONFIG SET on the bench's Redis before
 *   anything is written, to weigh a tuning, e.g. hash-max-listpack-entries=0)
 *
 * `--instructions` counts instead how many instructions Redis runs for a purchase and for a run
 * of the bare script, with its server under valgrind's callgrind (which must be installed): a
 * count that, unlike a rate, does not move with what else the machine is doing or its disk.
 * A round of purchases first (each player then holds its protection's allowance, as in play),
 * then one round of each counted; 5,000 purchases a round unless --purchases says otherwise.
 *
 * `--compare <what>` alternates rounds of two dealer setups instead, in the same run, and prints
 * their medians and ratio (docs/scaling.md):
 * - `protocols`: on the one Redis above, the one-script purchase against the per-slot one;
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
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { RedisStore, type RedisStoreOptions } from '../src/dealer/redis/store';
import type { RedisClient } from '../src/redis-scripts/loader';
import { NOEL_TABLES } from '../src/games/noel-de-la-chance/prize-table';
import { median } from '../tools/median';
import { RedisCluster } from '../tools/redis-cluster';
import { RedisServer } from '../tools/redis-server';

const { values } = parseArgs({
  options: {
    purchases: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    'in-flight': { type: 'string', default: '50' },
    connections: { type: 'string', default: '2' },
    players: { type: 'string', default: '1000' },
    compare: { type: 'string' },
    'no-padded': { type: 'boolean', default: false },
    instructions: { type: 'boolean', default: false },
    'redis-config': { type: 'string', multiple: true, default: [] },
  },
});
const COMPARE = values.compare;
if (COMPARE !== undefined && !['protocols', 'masters', 'wait', 'lanes'].includes(COMPARE)) {
  console.error('--compare must be protocols, masters, wait or lanes');
  process.exit(2);
}
const INSTRUCTIONS = values.instructions;
const REDIS_CONFIG = values['redis-config'].map((setting) => {
  const match = /^([a-z0-9-]+)=(.+)$/.exec(setting);
  if (!match) {
    console.error(`--redis-config takes <name>=<value>, got ${JSON.stringify(setting)}`);
    process.exit(2);
  }
  return [match[1]!, match[2]!] as const;
});
if (COMPARE !== undefined && REDIS_CONFIG.length > 0) {
  console.error('--redis-config is for the bench against redis-benchmark (with or without --instructions), not --compare');
  process.exit(2);
}
// Under callgrind Redis runs some fifty times slower: fewer purchases make the same count.
const PURCHASES = values.purchases === undefined ? (INSTRUCTIONS ? 5_000 : 50_000) : positive('purchases');
const ROUNDS = positive('rounds');
const IN_FLIGHT = positive('in-flight');
const CONNECTIONS = positive('connections');
const PLAYERS = positive('players');
const TABLE = NOEL_TABLES[0]!;
const REDIS_BENCHMARK = process.env['REDIS_BENCHMARK'] ?? 'redis-benchmark';

/** The equivalent work, bare: what a purchase must at least do on Redis. */
const EQUIVALENT_LUA = `
local position = redis.call('INCR', KEYS[1])
local balance = redis.call('HINCRBY', KEYS[2], 'balance', -tonumber(ARGV[1]))
redis.call('RPUSH', KEYS[3], 'stake|-' .. ARGV[1] .. '|' .. balance .. '|' .. ARGV[2] .. '|unit:' .. position)
return position`;

/** The bare script, its journal line padded by `pad` bytes: as many AOF bytes a call as a purchase writes. */
function paddedEquivalent(pad: number): string {
  return EQUIVALENT_LUA.replace(".. '|unit:' .. position)", `.. '|unit:' .. position .. string.rep('x', ${pad}))`);
}

function positive(name: Exclude<keyof typeof values, 'compare' | 'no-padded' | 'instructions' | 'redis-config'>): number {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 1) {
    console.error(`--${name} must be a positive whole number`);
    process.exit(2);
  }
  return n;
}

function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Bytes the Redis server has written to its AOF so far (no rewrite runs: see main). */
async function aofBytes(redis: RedisClient): Promise<number> {
  return Number(/^aof_current_size:(\d+)/m.exec(await redis.info('persistence'))?.[1] ?? NaN);
}

/** Scripts the Redis server has run so far (EVALSHA and EVAL calls). */
async function scriptCalls(redis: RedisClient): Promise<number> {
  const info = await redis.info('commandstats');
  const calls = (command: string) => Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return calls('evalsha') + calls('eval');
}

/** `--redis-config`'s settings, on the bench's Redis before anything is written. */
async function configure(redis: RedisClient): Promise<void> {
  for (const [name, value] of REDIS_CONFIG) {
    await redis.config('SET', name, value).catch((err: unknown) => {
      throw new Error(`--redis-config ${name}=${value}: ${err instanceof Error ? err.message : String(err)}`);
    });
    progress(`redis: ${name} ${value}`);
  }
}

/** `--redis-config`'s settings for the JSON line, when there are any. */
function redisConfigField(): { redisConfig?: Record<string, string> } {
  return REDIS_CONFIG.length > 0 ? { redisConfig: Object.fromEntries(REDIS_CONFIG) } : {};
}

/** Seconds of CPU the Redis server has used so far (user + system). */
async function redisCpuSeconds(redis: RedisClient): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/**
 * One round of purchases: IN_FLIGHT lanes, each buying again as soon as its purchase is
 * answered, spread over the stores (one connection each, as separate dealers would be).
 */
async function dealerRound(stores: readonly RedisStore[], round: number): Promise<number> {
  let issued = 0;
  let done = 0;
  const started = performance.now();
  const ticker = setInterval(() => {
    const s = (performance.now() - started) / 1000;
    progress(`  dealer round ${round}: ${done} / ${PURCHASES} purchases, ${Math.round(done / s)}/s`);
  }, 1000);
  const lane = async (store: RedisStore) => {
    while (issued < PURCHASES) {
      const k = issued++;
      const result = await store.sales.purchase({
        playerId: `p${k % PLAYERS}`,
        requestId: `b${round}-${k}`,
        game: TABLE.game,
        stake: TABLE.stake,
        now: Date.now(),
        // The play service's checks, as the server asks them (the limits are set at setup).
        protection: BENCH_PROTECTION,
      });
      if (!result.ok) throw new Error(`purchase refused: ${result.code} ${result.message}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => lane(stores[i % stores.length]!)));
  clearInterval(ticker);
  return PURCHASES / ((performance.now() - started) / 1000);
}

async function redisBenchmarkRound(port: number, sha: string, round: number): Promise<number> {
  const args = [
    '-h', '127.0.0.1', '-p', String(port),
    '-c', String(IN_FLIGHT), '-n', String(PURCHASES), '-r', String(PLAYERS), '--csv',
    'EVALSHA', sha, '3', 'rb:cursor', 'rb:wallet:__rand_int__', 'rb:journal:__rand_int__', String(TABLE.stake), String(Date.now()),
  ];
  const started = performance.now();
  const ticker = setInterval(() => progress(`  redis-benchmark round ${round}: ${Math.round((performance.now() - started) / 1000)} s`), 1000);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(REDIS_BENCHMARK, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', (err) => reject(new Error(`cannot run ${REDIS_BENCHMARK}: ${err.message}`)));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`redis-benchmark exited ${code}:\n${out}`))));
  });
  clearInterval(ticker);
  // --csv: a header line, then "<test>","<requests per second>",...
  const row = output.trim().split('\n').find((line) => line.startsWith('"EVALSHA'));
  const rps = Number(row?.split('","')[1]);
  if (!Number.isFinite(rps)) throw new Error(`no figure in redis-benchmark's output:\n${output}`);
  return rps;
}

/** A dealer setup of a comparison: its stores (one connection each), and its end. */
interface Setup {
  readonly name: string;
  readonly stores: readonly RedisStore[];
  stop(): Promise<void>;
}

/** Opens the bench's emission (a block per lane at least) and funds the players through `store`. */
async function prepare(store: RedisStore, lanes = 1): Promise<void> {
  const blockCount = Math.max(Math.ceil((PURCHASES * ROUNDS) / TABLE.blockSize) + 1, 2 * lanes);
  await store.emissions.openEmission({ emissionId: 'bench', table: TABLE, blockCount, now: Date.now() });
  const funds = PURCHASES * ROUNDS * TABLE.stake;
  await Promise.all(Array.from({ length: PLAYERS }, (_, p) => store.wallets.deposit(`p${p}`, funds, 'bench', Date.now())));
  // Limits each player's purchases check in the purchase step (week and day), never reached.
  const limits = { stake_week: funds, stake_day: funds };
  await Promise.all(Array.from({ length: PLAYERS }, (_, p) => store.protections.changeProtection(`p${p}`, { what: 'limits', limits, raiseDelayMs: 48 * 3_600_000 }, Date.now())));
}

/** A reality check no bench run reaches: the session is kept, as in play. */
const BENCH_PROTECTION = { realityCheckMs: 24 * 3_600_000, sessionIdleMs: 30 * 60_000 };

async function onOneRedis(server: RedisServer, name: string, options: RedisStoreOptions): Promise<Setup> {
  const clients = Array.from({ length: CONNECTIONS }, () => new Redis(server.url, { enableAutoPipelining: true }));
  const stores = clients.map((client) => new RedisStore(client, { prefix: name, ...options }));
  await prepare(stores[0]!);
  return { name, stores, stop: async () => clients.forEach((c) => c.disconnect()) };
}

async function onCluster(masters: number, name: string, options: RedisStoreOptions, shared?: RedisCluster): Promise<Setup> {
  progress(`${name}: ${shared ? 'on the cluster started' : `starting a local cluster of ${masters} + ${masters}`}`);
  const cluster = shared ?? (await RedisCluster.start({ masters }));
  const clients = Array.from({ length: CONNECTIONS }, () => cluster.client({ enableAutoPipelining: true }));
  const stores = clients.map((client) => new RedisStore(client, { prefix: name, protocol: 'per-slot', ...options }));
  await prepare(stores[0]!, options.sequenceLanes);
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
async function compare(): Promise<void> {
  const setups: Setup[] = [];
  let server: RedisServer | undefined;
  let cluster: RedisCluster | undefined;
  try {
    if (COMPARE === 'protocols') {
      progress('starting redis-server (appendonly yes, appendfsync always)');
      server = await RedisServer.start({ appendOnly: true });
      setups.push(await onOneRedis(server, 'one-script', { protocol: 'one-script' }));
      setups.push(await onOneRedis(server, 'per-slot', { protocol: 'per-slot' }));
    } else if (COMPARE === 'masters') {
      setups.push(await onCluster(1, 'masters-1', { waitReplicas: 1 }));
      setups.push(await onCluster(3, 'masters-3', { waitReplicas: 1 }));
    } else if (COMPARE === 'lanes') {
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
          rounds[i]!.push(await dealerRound(setup.stores, round));
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
      compare: COMPARE,
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

/** Purchases a script call over `rounds`. */
function purchasesPerCall(rounds: readonly RoundCost[]): number {
  return Number(((PURCHASES * rounds.length) / rounds.reduce((sum, r) => sum + r.scriptCalls, 0)).toFixed(1));
}

/** Runs callgrind's control on the server: `-z` zeroes its counts, `-d` writes them out. */
function callgrind(what: '-z' | '-d', pid: number): void {
  execFileSync('callgrind_control', [what, String(pid)], { stdio: 'ignore' });
}

/** The instructions counted in callgrind's `n`th dump (`<out>.<n>`). */
function dumpedInstructions(out: string, n: number): number {
  const total = /^(?:summary|totals): (\d+)/m.exec(readFileSync(`${out}.${n}`, 'utf8'))?.[1];
  if (total === undefined) throw new Error(`no total in ${out}.${n}`);
  return Number(total);
}

/** `--instructions`: Redis's instructions a purchase and a bare script, counted by callgrind. */
async function countInstructions(): Promise<void> {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    console.error('--instructions needs valgrind (Debian: apt-get install valgrind)');
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
  const out = join(dir, 'callgrind.out');
  progress('starting redis-server under callgrind (appendonly yes, appendfsync always)');
  const server = await RedisServer.start({ appendOnly: true, wrapper: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`] });
  const clients = Array.from({ length: CONNECTIONS }, () => new Redis(server.url, { enableAutoPipelining: true }));
  try {
    await configure(clients[0]!);
    const stores = clients.map((client) => new RedisStore(client, { prefix: 'bench' }));
    await prepare(stores[0]!);
    const sha = String(await clients[0]!.script('LOAD', EQUIVALENT_LUA));
    await dealerRound(stores, 0);
    // The round's AOF bytes as `measured` reads them; its instructions between callgrind's zero and dump.
    const count = async (run: () => Promise<number>, dump: number) => {
      const round = await measured(clients[0]!, async () => {
        callgrind('-z', server.pid!);
        const perSecond = await run();
        callgrind('-d', server.pid!);
        return perSecond;
      });
      return { instructions: Math.round(dumpedInstructions(out, dump) / PURCHASES), aofBytes: Math.round(round.aofBytes / PURCHASES), perCall: purchasesPerCall([round]) };
    };
    const purchase = await count(() => dealerRound(stores, 1), 1);
    const script = await count(() => redisBenchmarkRound(server.port, sha, 1), 2);
    await Promise.all(stores.map((s) => s.close()));
    const ratio = Number((purchase.instructions / script.instructions).toFixed(3));
    console.log(`Redis's instructions a purchase (RedisStore.purchase, ${IN_FLIGHT} in flight over ${CONNECTIONS} connections): ${purchase.instructions}, ${purchase.aofBytes} AOF bytes, ${purchase.perCall} purchases a script call`);
    console.log(`Redis's instructions a bare script (redis-benchmark, ${IN_FLIGHT} clients): ${script.instructions}, ${script.aofBytes} AOF bytes`);
    console.log(`purchase ÷ script: ${ratio}`);
    console.log(JSON.stringify({
      redisInstructionsPerPurchase: purchase.instructions,
      redisInstructionsPerBenchmarkScript: script.instructions,
      ratio,
      aofBytesPerPurchase: purchase.aofBytes,
      aofBytesPerBenchmarkScript: script.aofBytes,
      purchasesPerScriptCall: purchase.perCall,
      ...redisConfigField(),
      purchases: PURCHASES,
      inFlight: IN_FLIGHT,
      connections: CONNECTIONS,
      players: PLAYERS,
    }));
  } finally {
    for (const client of clients) client.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (COMPARE) return compare();
  if (INSTRUCTIONS) return countInstructions();
  progress(`starting redis-server (appendonly yes, appendfsync always)`);
  const server = await RedisServer.start({ appendOnly: true });
  const clients = Array.from({ length: CONNECTIONS }, () => new Redis(server.url, { enableAutoPipelining: true }));
  const redis = clients[0]!;
  try {
    // No AOF rewrite in the middle of a round: each round reads the AOF's growth.
    await redis.config('SET', 'auto-aof-rewrite-percentage', '0');
    await configure(redis);
    const stores = clients.map((client) => new RedisStore(client, { prefix: 'bench' }));
    await prepare(stores[0]!);
    const sha = String(await redis.script('LOAD', EQUIVALENT_LUA));
    let paddedSha: string | undefined;

    const dealer: RoundCost[] = [];
    const bench: RoundCost[] = [];
    const padded: RoundCost[] = [];
    let clientCpu = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const clientBefore = process.cpuUsage();
      dealer.push(await measured(redis, () => dealerRound(stores, round)));
      const client = process.cpuUsage(clientBefore);
      clientCpu += (client.user + client.system) / 1e6;
      progress(`dealer round ${round}: ${Math.round(dealer.at(-1)!.perSecond)} purchases/s`);
      bench.push(await measured(redis, () => redisBenchmarkRound(server.port, sha, round)));
      progress(`redis-benchmark round ${round}: ${Math.round(bench.at(-1)!.perSecond)} scripts/s`);
      if (values['no-padded']) continue;
      // Padded by what a purchase wrote beyond the bare script in the first round.
      paddedSha ??= String(await redis.script('LOAD', paddedEquivalent(Math.max(0, Math.round((dealer[0]!.aofBytes - bench[0]!.aofBytes) / PURCHASES)))));
      padded.push(await measured(redis, () => redisBenchmarkRound(server.port, paddedSha!, round)));
      progress(`redis-benchmark padded round ${round}: ${Math.round(padded.at(-1)!.perSecond)} scripts/s`);
    }
    await Promise.all(stores.map((s) => s.close()));
    report(dealer, bench, padded, clientCpu);
  } finally {
    for (const client of clients) client.disconnect();
    await server.stop();
  }
}

/** The medians, their ratios and what each operation cost Redis, in words and as JSON. */
function report(dealer: readonly RoundCost[], bench: readonly RoundCost[], padded: readonly RoundCost[], clientCpu: number): void {
  const perOp = (rounds: readonly RoundCost[], of: (r: RoundCost) => number, scale: number, digits: number) =>
    Number(((rounds.reduce((sum, r) => sum + of(r), 0) * scale) / (PURCHASES * rounds.length)).toFixed(digits));
  const cpuMicros = (rounds: readonly RoundCost[]) => perOp(rounds, (r) => r.redisCpuSeconds, 1e6, 1);
  const bytes = (rounds: readonly RoundCost[]) => perOp(rounds, (r) => r.aofBytes, 1, 0);
  const rate = (rounds: readonly RoundCost[]) => Math.round(median(rounds.map((r) => r.perSecond)));
  const dealerPerSecond = rate(dealer);
  const redisBenchmarkPerSecond = rate(bench);
  const ratio = Number((dealerPerSecond / redisBenchmarkPerSecond).toFixed(3));
  // The disk's fsync time drifts during a run: the ratio of each pair of neighbouring rounds
  // shows how much of the spread is the disk's.
  const pairRatios = dealer.map((d, i) => Number((d.perSecond / bench[i]!.perSecond).toFixed(3)));
  const paddedPerSecond = padded.length > 0 ? rate(padded) : null;
  const ratioToPadded = paddedPerSecond === null ? null : Number((dealerPerSecond / paddedPerSecond).toFixed(3));
  console.log(`dealer (RedisStore.purchase, ${IN_FLIGHT} in flight over ${CONNECTIONS} connections): ${dealerPerSecond} purchases/s, ${bytes(dealer)} AOF bytes a purchase, ${purchasesPerCall(dealer)} purchases a script call`);
  console.log(`redis-benchmark (equivalent Lua, ${IN_FLIGHT} clients): ${redisBenchmarkPerSecond} scripts/s, ${bytes(bench)} AOF bytes a script`);
  console.log(`ratio ${ratio} (target ≥ 0.85); round by round: ${pairRatios.join(', ')}`);
  if (paddedPerSecond !== null) {
    console.log(`redis-benchmark (equivalent Lua padded to ${bytes(padded)} AOF bytes a script): ${paddedPerSecond} scripts/s; dealer ÷ padded ${ratioToPadded}`);
  }
  console.log(
    JSON.stringify({
      dealerPurchasesPerSecond: dealerPerSecond,
      redisBenchmarkPerSecond,
      ratio,
      target: 0.85,
      appendfsync: 'always',
      ...redisConfigField(),
      purchasesPerRound: PURCHASES,
      rounds: ROUNDS,
      inFlight: IN_FLIGHT,
      connections: CONNECTIONS,
      players: PLAYERS,
      dealerRounds: dealer.map((r) => Math.round(r.perSecond)),
      redisBenchmarkRounds: bench.map((r) => Math.round(r.perSecond)),
      pairRatios,
      medianPairRatio: median(pairRatios),
      redisCpuMicrosPerPurchase: cpuMicros(dealer),
      redisCpuMicrosPerBenchmarkScript: cpuMicros(bench),
      dealerProcessCpuMicrosPerPurchase: Number(((clientCpu * 1e6) / (PURCHASES * dealer.length)).toFixed(1)),
      aofBytesPerPurchase: bytes(dealer),
      aofBytesPerBenchmarkScript: bytes(bench),
      purchasesPerScriptCall: purchasesPerCall(dealer),
      ...(paddedPerSecond === null
        ? {}
        : {
            paddedBenchmarkPerSecond: paddedPerSecond,
            paddedBenchmarkRounds: padded.map((r) => Math.round(r.perSecond)),
            aofBytesPerPaddedScript: bytes(padded),
            redisCpuMicrosPerPaddedScript: cpuMicros(padded),
            ratioToPadded,
          }),
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
