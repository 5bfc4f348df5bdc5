import type { Server as HttpServer } from 'node:http';
import type { Application } from 'express';
import { LocalPresence, Server, type Presence } from '@colyseus/core';
import { startArchiveWriter } from '../archive/in-process';
import { TokenVerifier } from '../auth/tokens';
import { usesRedis, type Config } from '../config';
import { MemoryStore } from '../dealer/memory/store';
import { RedisStore, type RedisStoreOptions } from '../dealer/redis/store';
import type { RedisClient } from '../redis-scripts/loader';
import type { ArchiveOutbox } from '../dealer/outbox';
import type { DealerStore, Emissions } from '../dealer/types';
import { TableStreams } from '../feed/table-stream';
import { WinFeed } from '../feed/win-feed';
import { gameCatalog } from '../games/catalog';
import { MemoryPacer, paceOf } from '../play/pacing';
import { RedisPacer } from '../play/redis-pacer';
import { PRIZE_TABLES } from '../games/prize-tables';
import { ProtectionService } from '../play/protection-service';
import { PlayService } from '../play/play-service';
import { outageAsRefusal } from '../rooms/refusals';
import { seamlessWallet } from './seamless-wallet';
import { StoreClock } from './store-clock';
import { Seats } from '../rooms/seats';
import { Sweeper } from '../rooms/sweeper';
import { feedRoomType, tableRoomType, watchRoomType } from '../rooms/room-types';
import { processForNewRoom } from '../rooms/watch-room';
import { MemoryActionLog, type ActionLog } from '../action-log/action-log';
import { RedisActionLog } from '../action-log/redis-action-log';
import { MemoryLaunchStore, type LaunchStore } from '../auth/launch-store';
import { RedisLaunchStore } from '../auth/redis-launch-store';
import { CheckpointLog } from './checkpoints';
import { finishExpress, guardHttpServer, prepareExpress, sendRefusal } from './edge';
import { archiveTrace } from './archive-trace';
import { TokenKeepingTransport } from './socket-tokens';
import { observed } from './observed';
import { colyseusLogger, createLogger, type Logger } from './logger';
import { listenMetrics, Metrics } from './metrics';
import { observedDealer } from './observed-dealer';
import { roomDriver } from './room-driver';
import { mountReadiness, ReadinessProbe, redisWarnings, untilRedisAnswers } from './readiness';
import { connectRedis, describeRedisTarget, PRESENCE_CONNECTION, redisClient, UnlimitedRedisPresence } from './redis-client';
import { isOperator } from './callers';
import { mountReportRoutes } from './report-routes';
import { mountRoutes } from './routes';
import type { Services } from './services';

export interface RunningServer {
  readonly port: number;
  readonly services: Services;
  readonly metrics: Metrics;
  /** Graceful stop: rooms finish what is in flight, units in progress stay resumable. */
  stop(): Promise<void>;
}

/** Emission ids are stable per (game, price) so that every process finds the same one. */
function emissionIdOf(game: string, stake: number): string {
  return `${game}-${stake}`;
}

async function openMissingEmissions(dealer: Emissions, blockCount: number, now: number): Promise<void> {
  const open = new Set((await dealer.listEmissions()).map((e) => e.emissionId));
  for (const table of PRIZE_TABLES) {
    const emissionId = emissionIdOf(table.game, table.stake);
    if (!open.has(emissionId)) await dealer.openEmission({ emissionId, table, blockCount, now });
  }
}

/**
 * The presence as Colyseus gets it. Colyseus shuts its presence down before the feed has
 * published what the last rooms showed: this view's shutdown waits for `stop()`.
 * Colyseus awaits `hincrbyex` only in its join-or-create lock, inside a
 * `new Promise(async …)` executor, where a rejection escapes as an unhandled rejection (and,
 * when taking the lock, leaves the join unanswered). Releasing the lock is sent with the
 * seat reservation and not awaited by it: when Redis drops that reply, the client already has
 * its seat. So a failure here is reported and answered as a first increment (no other join under
 * way); with the store gone, the listing's own reads refuse the join.
 */
function colyseusView(presence: Presence, report: (method: string, err: unknown) => void): Presence {
  const hincrbyex: Presence['hincrbyex'] = (key, field, value, expireInSeconds) =>
    presence.hincrbyex(key, field, value, expireInSeconds).catch((err: unknown) => {
      report('hincrbyex', err);
      return value;
    });
  return Object.create(presence, {
    shutdown: { value: () => undefined, configurable: true },
    hincrbyex: { value: hincrbyex, configurable: true },
  }) as Presence;
}

