import type { Player } from '../auth/tokens';
import { FeedRoom, type FeedServices } from './feed-room';
import { authenticate } from './table-messages';
import { TableRoom, type TableServices } from './table-room';
import { WatchRoom, type WatchServices } from './watch-room';

// The room types a server defines, each given its services here, once: no room looks anything up.

/** The table room type with its services, for `server.define('table', …)`. */
export function tableRoomType(services: TableServices) {
  return class extends TableRoom {
    // Static: Colyseus checks the token at matchmaking, before any room is made for it.
    static override onAuth(token: string, options: { token?: unknown } | undefined): Promise<Player> {
      return authenticate(services.verifier, token, options);
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
