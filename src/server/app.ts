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
import { setWinFeed, WinFeed } from '../feed/win-feed';
import { PRIZE_TABLES } from '../games/prize-tables';
import { PlayService } from '../play/play-service';
import { FeedRoom } from '../rooms/feed-room';
import { TableRoom } from '../rooms/table-room';
import { MemoryActionLog, type ActionLog } from '../units/action-log';
import { RedisActionLog } from '../units/redis-action-log';
import { mountRoutes } from './routes';
import { setServices, type Services } from './services';

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

/** Builds the stores, opens the emissions, and starts Colyseus with its HTTP routes. */
export async function startServer(config: Config, log: (line: string) => void = console.log): Promise<RunningServer> {
  const now = () => Date.now();
  let dealer: DealerStore;
  let actions: ActionLog;
  let redis: Redis | undefined;
  if (config.redisUrl) {
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
  setWinFeed(feed);
  const play = new PlayService(dealer, actions, now, feed.revealEnded);
  const services: Services = { config, verifier: await TokenVerifier.fromConfig(config), dealer, actions, play };
  setServices(services);

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
  server.define('table', TableRoom);
  server.define('feed', FeedRoom);
  await server.listen(config.port, config.host);
  const address = (server.transport.server?.address() ?? null) as { port: number } | null;
  const port = address?.port ?? config.port;

  const sweeper = setInterval(() => {
    play.completeAbandoned(config.abandonAfterMs).catch((err: unknown) => log(`sweeper: ${String(err)}`));
  }, config.sweepEveryMs);
  sweeper.unref();

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
        clearInterval(sweeper);
        await server.gracefullyShutdown(false);
        await feed.close();
        setWinFeed(undefined);
        presence.shutdown();
        await actions.close();
        await dealer.close();
        if (redis) redis.disconnect();
        setServices(undefined);
      })();
      return stopping;
    },
  };
}
