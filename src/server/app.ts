import { Server } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Redis } from 'ioredis';
import { TokenVerifier } from '../auth/tokens';
import type { Config } from '../config';
import { MemoryStore } from '../dealer/memory-store';
import { RedisStore } from '../dealer/redis-store';
import type { DealerStore } from '../dealer/types';
import { PRIZE_TABLES } from '../games/prize-tables';
import { PlayService } from '../play/play-service';
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
  const play = new PlayService(dealer, actions, now);
  const services: Services = { config, verifier: await TokenVerifier.fromConfig(config), dealer, actions, play };
  setServices(services);

  const server = new Server({
    transport: new WebSocketTransport(),
    // Across processes, rooms and matchmaking go through Redis (DESIGN §5).
    ...(config.redisUrl ? { presence: new RedisPresence(config.redisUrl), driver: new RedisDriver(config.redisUrl) } : {}),
    ...(config.publicAddress ? { publicAddress: config.publicAddress } : {}),
    gracefullyShutdown: false,
    greet: false,
    express: (app) => mountRoutes(app, services),
  });
  server.define('table', TableRoom);
  await server.listen(config.port, config.host);
  const address = (server.transport.server?.address() ?? null) as { port: number } | null;
  const port = address?.port ?? config.port;

  const sweeper = setInterval(() => {
    play.completeAbandoned(config.abandonAfterMs).catch((err: unknown) => log(`sweeper: ${String(err)}`));
  }, config.sweepEveryMs);
  sweeper.unref();

  log(`instant games server listening on ws://${config.host}:${port}`);
  log(config.redisUrl
    ? `mode: Redis (${config.redisPrefix}) — dealing, wallets, history and rooms are shared and kept`
    : 'mode: embedded default — everything is in memory and NOTHING IS KEPT when this process stops');

  let stopping: Promise<void> | undefined;
  return {
    port,
    services,
    stop() {
      stopping ??= (async () => {
        clearInterval(sweeper);
        await server.gracefullyShutdown(false);
        await actions.close();
        await dealer.close();
        if (redis) redis.disconnect();
        setServices(undefined);
      })();
      return stopping;
    },
  };
}
