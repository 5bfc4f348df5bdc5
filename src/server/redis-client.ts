import type { Writable } from 'node:stream';
import { RedisPresence } from '@colyseus/redis-presence';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Config } from '../config';
import { parseClusterNodes } from '../env-settings';
import type { RedisClient } from '../redis-scripts/loader';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

/** The wait before reconnection attempt `attempt`: 100 ms more each time, at most 1 s, for ever (a long-running process resumes by itself when Redis is back). */
export function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 100, 1000);
}

/** Where Redis is: one server's URL, or a Redis Cluster's nodes (the server's settings). */
export type RedisTarget = Pick<Config, 'redisUrl' | 'redisClusterNodes'>;

/**
 * The one constructor of a client of the configured Redis (the server's and the operator
 * scripts'): `perNode` options on one Redis, or on each cluster node; `cluster` overrides the
 * cluster client's own options. On a cluster the slot map is read again every second, so a
 * replica promoted by a failover is found without waiting for a command to fail there.
 */
export function redisClient(target: RedisTarget, perNode: RedisOptions = {}, cluster: ClusterOptions = {}): RedisClient {
  if (!target.redisClusterNodes) return new Redis(target.redisUrl!, perNode);
  return new Cluster(target.redisClusterNodes.map((node) => ({ ...node })), {
    redisOptions: perNode,
    slotsRefreshInterval: 1000,
    clusterRetryStrategy: reconnectDelay,
    ...cluster,
  });
}

/**
 * The commands a client sends in one turn of the event loop leave in one write: each
 * connection's socket is corked at its first write of a turn and uncorked once the turn's I/O
 * callbacks have run (setImmediate). Each command is still sent, timed and answered on its own;
 * a process that exits in the turn of a write it did not wait for loses that write.
 * (ioredis's auto pipelining batches too, but holds a turn's commands while the pipeline before
 * it is in flight: on a stalled Redis a command would wait up to twice its timeout.) On loopback
 * a write also carries the packet into Redis: a write a command took a quarter of the server's
 * busy time (docs/lab/performance.md, "Sixth round").
 */
export function writeOncePerTurn(client: RedisClient): void {
  const corkEachConnection = (redis: Redis) => redis.on('connect', () => corkPerTurn(redis.stream));
  if (client instanceof Cluster) client.on('+node', corkEachConnection);
  else corkEachConnection(client);
}

function corkPerTurn(socket: Writable): void {
  const write = socket.write;
  let corked = false;
  socket.write = function (this: Writable, ...args: Parameters<Writable['write']>) {
    if (!corked) {
      corked = true;
      socket.cork();
      setImmediate(() => {
        corked = false;
        socket.uncork();
      });
    }
    return write.apply(this, args);
  } as Writable['write'];
}

/**
 * Options for the connection a RedisPresence is built on: its subscriber copies them and turns
 * the ready check off, and ioredis 5 then declares such a connection ready once its CLIENT
 * SETINFO handshake settles, even when Redis dropped it meanwhile (a restart): "ready" on a dead
 * socket, it never reconnects and every SUBSCRIBE times out in its offline queue
 * (redis/ioredis#2099, fixed in ioredis 6). Without the handshake it is ready in the turn it
 * connects, before any drop can be seen.
 */
export const PRESENCE_CONNECTION = { disableClientInfo: true } as const satisfies RedisOptions;

/**
 * Colyseus's Redis presence without Node's limit of 10 listeners a topic: every join waiting on a
 * room another join is creating (Colyseus's concurrent joinOrCreate) listens on one topic, as
 * many as are in flight, and 11 watchers joining one table at once drew a MaxListenersExceeded
 * warning for what is no leak (each listener goes when its join is answered).
 */
export class UnlimitedRedisPresence extends RedisPresence {
  constructor(...args: ConstructorParameters<typeof RedisPresence>) {
    super(...args);
    this.subscriptions.setMaxListeners(0);
  }
}

/** An operator script's Redis URL option (`name`, for the message): redis:// or rediss://. */
export function redisUrlTarget(url: string, name: string): RedisTarget {
  if (!/^rediss?:\/\/./.test(url)) throw new RangeError(`${name} must be a URL starting with redis:// or rediss://, got ${JSON.stringify(url)}`);
  return { redisUrl: url, redisClusterNodes: undefined };
}

/** An operator script's cluster option (`name`): `host:port,…`, parsed as REDIS_CLUSTER_NODES is. */
export function redisClusterTarget(nodes: string, name: string): RedisTarget {
  return { redisUrl: undefined, redisClusterNodes: parseClusterNodes(nodes, name) };
}

/** Redis (or the cluster) did not answer an operator script's connection. */
export class RedisUnreachableError extends Error {}

/** The target in words, without a URL's password. */
export function describeRedisTarget(target: RedisTarget): string {
  if (target.redisClusterNodes) return `the Redis Cluster at ${target.redisClusterNodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
  return `Redis at ${target.redisUrl!.replace(/\/\/[^@/]*@/, '//')}`;
}

/**
 * A client for a command-line tool: connected before it is returned, no reconnection, a
 * command tried once (a tool must fail with a sentence, not wait forever). Throws
 * RedisUnreachableError naming the target when it cannot connect.
 */
export async function connectOnce(target: RedisTarget, options: { readonly autoPipelining?: boolean } = {}): Promise<RedisClient> {
  const enableAutoPipelining = options.autoPipelining ?? false;
  const client = redisClient(
    target,
    { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null, enableAutoPipelining },
    { lazyConnect: true, clusterRetryStrategy: () => null, enableAutoPipelining },
  );
  let lastError: Error | undefined;
  client.on('error', (err: Error) => (lastError = err));
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    const failure = lastError ?? (err as Error);
    // A cluster client's failure carries the last node's reason (refused, not a cluster node…).
    const reason = (failure as { lastNodeError?: Error }).lastNodeError?.message;
    throw new RedisUnreachableError(`cannot reach ${describeRedisTarget(target)}: ${failure.message}${reason ? ` (${reason})` : ''}`);
  }
  return client;
}

/**
 * A Redis connection for the stores, presence or driver, with its failure policy chosen on
 * purpose: a command not answered within REDIS_COMMAND_TIMEOUT_MS fails (the client gets
 * `server/unavailable`, never a hang); a command caught by a dropped connection is retried once
 * after reconnecting, then fails; reconnection goes on forever, every 100 ms to 1 s, so play
 * resumes by itself when Redis is back. On a cluster (REDIS_CLUSTER_NODES) the same per node,
 * and the slot map is read again every second, so that a replica promoted by a failover is
 * found without waiting for a command to fail there.
 */
export function connectRedis(config: Config, logger: Logger, metrics: Metrics, role: string, options: RedisOptions = {}): RedisClient {
  const redis = redisClient(config, {
    commandTimeout: config.redisCommandTimeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy: reconnectDelay,
    ...options,
  });
  writeOncePerTurn(redis);
  metrics.watchRedis(redis);
  // An outage is reported once when it starts and once when it ends, not at every retry.
  let down = false;
  redis.on('error', (err: Error) => {
    if (!down) logger.warn({ role, err }, 'redis unreachable');
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info({ role }, 'redis back');
    down = false;
  });
  return redis;
}
