import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { RedisServer } from './redis-server';

/**
 * A private Redis Cluster for a test or a benchmark: `masters` masters, each with one replica
 * (3 + 3 by default) or two (`replicas: 2`, 3 + 6), on free loopback ports, made a cluster by
 * `redis-cli --cluster create … --cluster-replicas N`. A master can be SIGKILLed (a replica
 * takes over within about twice the node timeout; with two, the other follows the promoted one)
 * and started again (it rejoins as a replica). Beside tools/redis-server.ts, whose servers it runs.
 */

export interface RedisClusterOptions {
  /** Masters. Default 3. */
  readonly masters?: number;
  /** Replicas of each master: 1 (default) or 2 (at least 3 masters). */
  readonly replicas?: 1 | 2;
  /** cluster-node-timeout: how long a silent master goes before its replica is promoted. Default 1000 ms. */
  readonly nodeTimeoutMs?: number;
  /** appendonly yes + appendfsync always on every node. Default off. */
  readonly appendOnly?: boolean;
}

const REDIS_CLI = process.env['REDIS_CLI'] ?? 'redis-cli';
const READY_TIMEOUT_MS = 30_000;
const run = promisify(execFile);
/** Probes of one node give up after this long (a node may be SIGSTOPped). */
const PROBE = { maxRetriesPerRequest: 0, connectTimeout: 1000, commandTimeout: 1000 } as const;

