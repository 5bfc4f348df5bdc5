import type { ChildProcess } from 'node:child_process';
import { RedisCluster } from '../../tools/redis-cluster';
import { RedisServer } from '../../tools/redis-server';
import { builtServer } from '../../scripts/built-server';
import { ChildServer, freePort } from '../processes';

/**
 * What a chaos run starts and breaks: one `redis-server` (append-only, fsync always, so every
 * acknowledged write survives its SIGKILL), or with `--redis-cluster` a Redis Cluster of 3
 * masters + 3 replicas (append-only too; the servers WAIT for a replica), and N game server
 * processes on it (the built server, as `npm start` runs it), each on its own loopback port.
 * On the cluster the Redis faults hit one master: SIGKILLed, then started again once its replica
 * took over (it rejoins as a replica); or SIGSTOPped longer than the node timeout, so that its
 * replica takes over meanwhile. A server process that exits without being told (none should: it
 * is a fault effect) is started again on its port by a watchdog, and counted. Everything it
 * started is killed when the harness exits, however it exits (processes.ts, redis-server.ts).
 */

const WATCH_EVERY_MS = 250;
/** How long a killed master's replica has to take over before the master is started again. */
const FAILOVER_WAIT_MS = 10_000;

export interface ServerExit {
  readonly name: string;
  readonly how: string;
  /** The last lines the process wrote. */
  readonly tail: string;
}

export class ChaosCluster {
  /** Exits nobody asked for (not the run's own SIGKILLs), in order. */
  readonly unplannedExits: ServerExit[] = [];
  private readonly restarting = new Set<number>();
  private readonly killed = new Set<number>();
  private watchdog: NodeJS.Timeout | undefined;
  /** The node SIGSTOPped, if any (the only one on one Redis). */
  private frozen: RedisServer | undefined;
  /** Cluster: the master SIGKILLed last, started again by restartRedis. */
  private killedNode: RedisServer | undefined;
  /** Cluster: which master the next Redis fault hits (round robin over the masters then). */
  private nextMaster = 0;

  private constructor(
    readonly redis: RedisServer | RedisCluster,
    readonly servers: ChildServer[],
    private readonly env: Readonly<Record<string, string>>,
    private readonly log: (line: string) => void,
    /** The built server, what `npm start` runs. */
    private readonly script: string,
  ) {}

