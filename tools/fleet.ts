import { builtServer } from './built-server';
import { newCheckpointSigningKey } from './checkpoint-key';
import { RedisCluster } from './redis-cluster';
import { freePort, RedisServer } from './redis-server';
import { ChildServer } from './server-process';

/**
 * The one way a fleet of game servers is started on this machine, by the load test, the chaos
 * run and `npm run cluster`: a private Redis if asked (one redis-server, or a Redis Cluster of
 * 3 masters + 3 replicas; append-only with fsync always for the chaos run, whose faults kill,
 * freeze and restart it), then N server processes on it, each on its own port with its own
 * PUBLIC_ADDRESS (and the list of them all, PUBLIC_ADDRESSES): the first alone (it opens the emissions: prints the blocks), then the others
 * together, each ready once its `/ready` answers. `stop()` stops what it started: the servers
 * (SIGTERM, then SIGKILL), then the private Redis; if the harness exits first, every process is
 * killed on the way out (child-processes.ts).
 */

export interface FleetOptions {
  /** Game server processes (more than one share a Redis: a private one, or one named in `env`). */
  readonly processes: number;
  /** A private Redis for the servers; none: the embedded default, or the Redis `env` names. */
  readonly redis?: { readonly cluster?: boolean; readonly appendOnly?: boolean };
  /** Environment of every server beside the private Redis's (PORT, HOST, PUBLIC_ADDRESS are set per server). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** One port per server; default: free ones. */
  readonly ports?: readonly number[];
  /** The host of each PUBLIC_ADDRESS (what clients, and a load balancer, reach). Default 127.0.0.1. */
  readonly publicHost?: string;
  /**
   * Server `index`'s PUBLIC_ADDRESS, when it is not `<publicHost>:<port>`: behind a proxy that
   * routes each process by a path prefix, `games.example.com/node-<index + 1>`.
   */
  readonly publicAddress?: (index: number, port: number) => string;
  /** The interface the servers listen on (HOST). Default 127.0.0.1. */
  readonly host?: string;
  /** The entry point from the project root; default the built server, what `npm start` runs. */
  readonly script?: string;
  /** Extra Node options of server `index` (an inspector's port). */
  readonly nodeArgs?: (index: number) => readonly string[];
  /** Each line server `index` writes. */
  readonly onLine?: (index: number, line: string) => void;
  /** What it started, a line each. */
  readonly log?: (line: string) => void;
}

export class Fleet {
  private stopped = false;
  /** Every server's PUBLIC_ADDRESS, given to each as PUBLIC_ADDRESSES (its page's CSP lets it reach them all). */
  private publicAddresses: string[] = [];

  private constructor(
    private readonly options: FleetOptions,
    /** The private Redis, if one was asked for. */
    readonly redis: RedisServer | RedisCluster | undefined,
    /** What the servers are given to reach the private Redis (REDIS_URL or REDIS_CLUSTER_NODES). */
    readonly redisEnv: Readonly<Record<string, string>>,
    /** Server `i` (replaced when it is started again). */
    readonly servers: ChildServer[],
    private readonly script: string,
  ) {}

  static async start(options: FleetOptions): Promise<Fleet> {
    const named = options.env['REDIS_URL'] || options.env['REDIS_CLUSTER_NODES'];
    if (options.processes > 1 && !options.redis && !named) throw new Error('server processes share nothing but Redis: more than one needs a Redis (a private one, REDIS_URL or REDIS_CLUSTER_NODES)');
    const script = options.script ?? builtServer();
    const redis = await Fleet.startRedis(options);
    const redisEnv: Record<string, string> = !redis ? {} : redis instanceof RedisCluster ? { REDIS_CLUSTER_NODES: redis.nodes } : { REDIS_URL: redis.url };
    // A private Redis keeps nothing after the fleet: its processes share a key made for it.
    if (redis && !options.env['CHECKPOINT_SIGNING_KEY']) redisEnv['CHECKPOINT_SIGNING_KEY'] = newCheckpointSigningKey();
    const fleet = new Fleet(options, redis, redisEnv, [], script);
    try {
      const ports = options.ports ?? (await Promise.all(Array.from({ length: options.processes }, () => freePort())));
      fleet.publicAddresses = ports.map((port, i) => fleet.publicAddress(i, port));
      fleet.servers.push(await fleet.launch(0, ports[0]!));
      const others = await Promise.allSettled(ports.slice(1).map((port, i) => fleet.launch(i + 1, port)));
      for (const o of others) if (o.status === 'fulfilled') fleet.servers.push(o.value);
      const failed = others.find((o) => o.status === 'rejected');
      if (failed) throw failed.reason;
    } catch (err) {
      await fleet.stop();
      throw err;
    }
    return fleet;
  }

  private static async startRedis(options: FleetOptions): Promise<RedisServer | RedisCluster | undefined> {
    if (!options.redis) return undefined;
    const appendOnly = options.redis.appendOnly ?? false;
    const aof = appendOnly ? ' (AOF, fsync always)' : '';
    if (options.redis.cluster) {
      const cluster = await RedisCluster.start({ appendOnly });
      options.log?.(`Redis Cluster (3 masters + 3 replicas)${aof} on ${cluster.nodes}`);
      return cluster;
    }
    const server = await RedisServer.start({ appendOnly });
    options.log?.(`redis-server${aof} on ${server.url}`);
    return server;
  }

  private publicAddress(index: number, port: number): string {
    return this.options.publicAddress?.(index, port) ?? `${this.options.publicHost ?? '127.0.0.1'}:${port}`;
  }

  /** The servers' addresses, in order. */
  get endpoints(): string[] {
    return this.servers.map((s) => s.url);
  }

  private async launch(index: number, port: number): Promise<ChildServer> {
    const { options } = this;
    const server = await ChildServer.start({
      name: `server-${index + 1}`,
      script: this.script,
      port,
      env: { ...options.env, ...this.redisEnv, PUBLIC_ADDRESS: this.publicAddress(index, port), PUBLIC_ADDRESSES: this.publicAddresses.join(',') },
      ...(options.host ? { host: options.host } : {}),
      ...(options.nodeArgs ? { nodeArgs: options.nodeArgs(index) } : {}),
      ...(options.onLine ? { onLine: (line: string) => options.onLine!(index, line) } : {}),
    });
    options.log?.(`${server.name} (pid ${server.pid}) on ${server.url}`);
    return server;
  }

  /** Starts server `i` again on its port, once it has exited; resolves when it is ready. */
  async restart(i: number): Promise<ChildServer> {
    const old = this.servers[i]!;
    await old.stop();
    this.servers[i] = await this.launch(i, old.port);
    return this.servers[i]!;
  }

  /** The servers (gracefully), then the private Redis. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all(this.servers.map((s) => s.stop()));
    await this.redis?.stop();
  }
}
