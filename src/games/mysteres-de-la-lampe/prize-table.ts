import type { PrizeTable } from '../types';

/**
 * Règlement Les mystères de la lampe, article 3: one block of 900,000 units at 0.50 €. Both
 * kinds of unit ("Votre couleur", "Votre symbole") are dealt from the same block.
 */
export const LAMPE_TABLE: PrizeTable = {
  game: 'mysteres-de-la-lampe',
  stake: 50,
  blockSize: 900_000,
  tiers: [
    { prize: 1_000_000, count: 1 },
    { prize: 50_000, count: 1 },
    { prize: 5_000, count: 60 },
    { prize: 700, count: 13_800 },
    { prize: 200, count: 32_200 },
    { prize: 100, count: 100_000 },
    { prize: 50, count: 81_000 },
  ],
};
