import { scaledPrizeTables } from '../prize-rows';
import { STAKES } from './scenario';

/**
 * Règlement Le Noël de la chance, articles 3.1 to 3.3: one block of 800,000 units per price.
 * Rows of the 0.50 € table, `[prize in cents, count]`; the counts are the same at every price,
 * the prizes of the 1 € and 2 € tables are these times 2 and 4.
 */
export const NOEL_TABLES = scaledPrizeTables('noel-de-la-chance', STAKES, 800_000, [
  [250_000, 1],
  [25_000, 1],
  [5_000, 200],
  [1_000, 11_000],
  [250, 14_100],
  [100, 99_000],
  [50, 46_000],
]);
