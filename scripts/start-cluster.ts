/**
 * `npm run cluster -- --processes 3 [--base-port 2567] [--public-host 127.0.0.1] [--redis-cluster]`
 *
 * Starts N game-server processes on this machine sharing one Redis (tools/fleet.ts): each its
 * own PORT and PUBLIC_ADDRESS (`<public-host>:<port>`), all with RedisPresence + RedisDriver
 * (what src/server/app.ts wires when REDIS_URL is set), so that a client asking any process for
 * a room is sent to the process holding it, and the wins feed spans them all.
 *
 * With REDIS_URL (or REDIS_CLUSTER_NODES) set, that Redis is used, and the processes get this
 * environment as it is (JWT_SECRET or JWT_PUBLIC_KEY, and CHECKPOINT_SIGNING_KEY, required, as for `npm start`). Without it,
 * a DEMO (a checkpoint signing key made for it): the fleet starts its own `redis-server` in a temporary directory on a free port (with
 * `--redis-cluster`, a local Redis Cluster of 3 masters + 3 replicas; nothing kept after it
 * stops), a random JWT_SECRET shared by the processes, and DEV_LOGIN=true.
 *
 * The first process starts alone (it opens the emissions: prints the blocks), then the others.
 * Ctrl-C (SIGINT) or SIGTERM stops them all gracefully, then the demo Redis.
 * Docs: docs/spectators.md.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { optionsOrExit, UsageError, whole, type CommandLine } from '../tools/command-line';
import { Fleet, type FleetOptions } from '../tools/fleet';
import { builtServer } from '../tools/built-server';

/** The server's sources through tsx: what the tests start. */
const SOURCES = 'src/server/main.ts';

export interface ClusterOptions {
  /** One port per process. */
  readonly ports: readonly number[];
  /** Host in each PUBLIC_ADDRESS (what clients, and the load balancer, reach). */
  readonly publicHost?: string;
  /** Environment of every process (REDIS_URL, JWT_SECRET, …); PORT and PUBLIC_ADDRESS are set per process. */
  readonly env: Record<string, string | undefined>;
  /** A private Redis for the demo (none: the one `env` names). */
  readonly redis?: FleetOptions['redis'];
  /**
   * The server's entry point from the project root: the sources through tsx unless given (the
   * tests); `npm run cluster` gives the built server, what `npm start` runs.
   */
  readonly script?: string;
  /** Each line a process writes, with its index (default: printed as `[p<i>] line`). */
  readonly onLine?: (index: number, line: string) => void;
}

export interface ClusterProcess {
  readonly index: number;
  readonly port: number;
  readonly publicAddress: string;
  readonly child: ChildProcess;
}

export interface Cluster {
  readonly processes: readonly ClusterProcess[];
  /** The fleet's private Redis, if it started one. */
  readonly redis: Fleet['redis'];
  /** SIGTERM to every process (graceful: rooms finish what is in flight), waits for them, then stops the private Redis. */
  stop(): Promise<void>;
}

/** Starts the processes on the fleet: the first alone (it opens the emissions), then the rest together. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const host = options.publicHost ?? '127.0.0.1';
  const fleet = await Fleet.start({
    processes: options.ports.length,
    ports: options.ports,
    publicHost: host,
    env: options.env,
    ...(options.redis ? { redis: options.redis } : {}),
    ...(process.env['HOST'] ? { host: process.env['HOST'] } : {}),
    script: options.script ?? SOURCES,
    onLine: options.onLine ?? ((i, line) => console.log(`[p${i}] ${line}`)),
  });
  const processes = fleet.servers.map((s, index) => ({ index, port: s.port, publicAddress: `${host}:${s.port}`, child: s.process }));
  return { processes, redis: fleet.redis, stop: () => fleet.stop() };
}

interface ScriptOptions {
  readonly processes: number;
  readonly basePort: number;
  readonly publicHost: string;
  readonly redisCluster: boolean;
}

const COMMAND_LINE: CommandLine<ScriptOptions> = {
  synopsis: 'npm run cluster -- [--processes 3] [--base-port 2567] [--public-host HOST] [--redis-cluster]',
  defaults: { processes: 3, basePort: 2567, publicHost: process.env['HOST'] ?? '127.0.0.1', redisCluster: false },
  flags: [
    { name: '--processes', value: 'N', help: 'server processes (default 3, at most 64)', set: (o, v) => (o.processes = whole(v, 1, 64)) },
    { name: '--base-port', value: 'P', help: 'process i listens on P + i (default 2567)', set: (o, v) => (o.basePort = whole(v, 1, 65_535)) },
    { name: '--public-host', value: 'HOST', help: 'host of each PUBLIC_ADDRESS (default $HOST or 127.0.0.1)', set: (o, v) => (o.publicHost = v) },
    { name: '--redis-cluster', help: 'demo only (no REDIS_URL): a local Redis Cluster of 3 masters + 3 replicas', set: (o) => (o.redisCluster = true) },
  ],
  finish: (o) => {
    if (o.basePort + o.processes - 1 > 65_535) throw new UsageError(`--base-port ${o.basePort} leaves no room for ${o.processes} ports`);
  },
};

/** The Redis the processes share: the one the environment names, or a demo one with what a demo needs. */
function redisOf(options: ScriptOptions): Pick<ClusterOptions, 'env' | 'redis'> {
  const which = process.env['REDIS_URL'] ? 'REDIS_URL' : process.env['REDIS_CLUSTER_NODES'] ? 'REDIS_CLUSTER_NODES' : undefined;
  if (which) {
    console.log(`cluster: ${options.processes} processes on ${which}=${process.env[which]} (environment passed as it is)`);
    return { env: { [which]: process.env[which] } };
  }
  console.log('cluster: NOTHING IS KEPT after it stops; DEV_LOGIN=true, random JWT_SECRET');
  return {
    env: { JWT_SECRET: process.env['JWT_SECRET'] ?? randomBytes(32).toString('hex'), DEV_LOGIN: process.env['DEV_LOGIN'] ?? 'true' },
    redis: { cluster: options.redisCluster },
  };
}

/** Where the demo's Redis is, said once it runs. */
function sayDemoRedis(redis: Cluster['redis']): void {
  if (!redis) return;
  if ('nodes' in redis) console.log(`cluster: DEMO — started a local Redis Cluster of 3 masters + 3 replicas: REDIS_CLUSTER_NODES=${redis.nodes}`);
  else console.log(`cluster: DEMO — REDIS_URL is not set, so this script started its own redis-server at ${redis.url} (temporary directory ${redis.dir}, removed at stop)`);
}

async function main(): Promise<void> {
  const options = optionsOrExit(COMMAND_LINE);
  const ports = Array.from({ length: options.processes }, (_, i) => options.basePort + i);
  const cluster = await startCluster({ ports, publicHost: options.publicHost, ...redisOf(options), script: builtServer() });
  sayDemoRedis(cluster.redis);
  for (const p of cluster.processes) console.log(`cluster: process ${p.index} http/ws://${p.publicAddress} (PUBLIC_ADDRESS=${p.publicAddress})`);
  console.log('cluster: any process answers matchmaking; a client is sent to the process holding its room. Ctrl-C stops them all.');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`cluster: ${signal}: stopping the processes`);
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  for (const p of cluster.processes) {
    p.child.once('exit', (code, signal) => {
      if (!stopping) console.log(`cluster: process ${p.index} exited (${code ?? signal}); the others keep running`);
    });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(`cluster: ${(err as Error).message}`);
    process.exit(1);
  });
}
