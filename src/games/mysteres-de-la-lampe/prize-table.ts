import { prizeTable } from '../prize-rows';

/**
 * Règlement Les mystères de la lampe, article 3: one block of 900,000 units at 0.50 €; rows
 * `[prize in cents, count]`. Both kinds of unit ("Votre couleur", "Votre symbole") are dealt
 * from the same block.
 */
export const LAMPE_TABLE = prizeTable('mysteres-de-la-lampe', 50, 900_000, [
  [1_000_000, 1],
  [50_000, 1],
  [5_000, 60],
  [700, 13_800],
  [200, 32_200],
  [100, 100_000],
  [50, 81_000],
]);