/** Free on loopback: the port and its cluster bus port (port + 10000). */
async function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function freeNodePort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = randomInt(20_000, 30_000);
    if (!taken.has(port) && (await isFree(port)) && (await isFree(port + 10_000))) return port;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class RedisCluster {
  private constructor(
    readonly servers: readonly RedisServer[],
    /** Masters it began with (as many shards). */
    readonly shards: number,
  ) {}

  static async start(options: RedisClusterOptions = {}): Promise<RedisCluster> {
    const masters = options.masters ?? 3;
    const replicas = options.replicas ?? 1;
    if (replicas > 1 && masters < 3) throw new Error('two replicas per master need 3 masters at least');
    const count = masters * (1 + replicas);
    const taken = new Set<number>();
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const port = await freeNodePort(taken);
      taken.add(port);
      ports.push(port);
    }
    const args = ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(options.nodeTimeoutMs ?? 1000)];
    const servers = await Promise.all(ports.map((port) => RedisServer.start({ appendOnly: options.appendOnly ?? false, args, port })));
    const cluster = new RedisCluster(servers, masters);
    try {
      if (masters >= 3) {
        await run(REDIS_CLI, ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', String(replicas), '--cluster-yes']);
      } else {
        await cluster.assemble(); // redis-cli wants 3 masters at least
      }
      await cluster.ready();
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /**
   * What `redis-cli --cluster create --cluster-replicas 1` does, for fewer than 3 masters: the
   * first half of the nodes share the slots, each node of the second half replicates one.
   */
  private async assemble(): Promise<void> {
    const nodes = this.servers.map((s) => new Redis(s.port, '127.0.0.1'));
    try {
      const masters = nodes.length / 2;
      const per = Math.ceil(16384 / masters);
      for (let m = 0; m < masters; m++) await nodes[m]!.cluster('ADDSLOTSRANGE', m * per, Math.min(16383, (m + 1) * per - 1));
      for (const node of nodes.slice(1)) await node.cluster('MEET', '127.0.0.1', this.servers[0]!.port);
      for (let m = 0; m < masters; m++) {
        const id = String(await nodes[m]!.cluster('MYID'));
        const replica = nodes[masters + m]!;
        // The replica must have heard of its master (MEET spreads by gossip) before it follows it.
        while (!String(await replica.cluster('NODES')).includes(id)) await sleep(100);
        await replica.cluster('REPLICATE', id);
      }
    } finally {
      for (const node of nodes) node.disconnect();
    }
  }

  /** `host:port,…` of every node: the form of REDIS_CLUSTER_NODES. */
  get nodes(): string {
    return this.servers.map((s) => `127.0.0.1:${s.port}`).join(',');
  }

  /** A cluster client (ioredis) on these nodes. */
  client(options: ConstructorParameters<typeof Cluster>[1] = {}): Cluster {
    return new Cluster(this.servers.map((s) => ({ host: '127.0.0.1', port: s.port })), options);
  }

  /**
   * Resolves once every running node sees the cluster ok, with as many masters as it began
   * with, each with a connected replica (so a write can be acknowledged by one) unless
   * `withReplicas` is false (after a failover, before the old master is back).
   */
  async ready(withReplicas = true, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let why = '';
    while (Date.now() < deadline) {
      why = await this.notReady(withReplicas);
      if (why === '') return;
      await sleep(100);
    }
    throw new Error(`the cluster is not ready after ${timeoutMs} ms: ${why}`);
  }

  private async notReady(withReplicas: boolean): Promise<string> {
    let masters = 0;
    for (const server of this.servers.filter((s) => s.running)) {
      const redis = new Redis(server.port, '127.0.0.1', { lazyConnect: true, ...PROBE });
      try {
        await redis.connect();
        const info = await redis.cluster('INFO');
        if (!/cluster_state:ok/.test(info)) return `node ${server.port}: ${/cluster_state:\w+/.exec(info)?.[0]}`;
        const replication = await redis.info('replication');
        if (/role:master/.test(replication)) {
          masters++;
          // WAIT without writes of its own counts the replicas that acknowledged their stream.
          if (withReplicas && !/connected_slaves:[1-9]/.test(replication)) return `master ${server.port} has no replica yet`;
          if (withReplicas && (await redis.wait(1, 200)) < 1) return `master ${server.port}: no replica acknowledges yet`;
        } else if (!/master_link_status:up/.test(replication)) {
          return `replica ${server.port} not in sync yet`;
        }
      } catch (err) {
        return `node ${server.port}: ${(err as Error).message}`;
      } finally {
        redis.disconnect();
      }
    }
    return masters === this.shards ? '' : `${masters} masters`;
  }

  /** The node that serves `key`'s slot now (a master). */
  async masterOf(key: string): Promise<RedisServer> {
    const any = new Redis(this.servers.find((s) => s.running)!.port, '127.0.0.1');
    try {
      const slot = Number(await any.cluster('KEYSLOT', key));
      const shard = (await any.cluster('SLOTS')).find(([from, to]) => slot >= from && slot <= to);
      const port = shard?.[2]?.[1];
      const server = this.servers.find((s) => s.port === port);
      if (!server) throw new Error(`no node serves slot ${slot}`);
      return server;
    } finally {
      any.disconnect();
    }
  }

  /** The running nodes that are masters now. */
  async masters(): Promise<RedisServer[]> {
    const masters: RedisServer[] = [];
    for (const server of this.servers.filter((s) => s.running)) {
      const redis = new Redis(server.port, '127.0.0.1', PROBE);
      try {
        if (/role:master/.test(await redis.info('replication'))) masters.push(server);
      } catch {
        // frozen or going down: not a master to count on
      } finally {
        redis.disconnect();
      }
    }
    return masters;
  }

  /** The running replica of `master` now (the first, with two). */
  async replicaOf(master: RedisServer): Promise<RedisServer> {
    const [replica] = await this.replicasOf(master);
    if (!replica) throw new Error(`no replica of ${master.port} runs`);
    return replica;
  }

  /** The running replicas of `master` now. */
  async replicasOf(master: RedisServer): Promise<RedisServer[]> {
    const replicas: RedisServer[] = [];
    for (const server of this.servers.filter((s) => s.running && s !== master)) {
      const redis = new Redis(server.port, '127.0.0.1', PROBE);
      try {
        if (new RegExp(`master_port:${master.port}\\b`).test(await redis.info('replication'))) replicas.push(server);
      } catch {
        // frozen or going down: no replica to count on
      } finally {
        redis.disconnect();
      }
    }
    return replicas;
  }

  /** Kills every node and removes their directories. */
  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop()));
  }
}