/**
 * A purchase still pending this long after its reservation is taken for abandoned (its process
 * died between steps) and driven to its end by the recovery: far longer than a purchase's
 * commands and WAITs can take.
 */
const PENDING_RECOVERY_AFTER_MS = 60_000;

/** The dealer's options from the configuration: per slot on a cluster, WAIT and lanes as configured. */
function storeOptions(config: Config): RedisStoreOptions {
  return {
    prefix: config.redisPrefix,
    protocol: config.redisClusterNodes ? 'per-slot' : 'one-script',
    waitReplicas: config.redisWaitReplicas,
    replicaTimeoutMs: config.redisWaitTimeoutMs,
    sequenceLanes: config.redisSequenceLanes,
    withdrawalThreshold: config.withdrawalThreshold,
    fundedByOperator: config.walletMode === 'seamless',
  };
}

/** What a test may give instead of what the configuration names. */
export interface StartOptions {
  /** Default: JSON lines on stdout at LOG_LEVEL. */
  readonly logger?: Logger;
  readonly stores?: { readonly dealer: DealerStore; readonly actions: ActionLog };
  /** Aborted: a start-up still waiting for Redis gives up (the process was told to stop). */
  readonly signal?: AbortSignal;
}

/** What every part of the start-up is given. */
interface Context {
  readonly config: Config;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

/** The stores the server deals and logs with: a test's, on Redis, or in memory. */
interface Stores {
  readonly store: DealerStore;
  readonly actions: ActionLog;
  /** On Redis: the stores' connection, waited for at start and closed at the end. */
  readonly redis?: RedisClient;
  readonly redisStore?: RedisStore;
  readonly memoryStore?: MemoryStore;
  /** The store's clock: every time the server stamps, and the law's, is read from it. */
  readonly clock: StoreClock;
  readonly launches: LaunchStore;
}

function openStores({ config, logger, metrics }: Context, options: StartOptions): Stores {
  if (options.stores) {
    const clock = StoreClock.of(undefined);
    return { store: options.stores.dealer, actions: options.stores.actions, clock, launches: new MemoryLaunchStore(clock.now) };
  }
  if (usesRedis(config)) {
    const redis = connectRedis(config, logger, metrics, 'stores');
    const redisStore = new RedisStore(redis, storeOptions(config));
    const launches = new RedisLaunchStore(redis, config.redisPrefix);
    return { store: redisStore, actions: new RedisActionLog(redis, config.redisPrefix), redis, redisStore, clock: StoreClock.of(redis), launches };
  }
  const memoryLog = new MemoryActionLog();
  const memoryStore = new MemoryStore({
    archive: config.archive.dir !== undefined,
    keepSettled: config.embeddedKeep,
    forgotten: (unitIds) => memoryLog.forget(unitIds),
    withdrawalThreshold: config.withdrawalThreshold,
    fundedByOperator: config.walletMode === 'seamless',
  });
  const clock = StoreClock.of(undefined);
  return { store: memoryStore, actions: memoryLog, memoryStore, clock, launches: new MemoryLaunchStore(clock.now) };
}

/** Opens the emissions missing at start; on Redis, once it answers (waiting as long as it takes, or until aborted). */
async function openEmissionsAtStart({ config, logger }: Context, { redis, clock }: Stores, dealer: DealerStore, signal: AbortSignal | undefined): Promise<void> {
  if (!redis) return openMissingEmissions(dealer.emissions, config.emissionBlocks, clock.now());
  const target = describeRedisTarget(config);
  try {
    await untilRedisAnswers(redis, (reason, waitedMs) => {
      logger.warn({ reason, waitedSeconds: Math.round(waitedMs / 1000) }, `waiting for ${target} before starting`);
    }, signal);
  } catch (err) {
    redis.disconnect();
    throw err;
  }
  for (const warning of await redisWarnings(redis)) logger.warn(warning);
  await clock.start();
  // Printing blocks at start is bulk work (megabytes per block, seconds of CPU): it goes
  // through a connection of its own, without the command timeout meant for play.
  const setupRedis = redisClient(config);
  const setup = new RedisStore(setupRedis, storeOptions(config));
  try {
    await openMissingEmissions(setup.emissions, config.emissionBlocks, clock.now());
  } finally {
    await setup.close();
    setupRedis.disconnect();
  }
}

/**
 * The regulator's archive: with ARCHIVE_DIR set, the tables' exchanges go to the outbox a writer
 * drains (docs/archive.md); the embedded server runs that writer itself, on Redis
 * `npm run archive -- run` does.
 */
async function startArchive({ config, logger, metrics }: Context, { memoryStore, redisStore }: Stores): Promise<{ outbox?: ArchiveOutbox; stop?: () => Promise<void> }> {
  const { dir: archiveDir } = config.archive;
  if (archiveDir === undefined) return {};
  const archiveOutbox = (memoryStore ?? redisStore)?.outbox;
  if (archiveOutbox) metrics.watchArchive(archiveOutbox);
  const stopArchive = memoryStore ? await startArchiveWriter({ ...config.archive, dir: archiveDir }, memoryStore.outbox, logger) : undefined;
  return { outbox: archiveOutbox, stop: stopArchive };
}

/**
 * One presence for Colyseus and the wins feed: across processes it is Redis pub/sub. Its
 * subscriber must keep reconnecting after a Redis restart (PRESENCE_CONNECTION says why).
 */
function openPresence({ config, logger, metrics }: Context): Presence {
  return usesRedis(config) ? new UnlimitedRedisPresence(connectRedis(config, logger, metrics, 'presence', PRESENCE_CONNECTION)) : new LocalPresence();
}

/** The wins feed, player protection, play, the pace, token checks, launches and the log of page roots, on the dealer. */
async function startServices({ config, logger, metrics }: Context, dealer: DealerStore, actions: ActionLog, presence: Presence, { clock: { now }, redis, launches }: Stores, archiveOutbox: ArchiveOutbox | undefined): Promise<Services> {
  const feed = new WinFeed(presence, dealer.emissions, {
    prefix: config.redisPrefix,
    recent: config.feedRecent,
    minPrize: config.feedMinPrize,
    pseudonymTtlSeconds: Math.ceil(config.abandonAfterMs / 1000) + 86_400,
    sharedPresence: usesRedis(config),
    log: (line: string) => logger.info(line),
  }, now);
  const protection = new ProtectionService(dealer.protections, config.protection, now);
  const seamless = config.walletMode === 'seamless' ? seamlessWallet(config, dealer, redis, protection, archiveOutbox, { logger, metrics, now }) : undefined;
  const play = new PlayService(dealer, actions, now, protection, config.fairnessOrigin, seamless?.money);
  const verifier = await TokenVerifier.fromConfig(config, now, launches);
  const { log: checkpoints, generated } = await CheckpointLog.start(dealer.log, config, now);
  if (generated) logger.warn({ keyId: checkpoints.keys.keyId }, 'no CHECKPOINT_SIGNING_KEY: checkpoints of the log of page roots are signed with a key made at start, gone when this process stops');
  const seats = new Seats(presence, config.redisPrefix);
  // On Redis the pace is shared: a player's tables on two processes are paced against each other.
  const pacer = redis ? new RedisPacer(redis, config.redisPrefix, config.pace, now) : new MemoryPacer(config.pace, now);
  return { config, verifier, dealer, actions, play, protection, feed, checkpoints, launches, seats, pacer, now, ...(seamless && { seamless }) };
}

/** The HTTP side, in order: the edge's checks, readiness, /metrics, the routes, the edge's answers to what is left. */
function mountHttp(app: Application, { config, logger, metrics }: Context, readiness: ReadinessProbe, services: Services): void {
  prepareExpress(app, config.trustProxy);
  app.use((_req, res, next) => {
    res.once('finish', () => metrics.httpResponses.inc({ class: `${Math.floor(res.statusCode / 100)}xx` }));
    next();
  });
  metrics.watchReadiness(readiness);
  metrics.watchStock(services.dealer.emissions);
  mountReadiness(app, readiness);
  // Without a port of its own, /metrics is for the operator token.
  if (config.metricsPort === undefined) {
    app.get('/metrics', (req, res, next) => {
      if (!isOperator(req, services)) return sendRefusal(res, 401, 'auth/operator_only', 'operator token required');
      metrics.registry.metrics().then((text) => res.type(metrics.registry.contentType).send(text), next);
    });
  }
  mountRoutes(app, services);
  mountReportRoutes(app, services, metrics.registry);
  finishExpress(app, (err) => logger.error({ err }, 'request failed'));
}

/** Colyseus with its presence and, across processes, its driver on Redis, and the HTTP side. */
function colyseusServer(ctx: Context, transport: TokenKeepingTransport, presence: Presence, readiness: ReadinessProbe, services: Services): Server {
  const { config, logger, metrics } = ctx;
  // What Colyseus does with presence and driver, it does not always wait for: failures are
  // reported here (at most one line every 10 s), so that none goes unhandled.
  let lastReported = 0;
  const reportOutage = (method: string, err: unknown) => {
    if (Date.now() - lastReported < 10_000) return;
    lastReported = Date.now();
    logger.warn({ method, err }, 'colyseus presence or driver failed');
  };
  return new Server({
    transport,
    // Across processes, rooms and matchmaking go through Redis.
    presence: observed(colyseusView(presence, reportOutage), reportOutage, outageAsRefusal),
    ...(usesRedis(config) ? { driver: observed(roomDriver(connectRedis(config, logger, metrics, 'driver')), reportOutage, outageAsRefusal) } : {}),
    ...(config.publicAddress ? { publicAddress: config.publicAddress } : {}),
    // A table's relays go to processes other than the table's when there are any.
    selectProcessIdToCreateRoom: processForNewRoom,
    gracefullyShutdown: false,
    greet: false,
    logger: colyseusLogger(logger),
    express: (app) => mountHttp(app, ctx, readiness, services),
  });
}

/** The tables, their watch rooms (a table's relays to its spectators) and the wins feed's rooms. */
function defineRooms(server: Server, transport: TokenKeepingTransport, { config, logger, metrics }: Context, services: Services, presence: Presence, seats: Seats, archiveOutbox: ArchiveOutbox | undefined): void {
  const { verifier, play, feed, pacer } = services;
  const { maxMessagesPerSecond, watchersMax } = config;
  const streams = new TableStreams(presence, config.redisPrefix);
  const catalog = gameCatalog((game) => paceOf(config.pace, game));
  const { now } = services;
  server.define('table', tableRoomType({
    verifier, play, feed, streams, seats, catalog, pacer, maxMessagesPerSecond, watchersMax,
    actionShown: (game, seconds) => metrics.actionToPatchSeconds.observe({ game }, seconds),
    log: logger,
    socketToken: (client) => transport.socketToken(client),
    ...(archiveOutbox && { trace: archiveTrace(archiveOutbox, now, (err) => logger.error({ err }, 'archive trace failed')) }),
  }));
  server.define('watch', watchRoomType({
    streams, catalog, maxMessagesPerSecond, watchersMax,
    maxClients: config.watchRoomMaxClients,
    maxUnsent: config.spectatorMaxUnsentBytes,
    coalesced: () => metrics.spectatorFramesCoalesced.inc({ room: 'watch' }),
    logError: (message, err) => logger.error({ err }, message),
  })).filterBy(['table']);
  server.define('feed', feedRoomType({
    feed,
    maxUnsent: config.spectatorMaxUnsentBytes,
    coalesced: () => metrics.spectatorFramesCoalesced.inc({ room: 'feed' }),
    logError: (message, err) => logger.error({ err }, message),
    maxMessagesPerSecond,
    recent: config.feedRecent,
    batchMs: config.feedBatchMs,
    maxClients: config.feedRoomMaxClients,
    prizesLeft: config.prizesLeft,
    winsSent: (wins) => {
      const sentAt = Date.now();
      for (const win of wins) metrics.feedDelaySeconds.observe(Math.max(0, sentAt - Date.parse(win.at)) / 1000);
    },
  }));
}

/** Listens on PORT (and METRICS_PORT when set); the port listened on, which PORT=0 leaves to the system. */
async function listen(server: Server, { config, metrics }: Context): Promise<{ port: number; metricsServer: HttpServer | undefined }> {
  // Colyseus listens for the HTTP server's errors only once it listens: a port in use would
  // leave its promise waiting forever.
  const http = server.transport.server!;
  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => reject(new Error(`cannot listen on ${config.host}:${config.port}: ${err.message}`, { cause: err }));
    http.once('error', failed);
    server.listen(config.port, config.host).then(() => {
      http.off('error', failed);
      resolve();
    }, reject);
  });
  guardHttpServer(server.transport.server!, config);
  const metricsServer: HttpServer | undefined = config.metricsPort === undefined ? undefined : await listenMetrics(metrics, config.metricsPort);
  const address = (server.transport.server?.address() ?? null) as { port: number } | null;
  return { port: address?.port ?? config.port, metricsServer };
}

