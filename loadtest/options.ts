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
  /** Operator token of `GET /admin/blocks` on given endpoints (the harness makes its own otherwise). */
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
};

export const USAGE = `usage: npm run loadtest -- [options]

  --players N            synthetic players (default ${DEFAULTS.players}, at most 20000)
  --spectators M         spectators, split between the feed and watched tables (default 0)
  --duration S           measured seconds, after the ramp (default ${DEFAULTS.durationS}, at most 3600)
  --processes K          server processes to start (default 1; K > 1 needs --redis)
  --redis                start a private redis-server and run the servers on it
  --redis-cluster        the same on a private Redis Cluster (3 masters + 3 replicas)
  --endpoint URL[,URL]   use running servers instead (loopback only; dev login must be on)
  --operator-token T     bearer token of GET /admin/blocks on --endpoint servers
  --think-ms T           mean pause before each action (default 0: none)
  --auto-share F         share of units played with AUTO (default ${DEFAULTS.autoShare})
  --lamp-both-share F    share of lamp purchases playing both units (default ${DEFAULTS.lampBothShare})
  --switch-share F       chance to change game after a unit (default ${DEFAULTS.switchShare})
  --feed-share F         share of spectators on the feed (default ${DEFAULTS.feedShare})
  --watchers-per-table W watchers per watched table (default ${DEFAULTS.watchersPerTable})
  --ramp-per-second R    clients joined per second (default ${DEFAULTS.rampPerSecond})
  --warmup S             seconds of play before the window opens (default ${DEFAULTS.warmupS})
  --drain S              seconds allowed to finish units in play after the window (default ${DEFAULTS.drainS})
  --no-echo              skip the echo baseline
  --echo-duration S      measured seconds of the echo baseline (default: --duration)
  --out FILE             report file (default reports/loadtest-<time>.json)
  --server-env KEY=VALUE environment of the servers it starts, e.g. FEED_MIN_PRIZE_CENTS=500 (repeatable;
                         the echo baseline's feed honours FEED_BATCH_MS)
  --profile DIR          V8 CPU profiles of the window (servers, echo, harness) into DIR
  --profile-heap         with --profile: sampling heap profiles instead (every allocation sampled,
                         kept or collected: where the garbage is made), as .heapprofile files
  --workers N            worker threads driving the clients, each a share of the players, tables
                         and spectators (default ${DEFAULTS.workers}: this thread drives them all; at most 16)
  --runs N               the whole run N times in a row, each with its echo baseline, then the ratio
                         to the echo of each run and their median (default 1, at most 20; --out:
                         the summary's file, each run's report in reports/)
  --seed N               seed of the players' choices (default 1)
  --quiet                no progress lines
`;

export class UsageError extends Error {}

/** `raw` as a number within [min, max] (a whole one unless `integer` is false), or a UsageError naming `name`. */
export function number(name: string, raw: string | undefined, min: number, max: number, integer = true): number {
  if (raw === undefined) throw new UsageError(`${name} needs a value`);
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) throw new UsageError(`${name} must be ${integer ? 'a whole number' : 'a number'}, got ${JSON.stringify(raw)}`);
  if (value < min || value > max) throw new UsageError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

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

export function parseOptions(argv: readonly string[]): LoadtestOptions {
  const o: { -readonly [K in keyof LoadtestOptions]: LoadtestOptions[K] } = { ...DEFAULTS };
  let echoDuration: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => (inline !== undefined ? inline : argv[++i]);
    switch (flag) {
      case '--players': o.players = number(flag, value(), 1, 20_000); break;
      case '--spectators': o.spectators = number(flag, value(), 0, 20_000); break;
      case '--duration': o.durationS = number(flag, value(), 1, 3600); break;
      case '--processes': o.processes = number(flag, value(), 1, 8); break;
      case '--redis': o.redis = true; break;
      case '--redis-cluster': o.redis = o.redisCluster = true; break;
      case '--endpoint': {
        const raw = value();
        if (!raw) throw new UsageError('--endpoint needs a URL');
        o.endpoints = raw.split(',').map((u) => assertLoopback(u.trim()));
        break;
      }
      case '--operator-token': o.operatorToken = value(); break;
      case '--think-ms': o.thinkMs = number(flag, value(), 0, 60_000); break;
      case '--auto-share': o.autoShare = number(flag, value(), 0, 1, false); break;
      case '--lamp-both-share': o.lampBothShare = number(flag, value(), 0, 1, false); break;
      case '--switch-share': o.switchShare = number(flag, value(), 0, 1, false); break;
      case '--feed-share': o.feedShare = number(flag, value(), 0, 1, false); break;
      case '--watchers-per-table': o.watchersPerTable = number(flag, value(), 1, 20_000); break;
      case '--ramp-per-second': o.rampPerSecond = number(flag, value(), 1, 100_000); break;
      case '--warmup': o.warmupS = number(flag, value(), 0, 600); break;
      case '--drain': o.drainS = number(flag, value(), 1, 600); break;
      case '--no-echo': o.echo = false; break;
      case '--echo-duration': echoDuration = number(flag, value(), 1, 3600); break;
      case '--out': o.out = value(); break;
      case '--profile': o.profileDir = value(); break;
      case '--profile-heap': o.profileKind = 'heap'; break;
      case '--server-env': {
        const raw = value() ?? '';
        const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(raw);
        if (!m) throw new UsageError(`--server-env takes KEY=VALUE, got ${JSON.stringify(raw)}`);
        o.serverEnv = { ...o.serverEnv, [m[1]!]: m[2]! };
        break;
      }
      case '--seed': o.seed = number(flag, value(), 0, 2 ** 31 - 1); break;
      case '--workers': o.workers = number(flag, value(), 1, 16); break;
      case '--runs': o.runs = number(flag, value(), 1, 20); break;
      case '--quiet': o.progress = false; break;
      case '--help': case '-h': throw new UsageError('');
      default: throw new UsageError(`unknown option ${arg}`);
    }
  }
  o.echoDurationS = echoDuration ?? o.durationS;
  if (o.profileKind === 'heap' && !o.profileDir) throw new UsageError('--profile-heap goes with --profile DIR');
  if (o.runs > 1 && (!o.echo || o.profileDir)) throw new UsageError('--runs compares each run with its echo baseline: not with --no-echo or --profile');
  if (!o.endpoints && o.processes > 1 && !o.redis) throw new UsageError('--processes above 1 needs --redis: processes share nothing but Redis');
  if (o.endpoints && (o.redis || o.processes !== 1 || Object.keys(o.serverEnv).length > 0)) throw new UsageError('--endpoint uses running servers: --redis, --processes and --server-env do not apply');
  return o;
}
