import type { PrizeTable } from '../types';

/** Règlement RAIN DIAMONDS, article 3: one block of 1,500,000 units at 0.50 €. */
export const RAIN_DIAMONDS_TABLE: PrizeTable = {
  game: 'rain-diamonds',
  stake: 50,
  blockSize: 1_500_000,
  tiers: [
    { prize: 500_000, count: 1 },
    { prize: 50_000, count: 10 },
    { prize: 2_000, count: 500 },
    { prize: 1_000, count: 5_500 },
    { prize: 500, count: 38_800 },
    { prize: 100, count: 119_000 },
    { prize: 50, count: 251_500 },
  ],
};
