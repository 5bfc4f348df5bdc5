import { LocalPresence, Server, type Presence } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Redis } from 'ioredis';
import { TokenVerifier } from '../auth/tokens';
import type { Config } from '../config';
import { MemoryStore } from '../dealer/memory-store';
import { RedisStore } from '../dealer/redis-store';
import type { DealerStore } from '../dealer/types';
import { WinFeed } from '../feed/win-feed';
import { PRIZE_TABLES } from '../games/prize-tables';
import { PlayService } from '../play/play-service';
import { Seats } from '../rooms/seats';
import { Sweeper } from '../rooms/sweeper';
import { feedRoomType, tableRoomType } from '../rooms/room-types';
import { MemoryActionLog, type ActionLog } from '../units/action-log';
import { RedisActionLog } from '../units/redis-action-log';
import { mountRoutes } from './routes';
import type { Services } from './services';

export interface RunningServer {
  readonly port: number;
  readonly services: Services;
  /** Graceful stop: rooms finish what is in flight, units in progress stay resumable. */
  stop(): Promise<void>;
}

/** Emission ids are stable per (game, price) so that every process finds the same one. */
export function emissionIdOf(game: string, stake: number): string {
  return `${game}-${stake}`;
}

async function openMissingEmissions(dealer: DealerStore, blockCount: number, now: number): Promise<void> {
  const open = new Set((await dealer.listEmissions()).map((e) => e.emissionId));
  for (const table of PRIZE_TABLES) {
    const emissionId = emissionIdOf(table.game, table.stake);
    if (!open.has(emissionId)) await dealer.openEmission({ emissionId, table, blockCount, now });
  }
}

/** Stores a test may give instead of those the configuration names. */
export interface StartOptions {
  readonly log?: (line: string) => void;
  readonly stores?: { readonly dealer: DealerStore; readonly actions: ActionLog };
}

/** Builds the stores, opens the emissions, and starts Colyseus with its rooms and HTTP routes. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? console.log;
  const now = () => Date.now();
  let dealer: DealerStore;
  let actions: ActionLog;
  let redis: Redis | undefined;
  if (options.stores) {
    ({ dealer, actions } = options.stores);
  } else if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 3 });
    dealer = new RedisStore(redis, { prefix: config.redisPrefix });
    actions = new RedisActionLog(redis, config.redisPrefix);
  } else {
    dealer = new MemoryStore();
    actions = new MemoryActionLog();
  }
  await openMissingEmissions(dealer, config.emissionBlocks, now());
  // One presence for Colyseus and the wins feed: across processes it is Redis pub/sub.
  const presence: Presence = config.redisUrl ? new RedisPresence(config.redisUrl) : new LocalPresence();
  const feed = new WinFeed(presence, dealer, {
    prefix: config.redisPrefix,
    recent: config.feedRecent,
    minPrize: config.feedMinPrize,
    pseudonymTtlSeconds: Math.ceil(config.abandonAfterMs / 1000) + 86_400,
    sharedPresence: config.redisUrl !== undefined,
    log,
  }, now);
  const play = new PlayService(dealer, actions, now);
  const verifier = await TokenVerifier.fromConfig(config);
  const services: Services = { config, verifier, dealer, actions, play, feed };
  const seats = new Seats(presence, config.redisPrefix);

  const server = new Server({
    transport: new WebSocketTransport(),
    // Across processes, rooms and matchmaking go through Redis (DESIGN §5).
    // Colyseus shuts its presence down before the feed has published what the last rooms
    // showed: it gets a view whose shutdown waits for `stop()` below.
    presence: Object.create(presence, { shutdown: { value: () => undefined } }) as Presence,
    ...(config.redisUrl ? { driver: new RedisDriver(config.redisUrl) } : {}),
    ...(config.publicAddress ? { publicAddress: config.publicAddress } : {}),
    gracefullyShutdown: false,
    greet: false,
    express: (app) => mountRoutes(app, services),
  });
  const { maxMessagesPerSecond, watchersMax } = config;
  server.define('table', tableRoomType({ verifier, play, feed, seats, maxMessagesPerSecond, watchersMax }));
  server.define('feed', feedRoomType({
    feed,
    maxMessagesPerSecond,
    recent: config.feedRecent,
    batchMs: config.feedBatchMs,
    maxClients: config.feedRoomMaxClients,
    prizesLeft: config.prizesLeft,
  }));
  await server.listen(config.port, config.host);
  const address = (server.transport.server?.address() ?? null) as { port: number } | null;
  const port = address?.port ?? config.port;

  const sweeper = new Sweeper(play, feed, seats, config.abandonAfterMs, now);
  const sweeping = setInterval(() => {
    sweeper.sweep().catch((err: unknown) => log(`sweeper: ${String(err)}`));
  }, config.sweepEveryMs);
  sweeping.unref();

  log(config.redisUrl
    ? `mode: Redis (${config.redisPrefix}) — dealing, wallets, history and rooms are shared and kept`
    : 'mode: embedded default — everything is in memory and NOTHING IS KEPT when this process stops');
  log(`instant games server listening on ws://${config.host}:${port}`);

  let stopping: Promise<void> | undefined;
  return {
    port,
    services,
    stop() {
      stopping ??= (async () => {
        clearInterval(sweeping);
        await server.gracefullyShutdown(false);
        await feed.close();
        presence.shutdown();
        await actions.close();
        await dealer.close();
        if (redis) redis.disconnect();
      })();
      return stopping;
    },
  };
}
