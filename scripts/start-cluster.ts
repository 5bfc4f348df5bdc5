/**
 * `npm run cluster -- --processes 3 [--base-port 2567] [--public-host 127.0.0.1] [--redis-cluster]`
 *
 * Starts N game-server processes on this machine sharing one Redis: each its own PORT and
 * PUBLIC_ADDRESS (`<public-host>:<port>`), all with RedisPresence + RedisDriver (what
 * src/server/app.ts wires when REDIS_URL is set), so that a client asking any process for a
 * room is sent to the process holding it, and the wins feed spans them all.
 *
 * With REDIS_URL (or REDIS_CLUSTER_NODES) set, that Redis is used, and the processes get this
 * environment as it is (JWT_SECRET or JWT_PUBLIC_KEY required, as for `npm start`). Without it,
 * a DEMO: the script starts its own `redis-server` in a temporary directory on a free port (with
 * `--redis-cluster`, a local Redis Cluster of 3 masters + 3 replicas: tools/redis-cluster.ts;
 * nothing kept after it stops), a random JWT_SECRET shared by the processes, and DEV_LOGIN=true.
 *
 * The first process starts alone (it opens the emissions: prints the blocks), then the others.
 * Ctrl-C (SIGINT) or SIGTERM stops them all gracefully, then the demo Redis.
 * Docs: docs/spectators.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RedisCluster } from '../tools/redis-cluster';
import { RedisServer } from '../tools/redis-server';
import { waitUntilReady } from '../tools/wait-until-ready';
import { builtServer } from './built-server';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = join(ROOT, 'src', 'server', 'main.ts');
const READY_TIMEOUT_MS = 60_000;

/** Processes still running: killed if this process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface ClusterOptions {
  /** One port per process. */
  readonly ports: readonly number[];
  /** Host in each PUBLIC_ADDRESS (what clients, and the load balancer, reach). */
  readonly publicHost?: string;
  /** Environment of every process (REDIS_URL, JWT_SECRET, …); PORT and PUBLIC_ADDRESS are set per process. */
  readonly env: Record<string, string | undefined>;
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
  /** SIGTERM to every process (graceful: rooms finish what is in flight), then waits for them. */
  stop(): Promise<void>;
}

function launch(index: number, port: number, publicAddress: string, options: ClusterOptions): ClusterProcess {
  const env = { ...process.env, ...options.env, PORT: String(port), PUBLIC_ADDRESS: publicAddress };
  // Node 22 from the project (node@22 on the PATH of `npm run`); TypeScript through tsx.
  const script = options.script ?? SOURCES;
  const args = script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const onLine = options.onLine ?? ((i: number, line: string) => console.log(`[p${i}] ${line}`));
  for (const stream of [child.stdout!, child.stderr!]) {
    let buffer = '';
    stream.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        onLine(index, buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    });
  }
  return { index, port, publicAddress, child };
}

function ready(p: ClusterProcess): Promise<void> {
  return waitUntilReady(`http://127.0.0.1:${p.port}/ready`, p.child, READY_TIMEOUT_MS).catch((err: Error) => {
    throw new Error(`process ${p.index} on port ${p.port}: ${err.message}`);
  });
}

/** Starts the processes: the first alone (it opens the emissions), then the rest together. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (!options.env['REDIS_URL'] && !options.env['REDIS_CLUSTER_NODES']) {
    throw new Error('a cluster needs REDIS_URL or REDIS_CLUSTER_NODES: the processes share nothing else');
  }
  const host = options.publicHost ?? '127.0.0.1';
  const processes: ClusterProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => new Promise<void>((resolve) => {
      if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
      p.child.once('exit', () => resolve());
      p.child.kill('SIGTERM');
    })));
  };
  try {
    const [firstPort, ...otherPorts] = options.ports;
    if (firstPort === undefined) throw new Error('at least one process');
    const first = launch(0, firstPort, `${host}:${firstPort}`, options);
    processes.push(first);
    await ready(first);
    const others = otherPorts.map((port, i) => launch(i + 1, port, `${host}:${port}`, options));
    processes.push(...others);
    await Promise.all(others.map(ready));
  } catch (err) {
    await stop();
    throw err;
  }
  return { processes, stop };
}

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const count = Number(argValue(args, '--processes') ?? '3');
  const basePort = Number(argValue(args, '--base-port') ?? '2567');
  const publicHost = argValue(args, '--public-host') ?? process.env['HOST'] ?? '127.0.0.1';
  if (!Number.isInteger(count) || count < 1 || count > 64) throw new Error('--processes must be 1–64');
  if (!Number.isInteger(basePort) || basePort < 1 || basePort + count > 65535) throw new Error('--base-port must be a port');

  const env: Record<string, string | undefined> = {};
  let demoRedis: { stop(): Promise<void> } | undefined;
  if (process.env['REDIS_URL'] || process.env['REDIS_CLUSTER_NODES']) {
    const which = process.env['REDIS_URL'] ? 'REDIS_URL' : 'REDIS_CLUSTER_NODES';
    env[which] = process.env[which];
    console.log(`cluster: ${count} processes on ${which}=${process.env[which]} (environment passed as it is)`);
  } else {
    if (args.includes('--redis-cluster')) {
      const redisCluster = await RedisCluster.start();
      demoRedis = redisCluster;
      env['REDIS_CLUSTER_NODES'] = redisCluster.nodes;
      console.log(`cluster: DEMO — started a local Redis Cluster of 3 masters + 3 replicas: REDIS_CLUSTER_NODES=${redisCluster.nodes}`);
    } else {
      const server = await RedisServer.start();
      demoRedis = server;
      env['REDIS_URL'] = server.url;
      console.log(`cluster: DEMO — REDIS_URL is not set, so this script started its own redis-server at ${server.url}`);
      console.log(`cluster: (temporary directory ${server.dir}, removed at stop)`);
    }
    env['JWT_SECRET'] = process.env['JWT_SECRET'] ?? randomBytes(32).toString('hex');
    env['DEV_LOGIN'] = process.env['DEV_LOGIN'] ?? 'true';
    console.log('cluster: NOTHING IS KEPT after it stops; DEV_LOGIN=true, random JWT_SECRET');
  }
  const ports = Array.from({ length: count }, (_, i) => basePort + i);
  let cluster: Cluster;
  try {
    cluster = await startCluster({ ports, publicHost, env, script: builtServer() });
  } catch (err) {
    await demoRedis?.stop();
    throw err;
  }
  for (const p of cluster.processes) console.log(`cluster: process ${p.index} http/ws://${p.publicAddress} (PUBLIC_ADDRESS=${p.publicAddress})`);
  console.log('cluster: any process answers matchmaking; a client is sent to the process holding its room. Ctrl-C stops them all.');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`cluster: ${signal}: stopping the processes`);
    await cluster.stop();
    await demoRedis?.stop();
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
