import type { Application } from 'express';
import { PRIZE_TABLES, totalPaid, winningUnits } from '../games/prize-tables';
import { GAME_IDS } from '../games/types';

/** The games, their prices and prize tables, computed once: they do not change while running. */
function catalog() {
  return GAME_IDS.map((id) => ({
    id,
    prices: PRIZE_TABLES.filter((t) => t.game === id).map((table) => ({
      stake: table.stake,
      blockSize: table.blockSize,
      tiers: table.tiers.map((tier, i) => ({ tierId: i + 1, prize: tier.prize, count: tier.count })),
      totalPayout: totalPaid(table),
      winningUnits: winningUnits(table),
    })),
  }));
}

/** `GET /games`: public, the same for everyone, so cacheable by any proxy for a while. */
export function mountCatalogRoutes(app: Application): void {
  const body = JSON.stringify(catalog());
  app.get('/games', (_req, res) => {
    res.set('cache-control', 'public, max-age=60').type('application/json').send(body);
  });
}
