import { prizeTable } from '../prize-rows';

/** Règlement RAIN DIAMONDS, article 3: one block of 1,500,000 units at 0.50 €; rows `[prize in cents, count]`. */
export const RAIN_DIAMONDS_TABLE = prizeTable('rain-diamonds', 50, 1_500_000, [
  [500_000, 1],
  [50_000, 10],
  [2_000, 500],
  [1_000, 5_500],
  [500, 38_800],
  [100, 119_000],
  [50, 251_500],
]);
