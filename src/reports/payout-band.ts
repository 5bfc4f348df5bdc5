import type { Cents } from '../money';
import type { PrizeTable } from '../games/types';

/**
 * The range the prizes of n units drawn from printed blocks should fall in (docs/reports.md,
 * "The expected band"). A block is a uniformly shuffled multiset of prizes (the prize table's counts), so
 * the units sold from it at any set of positions — a day's, an hour's, the whole of them so far
 * — are a draw without replacement from that multiset, whatever was sold before: their prizes
 * follow the multivariate hypergeometric law of the block's counts. Draws from different blocks
 * are independent (each block has its own seed).
 *
 * The law of the sum is computed exactly, by dynamic programming over the tiers: tier by tier,
 * the number of units drawn from it given those still to draw is hypergeometric (population:
 * the tiers not yet taken), and the state is (units still to draw, sum so far), a dense vector
 * over the sum per count left; the smallest prizes come first, and the losing units come last
 * and take every unit left. Each hypergeometric law is computed by the ratio
 * of consecutive terms from its mode outwards, and its tails are cut where a term falls below
 * 1e-17 of the mode's; the mass cut is bounded (the terms decrease geometrically past the last
 * one kept: a log-concave law) and added up in `cut`, the total variation between the law
 * computed and the true one, by which the band is widened. Blocks are combined by convolution.
 *
 * When the draw is large (n(N − n)/N above `EXACT_SPREAD`, about a thousand units from a large
 * block) or the work (multiply-adds) would pass `EXACT_WORK`, a wide but still rigorous band is
 * given instead: Cantelli's inequality with the exact mean and variance of the sum, clamped to
 * the sums of the n smallest and the n largest prizes (`method: 'cantelli'`).
 */

/** Each side of the band holds at most this much probability outside it: a 99.9 % band. */
export const BAND_TAIL = 0.0005;
/** Above this many multiply-adds a block's law is not computed exactly (about half a second). */
const EXACT_WORK = 200_000_000;
/**
 * Draws whose n(N − n)/N passes this (about that many units from a large block) go to Cantelli
 * at once: their programme would pass `EXACT_WORK` after a while anyway.
 */
const EXACT_SPREAD = 1_000;
/** Above this many pairs, the laws of several blocks are not combined exactly. */
const CONVOLUTION_WORK = 20_000_000;
const TERM_CUT = 1e-17;

/** Units drawn from one block, and the block's prize table (its counts are the block's). */
export interface BlockDraw {
  readonly table: PrizeTable;
  readonly units: number;
}

export interface PayoutBand {
  /** Expected prizes of the units drawn (the table's payout times their stakes). */
  readonly expected: Cents;
  /** The band: P(prizes < low) ≤ BAND_TAIL and P(prizes > high) ≤ BAND_TAIL. */
  readonly low: Cents;
  readonly high: Cents;
  readonly method: 'exact' | 'cantelli';
}

/** A law of a sum of prizes, as its values in increasing order and their probabilities. */
interface Law {
  readonly values: number[];
  readonly probabilities: number[];
  /** Bound on the total variation to the true law (the tails cut). */
  readonly cut: number;
}

/** The prizes of a block's tiers with their counts, tier 0 (losing units) included. */
function tiersOf(table: PrizeTable): { prize: Cents; count: number }[] {
  const winning = table.tiers.reduce((n, t) => n + t.count, 0);
  return [{ prize: 0, count: table.blockSize - winning }, ...table.tiers].filter((t) => t.count > 0);
}

/**
 * The hypergeometric law of the units of one tier (K of M) among r drawn: its least value kept
 * and the probabilities from there, normalised, and the bound on the mass cut from its tails.
 */
function hypergeometric(M: number, K: number, r: number): { from: number; probabilities: number[]; cut: number } {
  const low = Math.max(0, r - (M - K));
  const high = Math.min(K, r);
  const mode = Math.min(high, Math.max(low, Math.floor(((r + 1) * (K + 1)) / (M + 2))));
  const up: number[] = [];
  let cut = 0;
  let w = 1;
  for (let k = mode; k < high; k++) {
    const ratio = ((K - k) * (r - k)) / ((k + 1) * (M - K - r + k + 1));
    w *= ratio;
    if (w < TERM_CUT) {
      const next = ((K - k - 1) * (r - k - 1)) / ((k + 2) * (M - K - r + k + 2));
      cut += next < 1 ? w / (1 - next) : w * (high - k);
      break;
    }
    up.push(w);
  }
  const down: number[] = [];
  w = 1;
  for (let k = mode; k > low; k--) {
    const ratio = (k * (M - K - r + k)) / ((K - k + 1) * (r - k + 1));
    w *= ratio;
    if (w < TERM_CUT) {
      const next = ((k - 1) * (M - K - r + k - 1)) / ((K - k + 2) * (r - k + 2));
      cut += next < 1 ? w / (1 - next) : w * (k - low);
      break;
    }
    down.push(w);
  }
  const weights = [...down.reverse(), 1, ...up];
  const total = weights.reduce((a, b) => a + b, 0);
  return { from: mode - down.length, probabilities: weights.map((x) => x / total), cut: cut / total };
}

