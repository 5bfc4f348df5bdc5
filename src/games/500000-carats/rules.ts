import type { Cents } from '../../money';
import { CARATS_TABLE } from './prize-table';

/**
 * Constants of the règlement 500 000 CARATS, shared by the generator, the evaluator and the
 * rules check (nothing here decides how a scenario is drawn).
 */

/** Article 2: one price, 5 €. */
export const CARATS_STAKE: Cents = CARATS_TABLE.stake;

/** Article 4.2: six diamonds in "Numéros gagnants", twenty-four stones in "Vos numéros". */
export const WINNING_COUNT = 6;
export const NUMBERS_COUNT = 24;

/** Article 4.3: 1 to 49 without 5, 10 and 15 (46 numbers). */
export const CARATS_NUMBERS: readonly number[] = Array.from({ length: 49 }, (_, i) => i + 1).filter(
  (n) => n !== 5 && n !== 10 && n !== 15,
);

/** `ALLOWED[n] === 1` when `n` may be printed (a lookup table: checked once per number per unit). */
export const ALLOWED_NUMBER: Uint8Array = (() => {
  const table = new Uint8Array(50);
  for (const n of CARATS_NUMBERS) table[n] = 1;
  return table;
})();

/**
 * The prizes of the table, smallest first. Settled in docs/games/500000-carats.md: the amount printed under a
 * number is always one of them (5, 10, 15, 50, 100, 1,000, 10,000 or 500,000 €).
 */
export const CARATS_AMOUNTS: readonly Cents[] = CARATS_TABLE.tiers.map((t) => t.prize).sort((a, b) => a - b);

/**
 * Checked 24 times per unit, so a perfect hash instead of a Set: the smallest modulus giving the
 * 8 amounts distinct residues, and the amount expected at each residue. Anything that is not a
 * table amount (a negative, fractional or non-number value included) misses its slot.
 */
const AMOUNT_MODULUS: number = (() => {
  for (let m = CARATS_AMOUNTS.length; ; m++) {
    if (new Set(CARATS_AMOUNTS.map((a) => a % m)).size === CARATS_AMOUNTS.length) return m;
  }
})();
const AMOUNT_AT: Float64Array = (() => {
  const slots = new Float64Array(AMOUNT_MODULUS).fill(-1);
  for (const a of CARATS_AMOUNTS) slots[a % AMOUNT_MODULUS] = a;
  return slots;
})();

export function isCaratsAmount(amount: Cents): boolean {
  const expected = AMOUNT_AT[amount % AMOUNT_MODULUS];
  return expected !== undefined && expected === amount;
}

/** 0 (losing) or a prize of the table. */
export function isCaratsPrize(prize: Cents): boolean {
  return prize === 0 || isCaratsAmount(prize);
}
