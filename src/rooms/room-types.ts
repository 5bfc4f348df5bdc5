import { matchMaker, type AuthContext } from '@colyseus/core';
import type { Player } from '../auth/tokens';
import { GAME_IDS } from '../protocol/game-ids';
import { FeedRoom, type FeedServices } from './feed-room';
import { joinRefused } from './refusals';
import type { Seats } from './seats';
import { authenticate } from './table-messages';
import { TABLE_CALL_MS } from './sweeper';
import { TableRoom, type TableServices } from './table-room';
import { WatchRoom, type WatchServices } from './watch-room';

// The room types a server defines, each given its services here, once: no room looks anything up.

/** The table room type with its services, for `server.define('table', …)`. */
export function tableRoomType(services: TableServices) {
  return class extends TableRoom {
    // Static: Colyseus checks the token at matchmaking, before any room is made for it, and
    // before a seat is reserved in one.
    static override async onAuth(token: string, options: { token?: unknown } | undefined, context?: AuthContext): Promise<Player> {
      const player = await authenticate(services.verifier, token, options);
      const tableId = tableJoinedById(context);
      if (tableId !== undefined) await refuseAStranger(services.seats, tableId, player.playerId);
      return player;
    }

    protected override readonly services = services;
  };
}

/** The feed room type with its services, for `server.define('feed', …)`. */
export function feedRoomType(services: FeedServices) {
  return class extends FeedRoom {
    protected override readonly services = services;
  };
}


/** The watch room type (a relay of one table on this process) with its services, for `server.define('watch', …)`. */
export function watchRoomType(services: WatchServices) {
  return class extends WatchRoom {
    protected override readonly services = services;
  };
}

/**
 * The table a matchmaking request joins by id (`POST /matchmake/joinById/<roomId>`), from its
 * path as Colyseus's router reads it (not decoded); undefined for any other request.
 */
function tableJoinedById(context: AuthContext | undefined): string | undefined {
  const url: unknown = context?.req?.url;
  if (typeof url !== 'string') return undefined;
  const prefix = `/${matchMaker.controller.matchmakeRoute}/joinById/`;
  const path = new URL(url, 'http://server').pathname;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}

/**
 * A table's second seat is for its player's next connection: a reservation of it by anyone else
 * would keep the player out of their own table (a rejoin after a drop, a second tab) while it
 * lasts, so it is refused at matchmaking, before any seat is reserved; the room refuses a
 * stranger again when a socket joins. The player's seat (`Seats`) says whose table it is;
 * whatever cannot be confirmed is refused.
 */
async function refuseAStranger(seats: Seats, tableId: string, playerId: string): Promise<void> {
  const table = await matchMaker.getRoomById(tableId);
  const game: unknown = table?.metadata?.game;
  if (typeof game !== 'string' || (await seats.find(playerId, game)) !== tableId) {
    throw joinRefused(403, 'table/not_yours', 'this table belongs to another player');
  }
}

/**
 * The operator ended the player's sessions: each of their tables, on whichever process, closes
 * its player's connection, told why (`TableRoom.endSession`). A table gone meanwhile has nobody to tell.
 */
export async function closeTablesOf(seats: Seats, playerId: string): Promise<void> {
  await Promise.all(GAME_IDS.map(async (game) => {
    const roomId = await seats.find(playerId, game);
    if (roomId === undefined) return;
    await matchMaker.remoteRoomCall<TableRoom>(roomId, 'endSession', [], TABLE_CALL_MS).catch(() => undefined);
  }));
}
