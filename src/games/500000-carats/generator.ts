import type { Cents } from '../../money';
import { Rng, nonceFor } from '../../random/rng';
import type { Outcome } from '../types';
import { CARATS_AMOUNTS, CARATS_NUMBERS, CARATS_STAKE, NUMBERS_COUNT, WINNING_COUNT } from './rules';
import type { CaratsScenario } from './scenario';
import { CARATS_SPLITS } from './splits';

/**
 * Builds a scenario showing exactly the dealt prize.
 *
 * - The 6 winning numbers: a uniform draw of 6 of the 46 numbers.
 * - A losing unit: the 24 numbers are a uniform draw of 24 of the 40 other numbers, so it never
 *   shows a match.
 * - A winning unit: first the number of matches k, uniform among the counts the prize can be
 *   split into (100 € = one 100, two 50s, or 5 or 6 smaller amounts); then one split of that
 *   size, uniform; then k of the 6 winning numbers, uniform, placed at k uniform positions of
 *   the 24 with the split's amounts; the other 24 - k positions get a uniform draw of the 40
 *   non-winning numbers.
 * - Every amount under an unmatched number comes from one neutral draw (`NEUTRAL_WEIGHTS`), the
 *   same for winning and losing units: big amounts show up under losing numbers only as often as
 *   that draw gives them, never picked to tease (GLI-19 4.5.2).
 *
 * Speed: a block is 8,016,000 units, so this runs on module-level scratch typed arrays and draws
 * each value once (partial Fisher–Yates); the only allocations are the Rng and the scenario.
 */

const NONCE = nonceFor('carats');

/**
 * Weights (out of 100) of the amount printed under a number that does not match, from 5 € up to
 * 500,000 €. A presentation choice: small amounts are common, the top prize rare.
 */
export const NEUTRAL_WEIGHTS: readonly (readonly [Cents, number])[] = [
  [500, 24],
  [1_000, 22],
  [1_500, 18],
  [5_000, 12],
  [10_000, 10],
  [100_000, 7],
  [1_000_000, 5],
  [50_000_000, 2],
];

const NEUTRAL_TOTAL = 100;
/** `NEUTRAL_LOOKUP[r]` for r uniform in [0, 100): one draw, one index. */
const NEUTRAL_LOOKUP: Int32Array = (() => {
  const lookup = new Int32Array(NEUTRAL_TOTAL);
  let at = 0;
  for (const [amount, weight] of NEUTRAL_WEIGHTS) {
    if (!CARATS_AMOUNTS.includes(amount)) throw new Error(`neutral amount ${amount} is not a table amount`);
    lookup.fill(amount, at, at + weight);
    at += weight;
  }
  if (at !== NEUTRAL_TOTAL) throw new Error(`neutral weights add up to ${at}, not ${NEUTRAL_TOTAL}`);
  return lookup;
})();

const ALL_NUMBERS = Uint8Array.from(CARATS_NUMBERS);
const POOL_SIZE = ALL_NUMBERS.length;

// Scratch space, reused by every call (a worker runs one generate at a time).
const pool = new Uint8Array(POOL_SIZE);
const winners = new Uint8Array(WINNING_COUNT);
const slots = new Uint8Array(NUMBERS_COUNT);
const SLOTS_INIT = Uint8Array.from({ length: NUMBERS_COUNT }, (_, i) => i);
const matchedNumber = new Uint8Array(NUMBERS_COUNT);
const matchedAmount = new Int32Array(NUMBERS_COUNT);

/** Swap `a[i]` with a uniform element of `a[i..end)`: one step of a partial Fisher–Yates. */
function drawInto(a: Uint8Array, i: number, end: number, rng: Rng): number {
  const j = i + rng.below(end - i);
  const picked = a[j]!;
  a[j] = a[i]!;
  a[i] = picked;
  return picked;
}

export function generate(outcome: Outcome, seed: Uint8Array): CaratsScenario {
  if (outcome.stake !== CARATS_STAKE) {
    throw new Error(`500000-carats is sold at ${CARATS_STAKE} cents, not ${outcome.stake}`);
  }
  const prize = outcome.prize;
  const groups = prize === 0 ? undefined : CARATS_SPLITS.get(prize);
  if (prize !== 0 && groups === undefined) throw new Error(`500000-carats has no prize of ${prize} cents`);

  const rng = new Rng(seed, NONCE);

  // 1. The winning numbers: the first 6 of a partial shuffle of the 46.
  pool.set(ALL_NUMBERS);
  const winning: number[] = [];
  for (let i = 0; i < WINNING_COUNT; i++) winning.push(drawInto(pool, i, POOL_SIZE, rng));

  // 2. The matches: how many, which split of the prize, which winning numbers, where.
  let matchedMask = 0;
  if (groups !== undefined) {
    const group = groups[rng.below(groups.length)]!;
    const k = group.size;
    const offset = rng.below(group.count) * k;
    for (let w = 0; w < WINNING_COUNT; w++) winners[w] = pool[w]!;
    slots.set(SLOTS_INIT);
    for (let m = 0; m < k; m++) {
      const number = drawInto(winners, m, WINNING_COUNT, rng);
      const slot = drawInto(slots, m, NUMBERS_COUNT, rng);
      matchedMask |= 1 << slot;
      matchedNumber[slot] = number;
      // Slots come in uniform random order, so giving them the split in its stored order
      // spreads its amounts uniformly too.
      matchedAmount[slot] = group.parts[offset + m]!;
    }
  }

  // 3. The 24 numbers and their amounts, in display order. Unmatched numbers come from the 40
  //    non-winning ones (pool[6..46)), drawn as needed.
  const numbers: number[] = [];
  const amounts: Cents[] = [];
  let next = WINNING_COUNT;
  for (let i = 0; i < NUMBERS_COUNT; i++) {
    if ((matchedMask >>> i) & 1) {
      numbers.push(matchedNumber[i]!);
      amounts.push(matchedAmount[i]!);
    } else {
      numbers.push(drawInto(pool, next, POOL_SIZE, rng));
      next++;
      amounts.push(NEUTRAL_LOOKUP[rng.below(NEUTRAL_TOTAL)]!);
    }
  }
  return { winning, numbers, amounts };
}
