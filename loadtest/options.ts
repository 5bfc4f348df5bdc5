import { decimal, parseArgs, UsageError, whole, type CommandLine, type Draft, type Flag } from '../tools/command-line';

/**
 * Command-line options of `npm run loadtest`. Everything is bounded: counts, durations and the
 * endpoints (loopback only), so that a run always stops by itself and never leaves the machine.
 */

export interface LoadtestOptions {
  /** Synthetic players, each playing units one after another. */
  readonly players: number;
  /** Spectators, split between the live-wins feed and watched tables. */
  readonly spectators: number;
  /** The measured window, in seconds (after every client has joined). */
  readonly durationS: number;
  /** Server processes the harness starts itself (ignored with `endpoints`). */
  readonly processes: number;
  /** Start a private redis-server and run the servers on it (required with processes > 1). */
  readonly redis: boolean;
  /** With `redis`: a local Redis Cluster (3 masters + 3 replicas) instead of one redis-server. */
  readonly redisCluster: boolean;
  /** Servers already running (loopback only); undefined: the harness starts its own. */
  readonly endpoints: readonly string[] | undefined;
  /** Operator token of `GET /admin/blocks` and `/admin/reports` on given endpoints (the harness makes its own otherwise). */
  readonly operatorToken: string | undefined;
  /** Mean pause before each action (buy or act), uniform in [T/2, 3T/2]; 0: none. */
  readonly thinkMs: number;
  /** Share of units played with AUTO (the rest step by step). */
  readonly autoShare: number;
  /** Share of lamp purchases that play both units at once (one colour, one symbol). */
  readonly lampBothShare: number;
  /** Chance, after each unit, that a player leaves its table for another game's. */
  readonly switchShare: number;
  /** Share of spectators on the feed; the others watch tables. */
  readonly feedShare: number;
  /** Watchers per watched table. */
  readonly watchersPerTable: number;
  /** Clients joined per second during the ramp. */
  readonly rampPerSecond: number;
  /** Seconds of play after the ramp and before the window (JIT warm-up, caches). */
  readonly warmupS: number;
  /** Longest wait for every client to join; the window starts then with whoever joined. */
  readonly rampTimeoutS: number;
  /** After the window: how long players may take to finish the units they are playing. */
  readonly drainS: number;
  /** Longest time the books check may take. */
  readonly booksTimeoutS: number;
  /** Run the echo baseline after the main run. */
  readonly echo: boolean;
  readonly echoDurationS: number;
  /** Report file (default reports/loadtest-<time>.json). */
  readonly out: string | undefined;
  /** Write a V8 profile of the window of each server process and of the harness into this directory. */
  readonly profileDir: string | undefined;
  /** The profiles' kind: 'cpu', or 'heap' (sampled allocations, `--profile-heap`). */
  readonly profileKind: 'cpu' | 'heap';
  /** Extra environment of the servers the harness starts (`--server-env KEY=VALUE`, repeatable). */
  readonly serverEnv: Readonly<Record<string, string>>;
  /** Seed of the players' choices (games, prices, modes, think times). */
  readonly seed: number;
  /** A request with no reply within this time counts as `harness/timeout`. */
  readonly requestTimeoutMs: number;
  /** Print one progress line per second on stderr. */
  readonly progress: boolean;
  /** Worker threads driving the clients (1: this thread drives them all, as before). */
  readonly workers: number;
  /** Whole runs, one after another, each with its echo baseline; summarized together (loadtest/runs.ts). */
  readonly runs: number;
  /** Another checkout whose load test runs at the same time as this one's, compared (loadtest/beside.ts). */
  readonly beside: string | undefined;
  /**
   * `seamless`: the servers' players' money at the reference operator's wallet (answering after
   * `walletLatencyMs`), the same load run first on `internal` servers, the two compared in the report.
   */
  readonly wallet: 'internal' | 'seamless';
  readonly walletLatencyMs: number;
}

export const DEFAULTS: LoadtestOptions = {
  players: 20,
  spectators: 0,
  durationS: 10,
  processes: 1,
  redis: false,
  redisCluster: false,
  endpoints: undefined,
  operatorToken: undefined,
  thinkMs: 0,
  autoShare: 0.5,
  lampBothShare: 0.25,
  switchShare: 0.05,
  feedShare: 0.5,
  watchersPerTable: 10,
  rampPerSecond: 500,
  warmupS: 3,
  rampTimeoutS: 120,
  drainS: 20,
  booksTimeoutS: 300,
  echo: true,
  echoDurationS: 0,
  out: undefined,
  profileDir: undefined,
  profileKind: 'cpu',
  serverEnv: {},
  seed: 1,
  requestTimeoutMs: 10_000,
  progress: true,
  workers: 1,
  runs: 1,
  beside: undefined,
  wallet: 'internal',
  walletLatencyMs: 20,
};

