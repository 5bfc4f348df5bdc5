import { matchMaker } from '@colyseus/core';
import type { Application } from 'express';
import { maskPseudonym } from '../feed/win-feed';
import type { OpenTable } from '../protocol/http';
import type { TableMetadata } from '../rooms/watchers';
import type { Services } from './services';
import { asyncRoute, sendRefusal } from './edge';

const TABLES_CACHE_MS = 500;

/**
 * Routes for spectators, no account needed: the tables open to watchers (from the matchmaker's
 * listing, so every process's tables, through the Redis driver; each player's pseudonym masked
 * as in the win feed) and the prizes left per open block.
 */
export function mountSpectatorRoutes(app: Application, services: Services): void {
  // A failure goes to the edge's one error handler (logged there, answered without details).

  // The driver reads every room's listing to answer a query: one query a second at most.
  let cached: { at: number; tables: Promise<OpenTable[]> } | undefined;
  const openTables = (): Promise<OpenTable[]> => {
    if (cached && Date.now() - cached.at < TABLES_CACHE_MS) return cached.tables;
    const tables = matchMaker.query({ name: 'table', watchable: true } as never).then((rooms) => rooms.map((room) => {
      const metadata = room.metadata as TableMetadata;
      // A public list: the pseudonym masked as the win feed shows it, never whole.
      return { roomId: room.roomId, game: metadata.game, pseudonym: maskPseudonym(metadata.pseudonym), watchers: metadata.watchers };
    }));
    cached = { at: Date.now(), tables };
    tables.catch(() => (cached = undefined));
    return tables;
  };

  app.get('/tables', asyncRoute(async (_req, res) => {
    res.json(await openTables());
  }));

  app.get('/prizes-left', asyncRoute(async (_req, res) => {
    if (!services.config.prizesLeft) return sendRefusal(res, 404, 'prizes_left/off', 'the prizes-left count is off on this server');
    res.json(await services.feed.prizesLeft());
  }));
}
