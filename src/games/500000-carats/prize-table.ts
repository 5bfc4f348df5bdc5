import { prizeTable } from '../prize-rows';

/** Règlement 500 000 CARATS, article 3: one block of 8,016,000 units at 5 €; rows `[prize in cents, count]`. */
export const CARATS_TABLE = prizeTable('500000-carats', 500, 8_016_000, [
  [50_000_000, 2],
  [1_000_000, 2],
  [100_000, 1_000],
  [10_000, 80_160],
  [5_000, 40_000],
  [1_500, 200_000],
  [1_000, 1_030_000],
  [500, 704_300],
]);
