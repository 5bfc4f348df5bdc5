import { scaledPrizeTables } from '../prize-rows';
import { STAKES } from './scenario';

/**
 * Règlement Mine d'or, articles 3.1 to 3.3: one block of 1,000,000 units per price. Rows of the
 * 0.50 € table, `[prize in cents, count]`; the counts are the same at every price, the prizes of
 * the 1 € and 2 € tables are these times 2 and 4.
 */
export const MINE_D_OR_TABLES = scaledPrizeTables('mine-d-or', STAKES, 1_000_000, [
  [750_000, 1],
  [375_000, 1],
  [20_000, 1],
  [10_000, 1],
  [4_000, 11],
  [2_000, 30],
  [1_000, 20_000],
  [500, 1_000],
  [400, 1_100],
  [200, 1_500],
  [100, 75_000],
  [50, 100_020],
]);
