import { RedisDriver } from '@colyseus/redis-driver';

/** The parts of @colyseus/redis-driver 0.18's `RedisDriver` that keep a room-list read. */
interface RoomListReads {
  getRooms(roomName?: string): Promise<unknown[]>;
  _concurrentRoomCacheRequest?: Promise<unknown>;
  _roomCacheRequestByName: Record<string, Promise<unknown[]> | undefined>;
}

/**
 * Colyseus's Redis driver, made to forget a room-list read that failed.
 *
 * The driver shares one pending read of the room listing between concurrent queries
 * (matchmaking, `joinOrCreate('feed')`, `GET /tables`) and drops it only when it succeeds: one read
 * that failed during a Redis outage was answered to every later query of that process, with the
 * outage's old error, until it restarted. Here a failed read is dropped, so the next query reads
 * Redis again.
 */
export function roomDriver(client: ConstructorParameters<typeof RedisDriver>[0]): RedisDriver {
  const driver = new RedisDriver(client);
  const reads = driver as unknown as RoomListReads;
  const getRooms = reads.getRooms.bind(driver);
  reads.getRooms = (roomName?: string) => {
    const request = getRooms(roomName);
    const shared = reads._concurrentRoomCacheRequest;
    request.catch(() => {
      // The driver keys its per-name reads by `roomName` itself (undefined included).
      const key = String(roomName);
      if (reads._roomCacheRequestByName[key] === request) delete reads._roomCacheRequestByName[key];
      if (reads._concurrentRoomCacheRequest === shared) reads._concurrentRoomCacheRequest = undefined;
    });
    return request;
  };
  return driver;
}
