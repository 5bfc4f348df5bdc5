import { NOEL_TABLES } from '../../../src/games/noel-de-la-chance/prize-table';
import type { PrizeTable } from '../../../src/games/types';

/** Le Noël de la chance at 0.50 €: the table of the proofs. */
export const NOEL_50 = NOEL_TABLES[0]!;

/** A 10-unit block of Noël's shape (7 tiers): 6 winners, 4 losing, so boundaries come fast. */
export const TEN_UNIT_TABLE: PrizeTable = {
  ...NOEL_50,
  blockSize: 10,
  tiers: NOEL_50.tiers.map((tier, i) => ({ prize: tier.prize, count: [0, 0, 1, 1, 1, 2, 1][i]! })),
};

/** The table scaled down to `blockSize` units, every tier kept (at least one unit each). */
export function scaledTable(table: PrizeTable, blockSize: number): PrizeTable {
  const ratio = blockSize / table.blockSize;
  return { ...table, blockSize, tiers: table.tiers.map((t) => ({ prize: t.prize, count: Math.max(1, Math.round(t.count * ratio)) })) };
}
