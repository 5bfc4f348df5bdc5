import { Rng, nonceFor } from '../../random/rng';
import type { Outcome } from '../types';
import { MINE_D_OR_TABLES } from './prize-table';
import {
  GAIN_AT_50,
  GRID_CELLS,
  MAX_EXTRA_STAGES,
  SYMBOLS,
  WINNING_SYMBOLS,
  type MineDOrChoices,
  type MineDOrScenario,
  type MineSymbol,
} from './scenario';

/**
 * Builds a scenario presenting a dealt outcome. Steps, each drawn with the seeded RNG:
 *  1. the number of Extra stages k (0..4), with the same weights for every outcome, so EXTRA
 *     symbols say nothing about the prize;
 *  2. for a winning unit, a "way": which combinations (symbol, on a line or not) each of the
 *     k + 1 grids holds so that the gains add up to the prize. All ways with at most 3
 *     combinations are enumerated at module load; the number of combinations is drawn by
 *     weight, then a way uniformly among those with that number;
 *  3. where the k EXTRA symbols go (each stage earned before it is played);
 *  4. each grid: the combinations' cells, the EXTRA cells, then a neutral filler: the other
 *     cells get a uniform draw among all fillings that add no combination (no other symbol 3
 *     times). Losing grids are that same neutral draw, so pairs ("near misses") show exactly
 *     as often as chance gives them.
 */

/** Weights of 0, 1, 2, 3, 4 Extra stages (a design choice; the rules leave it open). */
const STAGE_WEIGHTS = [24, 8, 4, 2, 1] as const;
/** Weights of a win made of 1, 2 or 3 combinations (index = number of combinations). */
const COMBO_WEIGHTS = [0, 6, 3, 1] as const;
const MAX_COMBOS = COMBO_WEIGHTS.length - 1;

const EXTRA = SYMBOLS.indexOf('extra');
const GAINS: readonly number[] = WINNING_SYMBOLS.map((s) => GAIN_AT_50[s]);

/** One planned combination: a winning symbol index, on a line (doubled) or not. */
interface Planned {
  readonly symbol: number;
  readonly aligned: boolean;
}
/** The combinations of one grid (distinct symbols: a symbol shows at most 3 times). */
type GridPlan = readonly Planned[];
/** The combinations of the main grid and each Extra stage (length k + 1). */
type Way = readonly GridPlan[];
const NO_COMBOS: GridPlan = [];

// ---------------------------------------------------------------- geometry of the 3×3 grid

const LINES: readonly (readonly number[])[] = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8], // rows
  [0, 3, 6], [1, 4, 7], [2, 5, 8], // columns
  [0, 4, 8], [2, 4, 6], // diagonals
];
const LINE_MASKS = new Set(LINES.map((l) => l.reduce((m, c) => m | (1 << c), 0)));

interface Triple {
  readonly cells: readonly number[];
  readonly mask: number;
  readonly line: boolean;
}
const TRIPLES: Triple[] = [];
for (let a = 0; a < GRID_CELLS; a++) {
  for (let b = a + 1; b < GRID_CELLS; b++) {
    for (let c = b + 1; c < GRID_CELLS; c++) {
      const mask = (1 << a) | (1 << b) | (1 << c);
      TRIPLES.push({ cells: [a, b, c], mask, line: LINE_MASKS.has(mask) });
    }
  }
}

/**
 * PLACEMENTS[a][u]: every ordered choice of a disjoint lines then u disjoint non-line triples,
 * flattened (3 cells per triple). Drawing one uniformly places a grid's combinations.
 */