/** Loopback addresses only: a load test never sends traffic anywhere else. */
export function assertLoopback(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`not a URL: ${JSON.stringify(url)}`);
  }
  if (!['http:', 'ws:'].includes(parsed.protocol)) throw new UsageError(`endpoint must be http:// or ws:// on this machine, got ${url}`);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))) {
    throw new UsageError(`endpoint must be a loopback address (127.0.0.0/8, localhost, ::1), got ${parsed.hostname}`);
  }
  return `http://${parsed.host}`;
}

type Options = Draft<LoadtestOptions>;
const D = DEFAULTS;

const FLAGS: readonly Flag<LoadtestOptions>[] = [
  { name: '--players', value: 'N', help: `synthetic players (default ${D.players}, at most 20000)`, set: (o, v) => (o.players = whole(v, 1, 20_000)) },
  { name: '--spectators', value: 'M', help: 'spectators, split between the feed and watched tables (default 0)', set: (o, v) => (o.spectators = whole(v, 0, 20_000)) },
  { name: '--duration', value: 'S', help: `measured seconds, after the ramp (default ${D.durationS}, at most 3600)`, set: (o, v) => (o.durationS = whole(v, 1, 3600)) },
  { name: '--processes', value: 'K', help: 'server processes to start (default 1; K > 1 needs --redis)', set: (o, v) => (o.processes = whole(v, 1, 8)) },
  { name: '--redis', help: 'start a private redis-server and run the servers on it', set: (o) => (o.redis = true) },
  { name: '--redis-cluster', help: 'the same on a private Redis Cluster (3 masters + 3 replicas)', set: (o) => (o.redis = o.redisCluster = true) },
  {
    name: '--endpoint',
    value: 'URL[,URL]',
    help: 'use running servers instead (loopback only; dev login must be on)',
    set: (o, v) => {
      if (!v) throw new UsageError('needs a URL');
      o.endpoints = v.split(',').map((u) => assertLoopback(u.trim()));
    },
  },
  { name: '--operator-token', value: 'T', help: 'bearer token of GET /admin/blocks and /admin/reports on --endpoint servers', set: (o, v) => (o.operatorToken = v) },
  { name: '--think-ms', value: 'T', help: 'mean pause before each action (default 0: none)', set: (o, v) => (o.thinkMs = whole(v, 0, 60_000)) },
  { name: '--auto-share', value: 'F', help: `share of units played with AUTO (default ${D.autoShare})`, set: (o, v) => (o.autoShare = decimal(v, 0, 1)) },
  { name: '--lamp-both-share', value: 'F', help: `share of lamp purchases playing both units (default ${D.lampBothShare})`, set: (o, v) => (o.lampBothShare = decimal(v, 0, 1)) },
  { name: '--switch-share', value: 'F', help: `chance to change game after a unit (default ${D.switchShare})`, set: (o, v) => (o.switchShare = decimal(v, 0, 1)) },
  { name: '--feed-share', value: 'F', help: `share of spectators on the feed (default ${D.feedShare})`, set: (o, v) => (o.feedShare = decimal(v, 0, 1)) },
  { name: '--watchers-per-table', value: 'W', help: `watchers per watched table (default ${D.watchersPerTable})`, set: (o, v) => (o.watchersPerTable = whole(v, 1, 20_000)) },
  { name: '--ramp-per-second', value: 'R', help: `clients joined per second (default ${D.rampPerSecond})`, set: (o, v) => (o.rampPerSecond = whole(v, 1, 100_000)) },
  { name: '--warmup', value: 'S', help: `seconds of play before the window opens (default ${D.warmupS})`, set: (o, v) => (o.warmupS = whole(v, 0, 600)) },
  { name: '--drain', value: 'S', help: `seconds allowed to finish units in play after the window (default ${D.drainS})`, set: (o, v) => (o.drainS = whole(v, 1, 600)) },
  { name: '--no-echo', help: 'skip the echo baseline', set: (o) => (o.echo = false) },
  { name: '--echo-duration', value: 'S', help: 'measured seconds of the echo baseline (default: --duration)', set: (o, v) => (o.echoDurationS = whole(v, 1, 3600)) },
  { name: '--out', value: 'FILE', help: 'report file (default reports/loadtest-<time>.json)', set: (o, v) => (o.out = v) },
  {
    name: '--server-env',
    value: 'KEY=VALUE',
    help: 'environment of the servers it starts, e.g. FEED_MIN_PRIZE_CENTS=500 (repeatable;\nthe echo baseline\'s feed honours FEED_BATCH_MS)',
    set: (o, v) => {
      const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(v);
      if (!m) throw new UsageError(`takes KEY=VALUE, got ${JSON.stringify(v)}`);
      o.serverEnv = { ...o.serverEnv, [m[1]!]: m[2]! };
    },
  },
  { name: '--profile', value: 'DIR', help: 'V8 CPU profiles of the window (servers, echo, harness) into DIR', set: (o, v) => (o.profileDir = v) },
  {
    name: '--profile-heap',
    help: 'with --profile: sampling heap profiles instead (every allocation sampled,\nkept or collected: where the garbage is made), as .heapprofile files',
    set: (o) => (o.profileKind = 'heap'),
  },
  {
    name: '--workers',
    value: 'N',
    help: `worker threads driving the clients, each a share of the players, tables\nand spectators (default ${D.workers}: this thread drives them all; at most 16)`,
    set: (o, v) => (o.workers = whole(v, 1, 16)),
  },
  {
    name: '--runs',
    value: 'N',
    help: 'the whole run N times in a row, each with its echo baseline, then the ratio\nto the echo of each run and their median (default 1, at most 20; --out:\nthe summary\'s file, each run\'s report in reports/)',
    set: (o, v) => (o.runs = whole(v, 1, 20)),
  },
  {
    name: '--beside',
    value: 'DIR',
    help: 'run the checkout DIR\'s load test (another build; relative to where you type)\nat the same time as this one\'s, no echo, and compare them (this ÷ DIR\'s CPU\nand bytes a unit); with --runs N, N pairs and their median (--out: the\ncomparison\'s file)',
    set: (o, v) => (o.beside = v),
  },
  {
    name: '--wallet',
    value: 'MODE',
    help: "internal (default); seamless: the reference operator's wallet, the same load on internal\nservers first, compared",
    set: (o, v) => {
      if (v !== 'internal' && v !== 'seamless') throw new UsageError(`takes internal or seamless, got ${JSON.stringify(v)}`);
      o.wallet = v;
    },
  },
  { name: '--wallet-latency-ms', value: 'MS', help: `with --wallet seamless, the wallet's answer time (default ${D.walletLatencyMs})`, set: (o, v) => (o.walletLatencyMs = whole(v, 0, 10_000)) },
  { name: '--seed', value: 'N', help: 'seed of the players\' choices (default 1)', set: (o, v) => (o.seed = whole(v, 0, 2 ** 31 - 1)) },
  { name: '--quiet', help: 'no progress lines', set: (o) => (o.progress = false) },
];

