import type { Application } from 'express';
import { gameCatalog } from '../games/catalog';
import { paceOf, type PaceSettings } from '../play/pacing';

/**
 * `GET /games`: the game catalog (src/games/catalog.ts), public and the same for everyone, so
 * encoded once and cacheable by any proxy for a while: it does not change while running. Each
 * game carries its pace, the server's settings.
 */
export function mountCatalogRoutes(app: Application, pace: PaceSettings): void {
  const body = JSON.stringify(gameCatalog((game) => paceOf(pace, game)));
  app.get('/games', (_req, res) => {
    res.set('cache-control', 'public, max-age=60').type('application/json').send(body);
  });
}