function placementsFor(aligned: number, unaligned: number): Uint8Array {
  const out: number[] = [];
  const chosen: Triple[] = [];
  const walk = (used: number): void => {
    const t = chosen.length;
    if (t === aligned + unaligned) {
      for (const tr of chosen) out.push(...tr.cells);
      return;
    }
    const wantLine = t < aligned;
    for (const tr of TRIPLES) {
      if (tr.line !== wantLine || (tr.mask & used) !== 0) continue;
      chosen.push(tr);
      walk(used | tr.mask);
      chosen.pop();
    }
  };
  walk(0);
  return Uint8Array.from(out);
}
const PLACEMENTS: Uint8Array[][] = [];
for (let a = 0; a <= 3; a++) {
  PLACEMENTS.push([]);
  for (let u = 0; a + u <= 3; u++) PLACEMENTS[a]!.push(placementsFor(a, u));
}

// ---------------------------------------------------------------- neutral filler

/**
 * FILLERS[n][m]: every way to fill n cells from m symbols with none more than twice, as count
 * vectors weighted by their number of arrangements (n! / Π c!). Drawing a vector by weight and
 * shuffling it draws uniformly among all such fillings.
 */
interface Filler {
  readonly vectors: readonly (readonly number[])[];
  readonly cumulative: readonly number[];
  readonly total: number;
}
function factorial(n: number): number {
  return n <= 1 ? 1 : n * factorial(n - 1);
}
function fillerFor(n: number, m: number): Filler {
  const vectors: number[][] = [];
  const cumulative: number[] = [];
  let total = 0;
  const v: number[] = [];
  const walk = (left: number): void => {
    if (v.length === m) {
      if (left !== 0) return;
      vectors.push(v.slice());
      total += v.reduce((w, c) => w / factorial(c), factorial(n));
      cumulative.push(total);
      return;
    }
    for (let c = 0; c <= Math.min(2, left); c++) {
      v.push(c);
      walk(left - c);
      v.pop();
    }
  };
  walk(n);
  return { vectors, cumulative, total };
}
const FILLERS: Filler[][] = [];
for (let n = 0; n <= GRID_CELLS; n++) {
  FILLERS.push([]);
  for (let m = 0; m <= WINNING_SYMBOLS.length; m++) FILLERS[n]!.push(fillerFor(n, m));
}

// ---------------------------------------------------------------- EXTRA symbols

/**
 * EXTRA_PLANS[k][full]: every way to spread k EXTRA symbols over k + 1 grids (at most 3 in a
 * grid, none in a grid `full` of 3 combinations) so that Extra stage j is earned by EXTRAs in
 * the grids before it. The last stage then never holds one.
 */
const EXTRA_PLANS: (readonly (readonly number[])[])[][] = [];
for (let k = 0; k <= MAX_EXTRA_STAGES; k++) {
  EXTRA_PLANS.push([]);
  for (let full = 0; full < 1 << (k + 1); full++) {
    const plans: number[][] = [];
    const e: number[] = [];
    const walk = (seen: number): void => {
      const stage = e.length;
      if (stage > 0 && seen < stage && stage <= k) return; // stage `stage` not earned yet
      if (stage === k + 1) {
        if (seen === k) plans.push(e.slice());
        return;
      }
      const most = full & (1 << stage) ? 0 : Math.min(3, k - seen);
      for (let x = 0; x <= most; x++) {
        e.push(x);
        walk(seen + x);
        e.pop();
      }
    };
    walk(0);
    EXTRA_PLANS[k]!.push(plans);
  }
}

function fullMaskOf(way: Way): number {
  let full = 0;
  way.forEach((grid, i) => {
    if (grid.length === 3) full |= 1 << i;
  });
  return full;
}

// ---------------------------------------------------------------- ways to win

