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
import { gameCatalog } from '../games/catalog';
import { PRIZE_TABLES } from '../games/prize-tables';
import { PlayService } from '../play/play-service';
import { Seats } from '../rooms/seats';
import { Sweeper } from '../rooms/sweeper';
import { feedRoomType, tableRoomType } from '../rooms/room-types';
import { MemoryActionLog, type ActionLog } from '../units/action-log';
import { RedisActionLog } from '../units/redis-action-log';
import { finishExpress, guardHttpServer, prepareExpress } from './edge';
import { observed } from './observed';
import { mountReadiness, ReadinessProbe, redisWarnings } from './readiness';
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

/**
 * A Redis connection for the stores, presence or driver, with its failure policy chosen on
 * purpose: a command not answered within REDIS_COMMAND_TIMEOUT_MS fails (the client gets
 * `server/unavailable`, never a hang); a command caught by a dropped connection is retried once
 * after reconnecting, then fails; reconnection goes on forever, every 100 ms to 1 s, so play
 * resumes by itself when Redis is back.
 */
function connectRedis(config: Config, log: (line: string) => void, role: string): Redis {
  const redis = new Redis(config.redisUrl!, {
    commandTimeout: config.redisCommandTimeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  // An outage is reported once when it starts and once when it ends, not at every retry.
  let down = false;
  redis.on('error', (err: Error) => {
    if (!down) log(`redis (${role}) unreachable: ${err.message}`);
    down = true;
  });
  redis.on('ready', () => {
    if (down) log(`redis (${role}) back`);
    down = false;
  });
  return redis;
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
    redis = connectRedis(config, log, 'stores');
    dealer = new RedisStore(redis, { prefix: config.redisPrefix });
    actions = new RedisActionLog(redis, config.redisPrefix);
  } else {
    dealer = new MemoryStore();
    actions = new MemoryActionLog();
  }
  if (redis) for (const warning of await redisWarnings(redis)) log(`warning: ${warning}`);
  if (redis) {
    // Printing blocks at start is bulk work (megabytes per block, seconds of CPU): it goes
    // through a connection of its own, without the command timeout meant for play.
    const setupRedis = new Redis(config.redisUrl!);
    const setup = new RedisStore(setupRedis, { prefix: config.redisPrefix });
    try {
      await openMissingEmissions(setup, config.emissionBlocks, now());
    } finally {
      await setup.close();
      setupRedis.disconnect();
    }
  } else {
    await openMissingEmissions(dealer, config.emissionBlocks, now());
  }
  const readiness = new ReadinessProbe(redis);
  // One presence for Colyseus and the wins feed: across processes it is Redis pub/sub.
  const presence: Presence = config.redisUrl ? new RedisPresence(connectRedis(config, log, 'presence')) : new LocalPresence();
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

  // What Colyseus does with presence and driver, it does not always wait for: failures are
  // reported here (at most one line every 10 s), so that none goes unhandled.
  let lastReported = 0;
  const reportOutage = (method: string, err: unknown) => {
    if (now() - lastReported < 10_000) return;
    lastReported = now();
    log(`colyseus ${method}: ${(err as Error)?.message ?? String(err)}`);
  };
  const server = new Server({
    transport: new WebSocketTransport(),
    // Across processes, rooms and matchmaking go through Redis.
    // Colyseus shuts its presence down before the feed has published what the last rooms
    // showed: it gets a view whose shutdown waits for `stop()` below.
    presence: observed(Object.create(presence, { shutdown: { value: () => undefined, configurable: true } }) as Presence, reportOutage),
    ...(config.redisUrl ? { driver: observed(new RedisDriver(connectRedis(config, log, 'driver')), reportOutage) } : {}),
    ...(config.publicAddress ? { publicAddress: config.publicAddress } : {}),
    gracefullyShutdown: false,
    greet: false,
    express: (app) => {
      prepareExpress(app, config.trustProxy);
      mountReadiness(app, readiness);
      mountRoutes(app, services);
      finishExpress(app, (err) => log(`http: ${String(err)}`));
    },
  });
  const { maxMessagesPerSecond, watchersMax } = config;
  server.define('table', tableRoomType({ verifier, play, feed, seats, catalog: gameCatalog(), maxMessagesPerSecond, watchersMax }));
  server.define('feed', feedRoomType({
    feed,
    maxMessagesPerSecond,
    recent: config.feedRecent,
    batchMs: config.feedBatchMs,
    maxClients: config.feedRoomMaxClients,
    prizesLeft: config.prizesLeft,
  }));
  await server.listen(config.port, config.host);
  guardHttpServer(server.transport.server!, config);
  const address = (server.transport.server?.address() ?? null) as { port: number } | null;
  const port = address?.port ?? config.port;

  const sweeper = new Sweeper(play, feed, seats, config.abandonAfterMs, now);
  await sweeper.settleStranded();
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
        readiness.drain();
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