/**
 * Settles the units a stopped process left, then sweeps every SWEEP_EVERY_SECONDS: abandoned
 * units finished, and on a cluster the purchases a dead process left between their steps.
 */
async function startSweeping({ config, logger }: Context, { play, feed, now }: Services, seats: Seats, redisStore: RedisStore | undefined): Promise<NodeJS.Timeout> {
  const sweeper = new Sweeper(play, feed, seats, config.abandonAfterMs, now);
  await sweeper.settleStranded();
  const sweeping = setInterval(() => {
    sweeper.sweep().catch((err: unknown) => logger.error({ err }, 'sweeper failed'));
    // On a cluster, purchases a dead process left between their steps (docs/dealer.md).
    redisStore?.recoverPurchases(now() - PENDING_RECOVERY_AFTER_MS).then(
      (driven) => driven > 0 && logger.warn({ driven }, 'pending purchases recovered'),
      (err: unknown) => logger.error({ err }, 'recovering pending purchases failed'),
    );
  }, config.sweepEveryMs);
  sweeping.unref();
  return sweeping;
}

/** What a running server stops, in the order it stops them. */
interface Running {
  readonly readiness: ReadinessProbe;
  readonly sweeping: NodeJS.Timeout;
  /** The seamless wallet's sender (WALLET_MODE=seamless). */
  readonly stopSending: (() => void) | undefined;
  readonly metricsServer: HttpServer | undefined;
  readonly server: Server;
  readonly presence: Presence;
  readonly services: Services;
  readonly stores: Stores;
  readonly stopArchive: (() => Promise<void>) | undefined;
}

