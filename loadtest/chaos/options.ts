import { decimal, parseArgs, UsageError, whole, type CommandLine, type Flag } from '../../tools/command-line';
import { FAULT_KINDS, type FaultKind } from './plan';

/** Command-line options of `npm run chaos`; every count and duration is bounded. */

/**
 * Faults fixed in the server, put back on purpose to show that the run catches them (each a
 * `node --import` module of negative-control/, loaded into every server process).
 */
export const NEGATIVE_CONTROLS = ['kept-room-list-failure'] as const;
export type NegativeControl = (typeof NEGATIVE_CONTROLS)[number];

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
  /** A fixed fault put back into every server: the run must fail (docs/reliability.md). */
  readonly negativeControl: NegativeControl | null;
  /** Whose wallet the players' money is in: the servers' own, or the reference operator's (wallet-chaos.ts). */
  readonly wallet: 'internal' | 'seamless';
}

export const CHAOS_DEFAULTS: ChaosOptions = {
  /** Below 0 until parsed: then --seed, or drawn. */
  seed: -1,
  minutes: 2,
  players: 24,
  thinkMs: 300,
  processes: 3,
  feedSpectators: 3,
  faultsPerMinute: 12,
  freezeMinMs: 6000,
  freezeMaxMs: 9000,
  weights: { 'kill-server': 1, 'kill-redis': 1, 'freeze-redis': 1, 'cut-clients': 1, 'kill-writer': 1 },
  abandonAfterS: 5,
  sweepEveryS: 1,
  drainS: 120,
  minFaults: 0,
  progress: true,
  redisCluster: false,
  negativeControl: null,
  wallet: 'internal',
};

const D = CHAOS_DEFAULTS;

/** `MIN-MAX` in ms, at most a minute. */
function freezeRange(raw: string): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(raw);
  if (!m || Number(m[1]) > Number(m[2]) || Number(m[2]) > 60_000) throw new UsageError('takes MIN-MAX in ms (at most 60000), e.g. 6000-9000');
  return [Number(m[1]), Number(m[2])];
}

/** `KIND=W,...` over `weights`, at least one kind left above 0. */
function weightsOf(raw: string, weights: Readonly<Record<FaultKind, number>>): Record<FaultKind, number> {
  const parsed = { ...weights };
  for (const part of raw.split(',')) {
    const m = /^([a-z-]+)=(\d+)$/.exec(part.trim());
    if (!m || !(FAULT_KINDS as readonly string[]).includes(m[1]!)) throw new UsageError(`takes KIND=W,... with KIND among ${FAULT_KINDS.join(', ')}, got ${JSON.stringify(part)}`);
    parsed[m[1] as FaultKind] = whole(m[2]!, 0, 100);
  }
  if (FAULT_KINDS.every((k) => parsed[k] === 0)) throw new UsageError('needs at least one kind with a weight above 0');
  return parsed;
}

const FLAGS: readonly Flag<ChaosOptions>[] = [
  { name: '--minutes', value: 'M', help: `minutes of faults, after the ramp (default ${D.minutes}; 0.1 to 180)`, set: (o, v) => (o.minutes = decimal(v, 0.1, 180)) },
  { name: '--seed', value: 'S', help: 'seed of the fault schedule and the players\' choices (default: drawn, printed)', set: (o, v) => (o.seed = whole(v, 0, 2 ** 31 - 1)) },
  { name: '--players', value: 'N', help: `synthetic players (default ${D.players}, at most 2000)`, set: (o, v) => (o.players = whole(v, 1, 2000)) },
  { name: '--think-ms', value: 'T', help: `players' mean pause before each action (default ${D.thinkMs})`, set: (o, v) => (o.thinkMs = whole(v, 0, 60_000)) },
  { name: '--processes', value: 'K', help: `game server processes (default ${D.processes}, 1 to 8)`, set: (o, v) => (o.processes = whole(v, 1, 8)) },
  { name: '--feed-spectators', value: 'F', help: `feed spectators whose wins are checked against the players (default ${D.feedSpectators})`, set: (o, v) => (o.feedSpectators = whole(v, 0, 100)) },
  { name: '--faults-per-minute', value: 'R', help: `mean rate of faults (default ${D.faultsPerMinute}, at most 120)`, set: (o, v) => (o.faultsPerMinute = decimal(v, 0.1, 120)) },
  { name: '--freeze-ms', value: 'MIN-MAX', help: `Redis stalls (SIGSTOP) in this range (default ${D.freezeMinMs}-${D.freezeMaxMs})`, set: (o, v) => ([o.freezeMinMs, o.freezeMaxMs] = freezeRange(v)) },
  { name: '--weights', value: 'K=W,...', help: `weight of each fault kind (${FAULT_KINDS.join(', ')}; default 1 each, 0: never)`, set: (o, v) => (o.weights = weightsOf(v, o.weights)) },
  { name: '--abandon-after', value: 'S', help: `the servers' ABANDON_AFTER_SECONDS (default ${D.abandonAfterS})`, set: (o, v) => (o.abandonAfterS = whole(v, 1, 600)) },
  { name: '--drain', value: 'S', help: `seconds allowed, after the faults, to finish every unit (default ${D.drainS})`, set: (o, v) => (o.drainS = whole(v, 10, 1800)) },
  { name: '--min-faults', value: 'N', help: 'fail the run if fewer faults were injected (default 0)', set: (o, v) => (o.minFaults = whole(v, 0, 10_000)) },
  {
    name: '--redis-cluster',
    help: 'a Redis Cluster of 3 masters + 3 replicas instead of one redis-server:\nkill-redis SIGKILLs a master (started again after its replica took over),\nfreeze-redis SIGSTOPs one',
    set: (o) => (o.redisCluster = true),
  },
  {
    name: '--negative-control',
    value: 'NAME',
    help: `put a fixed fault back into every server, to see the run fail (${NEGATIVE_CONTROLS.join(', ')})`,
    set: (o, v) => {
      if (!(NEGATIVE_CONTROLS as readonly string[]).includes(v)) throw new UsageError(`takes one of ${NEGATIVE_CONTROLS.join(', ')}, got ${JSON.stringify(v)}`);
      o.negativeControl = v as NegativeControl;
    },
  },
  {
    name: '--wallet',
    value: 'MODE',
    help: "internal (default): the servers keep the money; seamless: the reference operator's wallet,\nwith its own faults (timeouts, 5xx, lost answers, an outage, a kill and restart),\nits ledger reconciled with the servers' after the run",
    set: (o, v) => {
      if (v !== 'internal' && v !== 'seamless') throw new UsageError(`takes internal or seamless, got ${JSON.stringify(v)}`);
      o.wallet = v;
    },
  },
  { name: '--quiet', help: 'no progress lines', set: (o) => (o.progress = false) },
];

/** The chaos run's command line; a seed not given is drawn with `drawSeed`. */
export function chaosCommandLine(drawSeed: () => number): CommandLine<ChaosOptions> {
  return {
    synopsis: 'npm run chaos -- --minutes M [--seed S] [options]',
    defaults: CHAOS_DEFAULTS,
    flags: FLAGS,
    finish: (o) => {
      if (o.seed < 0) o.seed = drawSeed();
    },
  };
}

export function parseChaosOptions(argv: readonly string[], drawSeed: () => number): ChaosOptions {
  return parseArgs(chaosCommandLine(drawSeed), argv);
}
