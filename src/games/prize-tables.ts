import { CARATS_TABLE } from './500000-carats/prize-table';
import { MINE_D_OR_TABLES } from './mine-d-or/prize-table';
import { LAMPE_TABLE } from './mysteres-de-la-lampe/prize-table';
import { NOEL_TABLES } from './noel-de-la-chance/prize-table';
import { RAIN_DIAMONDS_TABLE } from './rain-diamonds/prize-table';
import type { Cents, GameId, PrizeTable } from './types';

/** The nine prize tables of the five games: one per (game, price). */
export const PRIZE_TABLES: readonly PrizeTable[] = [
  RAIN_DIAMONDS_TABLE,
  CARATS_TABLE,
  ...NOEL_TABLES,
  ...MINE_D_OR_TABLES,
  LAMPE_TABLE,
];

/** The table of `game` at `stake`, or undefined when the game is not sold at that price. */
export function findPrizeTable(game: string, stake: Cents): PrizeTable | undefined {
  return PRIZE_TABLES.find((t) => t.game === game && t.stake === stake);
}

export function stakesOf(game: GameId): Cents[] {
  return PRIZE_TABLES.filter((t) => t.game === game).map((t) => t.stake);
}

/** Prize of a tier id (0: losing unit). Throws on an id the table does not have. */
export function prizeOfTier(table: PrizeTable, tierId: number): Cents {
  if (tierId === 0) return 0;
  const tier = table.tiers[tierId - 1];
  if (!tier) throw new RangeError(`${table.game} at ${table.stake}: no tier ${tierId}`);
  return tier.prize;
}

export function winningUnits(table: PrizeTable): number {
  return table.tiers.reduce((n, t) => n + t.count, 0);
}

export function totalPaid(table: PrizeTable): Cents {
  return table.tiers.reduce((sum, t) => sum + t.prize * t.count, 0);
}