/** Graceful stop, once however often asked: rooms finish what is in flight, then each part closes after those that use it. */
function stopOnce(running: Running): () => Promise<void> {
  const { readiness, sweeping, stopSending, metricsServer, server, presence, services, stores, stopArchive } = running;
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      readiness.drain();
      clearInterval(sweeping);
      stopSending?.();
      metricsServer?.close();
      await server.gracefullyShutdown(false);
      await services.feed.close();
      presence.shutdown();
      // A Redis write leaves at the end of its turn (writeOncePerTurn): let presence's last go out.
      await new Promise((resolve) => setImmediate(resolve));
      await services.actions.close();
      await services.dealer.close();
      await stopArchive?.();
      stores.clock.stop();
      if (stores.redis) stores.redis.disconnect();
    })();
    return stopping;
  };
}

/** Builds the stores, opens the emissions, and starts Colyseus with its rooms and HTTP routes. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = new Metrics();
  const ctx: Context = { config, logger, metrics };
  const stores = openStores(ctx, options);
  const { store, actions } = stores;
  const dealer: DealerStore = observedDealer(store, metrics, logger);
  await openEmissionsAtStart(ctx, stores, dealer, options.signal);
  const archive = await startArchive(ctx, stores);
  const readiness = new ReadinessProbe(stores.redis, `${config.redisPrefix}:ready`);
  const presence = openPresence(ctx);
  const services = await startServices(ctx, dealer, actions, presence, stores, archive.outbox);
  const { seats } = services;
  const transport = new TokenKeepingTransport();
  const server = colyseusServer(ctx, transport, presence, readiness, services);
  defineRooms(server, transport, ctx, services, presence, seats, archive.outbox);
  const { port, metricsServer } = await listen(server, ctx);
  const sweeping = await startSweeping(ctx, services, seats, stores.redisStore);
  const stopSending = services.seamless?.startSending();
  logger.info(usesRedis(config)
    ? `mode: Redis${config.redisClusterNodes ? ' Cluster' : ''} (${config.redisPrefix}) — dealing, wallets, history and rooms are shared and kept`
    : 'mode: embedded default — everything is in memory and NOTHING IS KEPT when this process stops');
  logger.info({ port, metricsPort: config.metricsPort }, `instant games server listening on ws://${config.host}:${port}`);
  readiness.started();
  const stop = stopOnce({ readiness, sweeping, stopSending, metricsServer, server, presence, services, stores, stopArchive: archive.stop });
  return { port, services, metrics, stop };
}
