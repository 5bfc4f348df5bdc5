import { nonceFor, Rng } from '../../src/random/rng';

/**
 * The fault schedule of a chaos run, drawn in advance from the project's ChaCha20 stream under
 * the run's `--seed` (so a run can be repeated, and its schedule printed): at what moment each
 * fault starts, of which kind, on what, and for how long. Pure; `faults.ts` carries it out.
 */

export const FAULT_KINDS = ['kill-server', 'kill-redis', 'freeze-redis', 'cut-clients', 'kill-writer'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  /** Milliseconds after the faults begin. */
  readonly atMs: number;
  readonly kind: FaultKind;
  /** kill-server: index of the server process; cut-clients: how many players are cut. */
  readonly target: number;
  /** kill-*: how long the process stays dead before its restart (the archive writer's too); freeze-redis: the stall. */
  readonly downMs: number;
}

export interface PlanSettings {
  readonly seed: number;
  /** Faults are drawn in [0, spanMs). */
  readonly spanMs: number;
  /** Mean gap between two fault starts; each gap uniform in [mean/2, 3·mean/2]. */
  readonly meanGapMs: number;
  readonly servers: number;
  readonly players: number;
  /** Redis stalls are drawn in [freezeMinMs, freezeMaxMs] (longer than the servers' command timeout). */
  readonly freezeMinMs: number;
  readonly freezeMaxMs: number;
  /** Weight of each kind (integers); a kind of weight 0 is never drawn. */
  readonly weights: Readonly<Record<FaultKind, number>>;
}

/** Dead processes stay down this long (ms) before their restart: long enough for clients to notice. */
const DOWN_MIN_MS = 300;
const DOWN_MAX_MS = 2500;
/** At most this many players cut at once. */
const MAX_CUT = 5;
/** No run draws more faults than this, whatever its length. */
export const MAX_FAULTS = 10_000;

/** The run's seed as a 32-byte ChaCha20 key (little-endian, zero padded). */
export function seedKey(seed: number): Uint8Array {
  const bytes = new Uint8Array(32);
  new DataView(bytes.buffer).setUint32(0, seed >>> 0, true);
  return bytes;
}

export function planFaults(s: PlanSettings): Fault[] {
  const total = FAULT_KINDS.reduce((n, k) => n + s.weights[k], 0);
  if (total <= 0) throw new RangeError('at least one fault kind needs a weight above 0');
  if (s.meanGapMs < 2) throw new RangeError('the mean gap between faults must be at least 2 ms');
  const rng = new Rng(seedKey(s.seed), nonceFor('chaos-plan'));
  const half = Math.floor(s.meanGapMs / 2);
  const faults: Fault[] = [];
  for (let at = rng.between(half, s.meanGapMs + half); at < s.spanMs && faults.length < MAX_FAULTS; at += rng.between(half, s.meanGapMs + half)) {
    let draw = rng.below(total);
    let kind: FaultKind = FAULT_KINDS[0];
    for (const k of FAULT_KINDS) {
      if (draw < s.weights[k]) {
        kind = k;
        break;
      }
      draw -= s.weights[k];
    }
    const target = kind === 'kill-server' ? rng.below(s.servers) : kind === 'cut-clients' ? rng.between(1, Math.min(MAX_CUT, s.players)) : 0;
    const downMs = kind === 'freeze-redis' ? rng.between(s.freezeMinMs, s.freezeMaxMs) : kind === 'cut-clients' ? 0 : rng.between(DOWN_MIN_MS, DOWN_MAX_MS);
    faults.push({ atMs: at, kind, target, downMs });
  }
  return faults;
}

/** How many faults of each kind a list holds (every kind present, 0 if none). */
export function countByKind(faults: readonly { readonly kind: FaultKind }[]): Record<FaultKind, number> {
  const counts = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  for (const f of faults) counts[f.kind]++;
  return counts;
}