/** The work allowed and done (multiply-adds), and done since the event loop last had its turn. */
interface Budget {
  work: number;
  sinceYield: number;
}

/** Multiply-adds between two turns of the event loop: a few milliseconds. */
const SLICE = 2_000_000;

/**
 * Lets the event loop run every SLICE multiply-adds: a band takes up to about a second of CPU
 * on a busy day, and the server's rooms and routes must not wait for it.
 */
async function pace(budget: Budget, done: number): Promise<void> {
  budget.sinceYield += done;
  if (budget.sinceYield < SLICE) return;
  budget.sinceYield = 0;
  await new Promise((resolve) => setImmediate(resolve));
}

type Tiers = readonly { readonly prize: Cents; readonly count: number }[];

/** The top prizes, in all at most this many units of a block, are drawn apart (`blockLaw`). */
const RARE_UNITS = 64;

/**
 * The exact law of the prizes of `units` drawn from one block, or undefined past the work
 * allowed. The few units of the top prizes would widen every row of the programme to their
 * prize: how many of the units drawn are among them (m) is hypergeometric, and given m the
 * top tiers' draw (m units) and the others' (units − m) are independent, each computed apart
 * and convolved, then mixed over m.
 */
async function blockLaw(table: PrizeTable, units: number, budget: Budget): Promise<Law | undefined> {
  const tiers = tiersOf(table).sort((a, b) => b.prize - a.prize);
  let rareCount = 0;
  let split = 0;
  while (split < tiers.length - 1 && rareCount + tiers[split]!.count <= RARE_UNITS) rareCount += tiers[split++]!.count;
  if (split === 0) return await tiersLaw(tiers, units, budget);
  const rare = tiers.slice(0, split);
  const common = tiers.slice(split);
  const among = hypergeometric(table.blockSize, rareCount, units);
  const sums = new Map<number, number>();
  let cut = among.cut;
  for (let i = 0; i < among.probabilities.length; i++) {
    const m = among.from + i;
    const top = await tiersLaw(rare, m, budget);
    const rest = top && (await tiersLaw(common, units - m, budget));
    if (!top || !rest) return undefined;
    const both = convolve(top, rest);
    cut = Math.max(cut, among.cut + both.cut);
    both.values.forEach((v, j) => sums.set(v, (sums.get(v) ?? 0) + among.probabilities[i]! * both.probabilities[j]!));
  }
  const values = [...sums.keys()].sort((a, b) => a - b);
  return { values, probabilities: values.map((v) => sums.get(v)!), cut };
}

/** A row of the dynamic programme: the probabilities of sums `from`, `from + 1`, … (in units of the prizes' divisor). */
interface Row {
  readonly from: number;
  readonly values: Float64Array;
}

/** Entries of the programme below this probability are dropped, their mass added to the cut. */
const ENTRY_CUT = 1e-18;

/**
 * The rows without their ends below ENTRY_CUT, and without the rows left empty: the tails of
 * the products of many laws, which would otherwise widen every row to no purpose.
 */
