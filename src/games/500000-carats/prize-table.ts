import type { PrizeTable } from '../types';

/** Règlement 500 000 CARATS, article 3: one block of 8,016,000 units at 5 €. */
export const CARATS_TABLE: PrizeTable = {
  game: '500000-carats',
  stake: 500,
  blockSize: 8_016_000,
  tiers: [
    { prize: 50_000_000, count: 2 },
    { prize: 1_000_000, count: 2 },
    { prize: 100_000, count: 1_000 },
    { prize: 10_000, count: 80_160 },
    { prize: 5_000, count: 40_000 },
    { prize: 1_500, count: 200_000 },
    { prize: 1_000, count: 1_030_000 },
    { prize: 500, count: 704_300 },
  ],
};
