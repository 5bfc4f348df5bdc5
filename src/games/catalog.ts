import { caratsCatalog } from './500000-carats/catalog';
import { mineDOrCatalog } from './mine-d-or/catalog';
import { lampeCatalog } from './mysteres-de-la-lampe/catalog';
import { noelCatalog } from './noel-de-la-chance/catalog';
import { PRIZE_TABLES, totalPaid, winningUnits } from './prize-tables';
import { rainDiamondsCatalog } from './rain-diamonds/catalog';
import type { CatalogPrice, GameCatalogEntry, GameDescription, GamePace } from '../protocol/catalog';
import { GAME_IDS, type GameId } from './types';

/**
 * The game catalog: everything a client needs to draw and explain the five games, as plain
 * JSON-safe data (for `GET /games` and a table's join). Numbers come from the prize tables and
 * the games' constants; the words are the project's own, French first (as the règlements name
 * things), English second.
 */

const DESCRIPTIONS: Record<GameId, GameDescription> = {
  'rain-diamonds': rainDiamondsCatalog,
  '500000-carats': caratsCatalog,
  'noel-de-la-chance': noelCatalog,
  'mine-d-or': mineDOrCatalog,
  'mysteres-de-la-lampe': lampeCatalog,
};

function pricesOf(game: GameId): CatalogPrice[] {
  return PRIZE_TABLES.filter((t) => t.game === game).map((table) => ({
    stake: table.stake,
    blockSize: table.blockSize,
    tiers: table.tiers.map((tier, i) => ({ tierId: i + 1, prize: tier.prize, count: tier.count })),
    totalPayout: totalPaid(table),
    winningUnits: winningUnits(table),
  }));
}

/**
 * Every game, in the order of GAME_IDS, with its pace as the server's settings give it. A fresh
 * copy each call: callers may keep or change it.
 */
export function gameCatalog(paceOf: (game: GameId) => GamePace): GameCatalogEntry[] {
  return GAME_IDS.map((id) => structuredClone({ ...DESCRIPTIONS[id], prices: pricesOf(id), pace: paceOf(id) }));
}

/** The page draws this game's reveal under silver: a client says what the player uncovered (`uncovered`). */
export function coveredOnScreen(game: GameId): boolean {
  return DESCRIPTIONS[game].coveredOnScreen === true;
}
