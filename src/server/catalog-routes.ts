import type { Application } from 'express';
import { gameCatalog } from '../games/catalog';

/**
 * `GET /games`: the game catalog (src/games/catalog.ts), public and the same for everyone, so
 * encoded once and cacheable by any proxy for a while: it does not change while running.
 */
export function mountCatalogRoutes(app: Application): void {
  const body = JSON.stringify(gameCatalog());
  app.get('/games', (_req, res) => {
    res.set('cache-control', 'public, max-age=60').type('application/json').send(body);
  });
}