function trimmed(rows: Map<number, Row>): { rows: Map<number, Row>; cut: number } {
  const kept = new Map<number, Row>();
  let cut = 0;
  for (const [left, row] of rows) {
    const { values } = row;
    let from = 0;
    let to = values.length;
    while (from < to && values[from]! < ENTRY_CUT) cut += values[from++]!;
    while (to > from && values[to - 1]! < ENTRY_CUT) cut += values[--to]!;
    if (from < to) kept.set(left, { from: row.from + from, values: values.subarray(from, to) });
  }
  return { rows: kept, cut };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The exact law of the prizes of `units` drawn from these tiers (the whole population), or
 * undefined past the work allowed. Rows by units still to draw, each a dense vector over the sum; the smallest prizes
 * (the commonest tiers) first, so that the rows widen only at the end, the losing units last.
 */
async function tiersLaw(of: Tiers, units: number, budget: Budget): Promise<Law | undefined> {
  const tiers = [...of].sort((a, b) => a.prize - b.prize);
  const divisor = tiers.reduce((d, t) => gcd(d, t.prize), 0) || 1;
  const last = tiers.shift()!;
  let population = of.reduce((n, t) => n + t.count, 0);
  // Sums are kept as what the tiers add above the last tier's prize, in units of the divisor.
  let rows = new Map<number, Row>([[units, { from: 0, values: Float64Array.of(1) }]]);
  let cut = 0;
  for (const tier of tiers) {
    const step = (tier.prize - last.prize) / divisor;
    const moves: { row: Row; k: number; q: number; to: number }[] = [];
    const spans = new Map<number, { from: number; to: number }>();
    let stepCut = 0;
    for (const [left, row] of rows) {
      const law = hypergeometric(population, tier.count, left);
      stepCut = Math.max(stepCut, law.cut);
      law.probabilities.forEach((q, i) => {
        const k = law.from + i;
        const to = left - k;
        moves.push({ row, k, q, to });
        const span = spans.get(to);
        const from = row.from + k * step;
        const end = from + row.values.length;
        spans.set(to, span ? { from: Math.min(span.from, from), to: Math.max(span.to, end) } : { from, to: end });
      });
      budget.work += law.probabilities.length * row.values.length;
      if (budget.work > EXACT_WORK) return undefined;
    }
    const next = new Map<number, Row>([...spans].map(([left, span]) => [left, { from: span.from, values: new Float64Array(span.to - span.from) }]));
    for (const { row, k, q, to } of moves) {
      const target = next.get(to)!;
      const offset = row.from + k * step - target.from;
      const { values } = row;
      for (let j = 0; j < values.length; j++) target.values[offset + j]! += q * values[j]!;
      await pace(budget, values.length);
    }
    cut += stepCut;
    population -= tier.count;
    const kept = trimmed(next);
    rows = kept.rows;
    cut += kept.cut;
  }
  // The tier left (the losing units, when the block has any) takes every unit left to draw.
  const bySum = new Map<number, number>();
  for (const row of rows.values()) {
    row.values.forEach((p, j) => {
      if (p === 0) return;
      const sum = (row.from + j) * divisor + units * last.prize;
      bySum.set(sum, (bySum.get(sum) ?? 0) + p);
    });
  }
  const values = [...bySum.keys()].sort((a, b) => a - b);
  return { values, probabilities: values.map((v) => bySum.get(v)!), cut };
}

function convolve(a: Law, b: Law): Law {
  const sums = new Map<number, number>();
  a.values.forEach((x, i) => b.values.forEach((y, j) => sums.set(x + y, (sums.get(x + y) ?? 0) + a.probabilities[i]! * b.probabilities[j]!)));
  const values = [...sums.keys()].sort((x, y) => x - y);
  return { values, probabilities: values.map((v) => sums.get(v)!), cut: a.cut + b.cut };
}

/** The least value whose cumulative probability reaches `level`. */
function quantile(law: Law, level: number): number {
  let cumulative = 0;
  for (let i = 0; i < law.values.length; i++) {
    cumulative += law.probabilities[i]!;
    if (cumulative >= level) return law.values[i]!;
  }
  return law.values.at(-1)!;
}

function expectedOf(draws: readonly BlockDraw[]): number {
  return draws.reduce((sum, { table, units }) => sum + (units * tiersOf(table).reduce((s, t) => s + t.prize * t.count, 0)) / table.blockSize, 0);
}

/** Cantelli's bound with the exact mean and variance, within the least and greatest sums possible. */
function cantelliBand(draws: readonly BlockDraw[]): PayoutBand {
  let variance = 0;
  let least = 0;
  let most = 0;
  for (const { table, units } of draws) {
    const tiers = tiersOf(table);
    const N = table.blockSize;
    const mean = tiers.reduce((s, t) => s + t.prize * t.count, 0) / N;
    const spread = tiers.reduce((s, t) => s + t.count * (t.prize - mean) ** 2, 0) / N;
    variance += N > 1 ? (units * spread * (N - units)) / (N - 1) : 0;
    least += extremeSum(tiers, units, 'least');
    most += extremeSum(tiers, units, 'most');
  }
  const expected = expectedOf(draws);
  const reach = Math.sqrt(variance * ((1 - BAND_TAIL) / BAND_TAIL));
  return { expected: Math.round(expected), low: Math.max(least, Math.floor(expected - reach)), high: Math.min(most, Math.ceil(expected + reach)), method: 'cantelli' };
}

function extremeSum(tiers: readonly { prize: Cents; count: number }[], units: number, which: 'least' | 'most'): Cents {
  const ordered = [...tiers].sort((a, b) => (which === 'least' ? a.prize - b.prize : b.prize - a.prize));
  let left = units;
  let sum = 0;
  for (const t of ordered) {
    const k = Math.min(left, t.count);
    sum += k * t.prize;
    left -= k;
  }
  return sum;
}

/**
 * The band of the prizes of units drawn from one or more blocks (each entry one block's draw),
 * exact when the work allows it (see the file's comment).
 */
export async function payoutBand(draws: readonly BlockDraw[]): Promise<PayoutBand> {
  const drawn = draws.filter((d) => d.units > 0);
  let law: Law = { values: [0], probabilities: [1], cut: 0 };
  const budget: Budget = { work: 0, sinceYield: 0 };
  if (drawn.some(({ table, units }) => (units * (table.blockSize - units)) / table.blockSize > EXACT_SPREAD)) return cantelliBand(drawn);
  for (const draw of drawn) {
    const one = await blockLaw(draw.table, draw.units, budget);
    if (!one || one.values.length * law.values.length > CONVOLUTION_WORK) return cantelliBand(drawn);
    law = convolve(law, one);
  }
  // Widened by the mass cut: the true law's quantiles lie within these.
  const low = quantile(law, Math.max(0, BAND_TAIL - law.cut));
  const high = quantile(law, Math.min(1, 1 - BAND_TAIL + law.cut));
  return { expected: Math.round(expectedOf(drawn)), low, high, method: 'exact' };
}