/** The echo's duration defaults to the run's; the combinations that cannot work are refused. */
function finish(o: Options): void {
  if (o.echoDurationS === 0) o.echoDurationS = o.durationS;
  if (o.profileKind === 'heap' && !o.profileDir) throw new UsageError('--profile-heap goes with --profile DIR');
  if (o.beside !== undefined && (o.endpoints || o.profileDir)) throw new UsageError('--beside starts both builds\' servers: not with --endpoint or --profile');
  if (o.runs > 1 && o.beside === undefined && (!o.echo || o.profileDir)) throw new UsageError('--runs compares each run with its echo baseline: not with --no-echo or --profile');
  if (o.wallet === 'seamless' && (o.endpoints || o.beside !== undefined || o.runs > 1)) throw new UsageError('--wallet seamless starts its own servers and operator: not with --endpoint, --beside or --runs');
  if (!o.endpoints && o.processes > 1 && !o.redis) throw new UsageError('--processes above 1 needs --redis: processes share nothing but Redis');
  if (o.endpoints && (o.redis || o.processes !== 1 || Object.keys(o.serverEnv).length > 0)) throw new UsageError('--endpoint uses running servers: --redis, --processes and --server-env do not apply');
}

export const LOADTEST_COMMAND_LINE: CommandLine<LoadtestOptions> = { synopsis: 'npm run loadtest -- [options]', defaults: DEFAULTS, flags: FLAGS, finish };

export function parseOptions(argv: readonly string[]): LoadtestOptions {
  return parseArgs(LOADTEST_COMMAND_LINE, argv);
}