/** Every combination set one grid may hold: distinct symbols, aligned or not, ≤ 3 of them. */
interface GridOption {
  readonly plan: GridPlan;
  readonly gain: number;
}
const GRID_OPTIONS: GridOption[] = [];
for (let set = 1; set < 1 << WINNING_SYMBOLS.length; set++) {
  const symbols = WINNING_SYMBOLS.map((_, i) => i).filter((i) => set & (1 << i));
  if (symbols.length > 3) continue;
  for (let lines = 0; lines < 1 << symbols.length; lines++) {
    const plan = symbols.map((symbol, i) => ({ symbol, aligned: (lines & (1 << i)) !== 0 }));
    const aligned = plan.filter((p) => p.aligned).length;
    if (PLACEMENTS[aligned]![plan.length - aligned]!.length === 0) continue; // 2 lines + 1 other
    const gain = plan.reduce((g, p) => g + GAINS[p.symbol]! * (p.aligned ? 2 : 1), 0);
    GRID_OPTIONS.push({ plan, gain });
  }
}
/** GRID_OPTIONS split by number of combinations (index 1..3), each by increasing gain. */
const OPTIONS_BY_SIZE: GridOption[][] = COMBO_WEIGHTS.map((_, n) =>
  GRID_OPTIONS.filter((o) => o.plan.length === n).sort((x, y) => x.gain - y.gain),
);

/** REACHABLE[r]: every sum of at most r single combinations' gains, to prune the search. */
const REACHABLE: Set<number>[] = [new Set([0])];
for (let r = 1; r <= MAX_COMBOS; r++) {
  const sums = new Set(REACHABLE[r - 1]);
  for (const sum of REACHABLE[r - 1]!) for (const option of OPTIONS_BY_SIZE[1]!) sums.add(sum + option.gain);
  REACHABLE.push(sums);
}

/** Ways to present `basePrize` (0.50 € cents) with k Extra stages, by number of combinations. */
function waysFor(basePrize: number, k: number): Way[][] {
  const byCount: Way[][] = COMBO_WEIGHTS.map(() => []);
  const grids: GridPlan[] = [];
  const walk = (left: number, combos: number): void => {
    if (!REACHABLE[MAX_COMBOS - combos]!.has(left)) return; // the combinations left cannot make it
    if (grids.length === k + 1) {
      if (left !== 0 || combos === 0) return;
      const way = grids.slice();
      if (EXTRA_PLANS[k]![fullMaskOf(way)]!.length > 0) byCount[combos]!.push(way);
      return;
    }
    grids.push(NO_COMBOS);
    walk(left, combos);
    grids.pop();
    for (let size = 1; combos + size <= MAX_COMBOS; size++) {
      for (const option of OPTIONS_BY_SIZE[size]!) {
        if (option.gain > left) break;
        grids.push(option.plan);
        walk(left - option.gain, combos + size);
        grids.pop();
      }
    }
  };
  walk(basePrize, 0);
  return byCount;
}

/** WAYS.get(basePrize)[k][n]: the ways with k Extra stages and n combinations. */
const WAYS = new Map<number, Way[][][]>();
for (const table of MINE_D_OR_TABLES) {
  const factor = table.stake / 50;
  for (const tier of table.tiers) {
    const base = tier.prize / factor;
    if (WAYS.has(base)) continue;
    const perStages: Way[][][] = [];
    for (let k = 0; k <= MAX_EXTRA_STAGES; k++) {
      const byCount = waysFor(base, k);
      if (byCount.every((ways) => ways.length === 0)) {
        throw new Error(`Mine d'or cannot present ${base} cents with ${k} Extra stages`);
      }
      perStages.push(byCount);
    }
    WAYS.set(base, perStages);
  }
}

/** Prizes (cents) each stake's table holds, so that generate refuses anything else. */
const TABLE_PRIZES = new Map<number, Set<number>>(
  MINE_D_OR_TABLES.map((t) => [t.stake, new Set(t.tiers.map((tier) => tier.prize))]),
);

// ---------------------------------------------------------------- drawing

function drawWeighted(rng: Rng, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let x = rng.below(total);
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!;
    if (x < 0) return i;
  }
  throw new Error('unreachable: weights exhausted');
}

const cells = new Int8Array(GRID_CELLS); // scratch: the symbol index of each cell, -1 = free
const free = new Uint8Array(GRID_CELLS);
const fill = new Int8Array(GRID_CELLS);
const alignedScratch: Planned[] = [];
const unalignedScratch: Planned[] = [];

