import type { PrizeTable } from '../types';

/** Tier counts of Mine d'or (article 3): the same at every price. */
const COUNTS = [1, 1, 1, 1, 11, 30, 20_000, 1_000, 1_100, 1_500, 75_000, 100_020] as const;
/** Prizes of the 0.50 € table in cents; the 1 € and 2 € tables are these times 2 and 4. */
const PRIZES_AT_50 = [
  750_000, 375_000, 20_000, 10_000, 4_000, 2_000, 1_000, 500, 400, 200, 100, 50,
] as const;

function table(stake: 50 | 100 | 200): PrizeTable {
  const factor = stake / 50;
  return {
    game: 'mine-d-or',
    stake,
    blockSize: 1_000_000,
    tiers: COUNTS.map((count, i) => ({ prize: PRIZES_AT_50[i]! * factor, count })),
  };
}

/** Règlement Mine d'or, articles 3.1 to 3.3: one block of 1,000,000 units per price. */
export const MINE_D_OR_TABLES: readonly PrizeTable[] = [table(50), table(100), table(200)];