  /** Redis, then the servers one after another (the first opens the emissions, the others find them). */
  static async start(
    count: number,
    env: (redisEnv: Record<string, string>) => Record<string, string>,
    log: (line: string) => void,
    onCluster = false,
  ): Promise<ChaosCluster> {
    const script = builtServer();
    const redis = onCluster ? await RedisCluster.start({ appendOnly: true }) : await RedisServer.start({ appendOnly: true });
    const redisEnv: Record<string, string> = redis instanceof RedisCluster ? { REDIS_CLUSTER_NODES: redis.nodes } : { REDIS_URL: redis.url };
    const cluster = new ChaosCluster(redis, [], env(redisEnv), log, script);
    log(redis instanceof RedisCluster ? `Redis Cluster (3 + 3, AOF, fsync always) on ${redis.nodes}` : `redis-server (AOF, fsync always) on ${redis.url}`);
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      cluster.servers.push(await cluster.launch(i, port));
    }
    cluster.watchdog = setInterval(() => cluster.restartExited(), WATCH_EVERY_MS);
    cluster.watchdog.unref();
    return cluster;
  }

  get endpoints(): string[] {
    return this.servers.map((s) => s.url);
  }

  private launch(index: number, port: number): Promise<ChildServer> {
    return ChildServer.start({
      name: `server-${index + 1}`,
      script: this.script,
      port,
      env: { ...this.env, PUBLIC_ADDRESS: `127.0.0.1:${port}` },
    });
  }

  /** A node's process (RedisServer keeps its child private; its pid is what SIGSTOP needs). */
  private static processOf(node: RedisServer): ChildProcess | undefined {
    return (node as unknown as { process?: ChildProcess }).process;
  }

  /** The node a Redis fault hits: the one Redis, or the next master of the cluster. */
  private async target(): Promise<RedisServer> {
    if (this.redis instanceof RedisServer) return this.redis;
    const masters = await this.redis.masters();
    if (masters.length === 0) throw new Error('no master is up');
    return masters[this.nextMaster++ % masters.length]!;
  }

  private alive(i: number): boolean {
    const s = this.servers[i]!;
    return s.exited === undefined && s.process.exitCode === null && s.process.signalCode === null;
  }

  /** SIGKILL of server `i` (or the next one alive); resolves with its index, or undefined if none is up. */
  killServer(i: number): number | undefined {
    for (let k = 0; k < this.servers.length; k++) {
      const j = (i + k) % this.servers.length;
      if (this.restarting.has(j) || !this.alive(j)) continue;
      this.killed.add(j);
      this.servers[j]!.process.kill('SIGKILL');
      return j;
    }
    return undefined;
  }

  /** Starts server `i` again on its port once it is dead; resolves when it is ready (`/ready`). */
  async restartServer(i: number): Promise<void> {
    if (this.restarting.has(i)) return;
    this.restarting.add(i);
    try {
      const old = this.servers[i]!;
      if (old.process.exitCode === null && old.process.signalCode === null) {
        await new Promise<void>((resolve) => old.process.once('exit', () => resolve()));
      }
      for (let attempt = 1; ; attempt++) {
        try {
          this.servers[i] = await this.launch(i, old.port);
          this.killed.delete(i);
          return;
        } catch (err) {
          // It waits for a Redis that is down, but may still exit when Redis goes away in the
          // middle of its start-up: try again, bounded.
          if (attempt >= 10) throw err;
          this.log(`${old.name} failed to restart (attempt ${attempt}): ${(err as Error).message.split('\n')[0]}`);
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    } finally {
      this.restarting.delete(i);
    }
  }

  private restartExited(): void {
    for (let i = 0; i < this.servers.length; i++) {
      if (this.alive(i) || this.restarting.has(i) || this.killed.has(i)) continue;
      const s = this.servers[i]!;
      const how = s.exited ? String(s.exited.code ?? s.exited.signal) : String(s.process.exitCode ?? s.process.signalCode);
      this.unplannedExits.push({ name: s.name, how, tail: s.output.slice(-1500) });
      this.log(`${s.name} exited by itself (${how}): restarting it`);
      this.restartServer(i).catch((err: Error) => this.log(`${s.name} could not be restarted: ${err.message}`));
    }
  }

  /** SIGKILL of the Redis (or a master of the cluster); resolves with what it hit. */
  async killRedis(): Promise<string> {
    this.thaw();
    const node = await this.target();
    await node.kill();
    if (this.redis instanceof RedisServer) return 'redis';
    this.killedNode = node;
    return `master ${node.port}`;
  }

  /** Starts it again; on the cluster, once the dead master's replica took over. */
  async restartRedis(): Promise<void> {
    if (this.redis instanceof RedisServer) return this.redis.restart();
    const node = this.killedNode;
    if (!node) return;
    // Its replica may not be able to take over (itself just promoted, its own replica not in
    // sync yet): then the master comes back from its AOF, as one Redis would.
    await this.redis.ready(false, FAILOVER_WAIT_MS).catch((err: Error) => this.log(`no failover of master ${node.port}: ${err.message}`));
    await node.restart();
    this.killedNode = undefined;
    await this.redis.ready();
  }

  /** SIGSTOP of the Redis (or a master of the cluster); resolves with what it hit. */
  async freezeRedis(): Promise<string> {
    const node = await this.target();
    if (ChaosCluster.processOf(node)?.kill('SIGSTOP')) this.frozen = node;
    return this.redis instanceof RedisServer ? 'redis' : `master ${node.port}`;
  }

  thaw(): void {
    if (this.frozen) ChaosCluster.processOf(this.frozen)?.kill('SIGCONT');
    this.frozen = undefined;
  }

  /** After the faults: Redis running and not frozen, every server up again. */
  async restore(): Promise<void> {
    this.thaw();
    if (this.redis instanceof RedisServer) {
      if (!this.redis.running) await this.restartRedis();
    } else {
      await this.restartRedis();
      await this.redis.ready();
    }
    const deadline = performance.now() + 180_000;
    while (performance.now() < deadline) {
      if (this.servers.every((_, i) => this.alive(i) && !this.restarting.has(i))) return;
      for (let i = 0; i < this.servers.length; i++) if (this.killed.has(i) && !this.restarting.has(i)) void this.restartServer(i).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('the servers were not all up again within 180 s of the last fault');
  }

  async stop(): Promise<void> {
    if (this.watchdog) clearInterval(this.watchdog);
    this.thaw();
    await Promise.all(this.servers.map((s) => s.stop()));
    await this.redis.stop();
  }
}
