import { number, UsageError } from '../options';
import { FAULT_KINDS, type FaultKind } from './plan';

/** Command-line options of `npm run chaos`; every count and duration is bounded. */

export interface ChaosOptions {
  /** Minutes of faults (the window), after the ramp. */
  readonly minutes: number;
  /** Seed of the fault schedule and of the players' choices. */
  readonly seed: number;
  readonly players: number;
  readonly thinkMs: number;
  readonly processes: number;
  readonly feedSpectators: number;
  readonly faultsPerMinute: number;
  /** Redis stalls, drawn in this range (ms): longer than the servers' command timeout. */
  readonly freezeMinMs: number;
  readonly freezeMaxMs: number;
  readonly weights: Readonly<Record<FaultKind, number>>;
  /** The servers' ABANDON_AFTER_SECONDS and SWEEP_EVERY_SECONDS: the drain relies on them. */
  readonly abandonAfterS: number;
  readonly sweepEveryS: number;
  /** After the faults: how long players and the sweeper may take to finish every unit. */
  readonly drainS: number;
  /** Fewer faults injected than this fails the run (CI: a run that broke too little proves too little). */
  readonly minFaults: number;
  readonly progress: boolean;
  /** A Redis Cluster (3 + 3) instead of one redis-server: the Redis faults hit one master. */
  readonly redisCluster: boolean;
}

export const CHAOS_DEFAULTS: Omit<ChaosOptions, 'seed'> = {
  minutes: 2,
  players: 24,
  thinkMs: 300,
  processes: 3,
  feedSpectators: 3,
  faultsPerMinute: 12,
  freezeMinMs: 6000,
  freezeMaxMs: 9000,
  weights: { 'kill-server': 1, 'kill-redis': 1, 'freeze-redis': 1, 'cut-clients': 1 },
  abandonAfterS: 5,
  sweepEveryS: 1,
  drainS: 120,
  minFaults: 0,
  progress: true,
  redisCluster: false,
};

export const CHAOS_USAGE = `usage: npm run chaos -- --minutes M [--seed S] [options]

  --minutes M            minutes of faults, after the ramp (default ${CHAOS_DEFAULTS.minutes}; 0.1 to 180)
  --seed S               seed of the fault schedule and the players' choices (default: drawn, printed)
  --players N            synthetic players (default ${CHAOS_DEFAULTS.players}, at most 2000)
  --think-ms T           players' mean pause before each action (default ${CHAOS_DEFAULTS.thinkMs})
  --processes K          game server processes (default ${CHAOS_DEFAULTS.processes}, 1 to 8)
  --feed-spectators F    feed spectators whose wins are checked against the players (default ${CHAOS_DEFAULTS.feedSpectators})
  --faults-per-minute R  mean rate of faults (default ${CHAOS_DEFAULTS.faultsPerMinute}, at most 120)
  --freeze-ms MIN-MAX    Redis stalls (SIGSTOP) in this range (default ${CHAOS_DEFAULTS.freezeMinMs}-${CHAOS_DEFAULTS.freezeMaxMs})
  --weights K=W,...      weight of each fault kind (${FAULT_KINDS.join(', ')}; default 1 each, 0: never)
  --abandon-after S      the servers' ABANDON_AFTER_SECONDS (default ${CHAOS_DEFAULTS.abandonAfterS})
  --drain S              seconds allowed, after the faults, to finish every unit (default ${CHAOS_DEFAULTS.drainS})
  --min-faults N         fail the run if fewer faults were injected (default 0)
  --redis-cluster        a Redis Cluster of 3 masters + 3 replicas instead of one redis-server:
                         kill-redis SIGKILLs a master (started again after its replica took over),
                         freeze-redis SIGSTOPs one
  --quiet                no progress lines
`;

export function parseChaosOptions(argv: readonly string[], drawSeed: () => number): ChaosOptions {
  const o: { -readonly [K in keyof ChaosOptions]: ChaosOptions[K] } = { ...CHAOS_DEFAULTS, seed: -1 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => (inline !== undefined ? inline : argv[++i]);
    switch (flag) {
      case '--minutes': o.minutes = number(flag, value(), 0.1, 180, false); break;
      case '--seed': o.seed = number(flag, value(), 0, 2 ** 31 - 1); break;
      case '--players': o.players = number(flag, value(), 1, 2000); break;
      case '--think-ms': o.thinkMs = number(flag, value(), 0, 60_000); break;
      case '--processes': o.processes = number(flag, value(), 1, 8); break;
      case '--feed-spectators': o.feedSpectators = number(flag, value(), 0, 100); break;
      case '--faults-per-minute': o.faultsPerMinute = number(flag, value(), 0.1, 120, false); break;
      case '--freeze-ms': {
        const m = /^(\d+)-(\d+)$/.exec(value() ?? '');
        if (!m || Number(m[1]) > Number(m[2]) || Number(m[2]) > 60_000) throw new UsageError('--freeze-ms takes MIN-MAX in ms (at most 60000), e.g. 6000-9000');
        o.freezeMinMs = Number(m[1]);
        o.freezeMaxMs = Number(m[2]);
        break;
      }
      case '--weights': {
        const raw = value() ?? '';
        const weights = { ...o.weights };
        for (const part of raw.split(',')) {
          const m = /^([a-z-]+)=(\d+)$/.exec(part.trim());
          if (!m || !(FAULT_KINDS as readonly string[]).includes(m[1]!)) throw new UsageError(`--weights takes KIND=W,... with KIND among ${FAULT_KINDS.join(', ')}, got ${JSON.stringify(part)}`);
          weights[m[1] as FaultKind] = number('a weight', m[2], 0, 100);
        }
        if (FAULT_KINDS.every((k) => weights[k] === 0)) throw new UsageError('--weights: at least one kind needs a weight above 0');
        o.weights = weights;
        break;
      }
      case '--abandon-after': o.abandonAfterS = number(flag, value(), 1, 600); break;
      case '--drain': o.drainS = number(flag, value(), 10, 1800); break;
      case '--min-faults': o.minFaults = number(flag, value(), 0, 10_000); break;
      case '--quiet': o.progress = false; break;
      case '--redis-cluster': o.redisCluster = true; break;
      case '--help': case '-h': throw new UsageError('');
      default: throw new UsageError(`unknown option ${arg}`);
    }
  }
  if (o.seed < 0) o.seed = drawSeed();
  return o;
}
