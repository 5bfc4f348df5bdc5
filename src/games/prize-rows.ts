import type { Cents, GameId, PrizeTable } from './types';

/** One row of a règlement's prize table: `[prize in cents, how many units of the block win it]`. */
export type PrizeRow = readonly [prize: Cents, count: number];

/** A block's table from its rows, as the règlement prints them, the largest prize first. */
export function prizeTable(game: GameId, stake: Cents, blockSize: number, rows: readonly PrizeRow[]): PrizeTable {
  return { game, stake, blockSize, tiers: rows.map(([prize, count]) => ({ prize, count })) };
}

/**
 * The tables of a game sold at several prices with the same counts at each: `rowsAt50` is the
 * 0.50 € table, and a price's prizes are those times its multiple of 0.50 €.
 */
export function scaledPrizeTables(game: GameId, stakes: readonly Cents[], blockSize: number, rowsAt50: readonly PrizeRow[]): readonly PrizeTable[] {
  return stakes.map((stake) => {
    const factor = stake / 50;
    return prizeTable(game, stake, blockSize, rowsAt50.map(([prize, count]) => [prize * factor, count]));
  });
}