/** One 3×3 grid holding exactly `plan`'s combinations and `extras` EXTRA symbols. */
function drawGrid(rng: Rng, plan: GridPlan, extras: number): MineSymbol[] {
  cells.fill(-1);
  let used = 0; // winning symbols taken by a combination (bitmask)
  if (plan.length > 0) {
    alignedScratch.length = 0;
    unalignedScratch.length = 0;
    for (const p of plan) (p.aligned ? alignedScratch : unalignedScratch).push(p);
    const a = alignedScratch.length;
    const table = PLACEMENTS[a]![plan.length - a]!;
    const stride = plan.length * 3;
    const base = rng.below(table.length / stride) * stride;
    for (let t = 0; t < plan.length; t++) {
      const symbol = (t < a ? alignedScratch[t] : unalignedScratch[t - a])!.symbol;
      used |= 1 << symbol;
      for (let j = 0; j < 3; j++) cells[table[base + t * 3 + j]!] = symbol;
    }
  }
  let f = 0;
  for (let c = 0; c < GRID_CELLS; c++) if (cells[c] === -1) free[f++] = c;
  // EXTRA symbols on `extras` of the free cells, uniformly (partial Fisher–Yates).
  for (let i = 0; i < extras; i++) {
    const j = i + rng.below(f - i);
    const t = free[i]!;
    free[i] = free[j]!;
    free[j] = t;
    cells[free[i]!] = EXTRA;
  }
  // Neutral filler on the rest, from the symbols no combination uses.
  const n = f - extras;
  if (n > 0) {
    const available: number[] = [];
    for (let s = 0; s < WINNING_SYMBOLS.length; s++) if (!(used & (1 << s))) available.push(s);
    const filler = FILLERS[n]![available.length]!;
    const x = rng.below(filler.total);
    let v = 0;
    while (filler.cumulative[v]! <= x) v++;
    const vector = filler.vectors[v]!;
    let k = 0;
    for (let s = 0; s < vector.length; s++) for (let c = 0; c < vector[s]!; c++) fill[k++] = available[s]!;
    for (let i = n - 1; i > 0; i--) {
      const j = rng.below(i + 1);
      const t = fill[i]!;
      fill[i] = fill[j]!;
      fill[j] = t;
    }
    for (let i = 0; i < n; i++) cells[free[extras + i]!] = fill[i]!;
  }
  const out = new Array<MineSymbol>(GRID_CELLS);
  for (let c = 0; c < GRID_CELLS; c++) out[c] = SYMBOLS[cells[c]!]!;
  return out;
}

/**
 * A scenario presenting exactly `outcome` (its stake's table prizes, or 0), reproducible from
 * `seed`. Throws for a price or a prize Mine d'or does not have.
 */
export function generate(outcome: Outcome, seed: Uint8Array, _choices?: MineDOrChoices): MineDOrScenario {
  const { stake, prize } = outcome;
  const prizes = TABLE_PRIZES.get(stake);
  if (!prizes) throw new RangeError(`Mine d'or is not sold at ${stake} cents`);
  if (prize !== 0 && !prizes.has(prize)) throw new RangeError(`${prize} cents is not a prize of the ${stake} table`);
  const rng = new Rng(seed, nonceFor('mine-d-or'));
  const k = drawWeighted(rng, STAGE_WEIGHTS);
  let way: Way | undefined;
  if (prize !== 0) {
    const byCount = WAYS.get(prize / (stake / 50))![k]!;
    const n = drawWeighted(rng, COMBO_WEIGHTS.map((w, i) => (byCount[i]!.length > 0 ? w : 0)));
    way = rng.pick(byCount[n]!);
  }
  const extraPlans = EXTRA_PLANS[k]![way ? fullMaskOf(way) : 0]!;
  const extras = extraPlans.length === 1 ? extraPlans[0]! : rng.pick(extraPlans);
  const grids: MineSymbol[][] = [];
  for (let stage = 0; stage <= k; stage++) {
    grids.push(drawGrid(rng, way ? way[stage]! : NO_COMBOS, extras[stage]!));
  }
  return { stake, grids };
}
