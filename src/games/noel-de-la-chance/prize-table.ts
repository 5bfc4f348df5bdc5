import type { PrizeTable } from '../types';

/** Tier counts of Le Noël de la chance (article 3): the same at every price. */
const COUNTS = [1, 1, 200, 11_000, 14_100, 99_000, 46_000] as const;
/** Prizes of the 0.50 € table in cents; the 1 € and 2 € tables are these times 2 and 4. */
const PRIZES_AT_50 = [250_000, 25_000, 5_000, 1_000, 250, 100, 50] as const;

function table(stake: 50 | 100 | 200): PrizeTable {
  const factor = stake / 50;
  return {
    game: 'noel-de-la-chance',
    stake,
    blockSize: 800_000,
    tiers: COUNTS.map((count, i) => ({ prize: PRIZES_AT_50[i]! * factor, count })),
  };
}

/** Règlement Le Noël de la chance, articles 3.1 to 3.3: one block of 800,000 units per price. */
export const NOEL_TABLES: readonly PrizeTable[] = [table(50), table(100), table(200)];
