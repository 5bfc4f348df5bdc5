import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redisClusterTarget, redisUrlTarget, type RedisTarget } from '../../src/server/redis-client';
import type { RedisCluster } from '../../tools/redis-cluster';
import { RedisServer } from '../../tools/redis-server';
import { Fleet } from '../../tools/fleet';
import type { ChildServer } from '../../tools/server-process';
import { exited } from '../../tools/child-processes';
import type { NegativeControl } from './options';

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * What a chaos run starts and breaks: a fleet (tools/fleet.ts) of one `redis-server`
 * (append-only, fsync always, so every acknowledged write survives its SIGKILL), or with
 * `--redis-cluster` a Redis Cluster of 3 masters + 3 replicas (append-only too; the servers
 * WAIT for a replica), and N game server processes on it (the built server, as `npm start`
 * runs it), each on its own loopback port. On the cluster the Redis faults hit one master:
 * SIGKILLed, then started again once its replica took over (it rejoins as a replica); or
 * SIGSTOPped longer than the node timeout, so that its replica takes over meanwhile. A server
 * process that exits without being told (none should: it is a fault effect) is started again
 * on its port by a watchdog, and counted.
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
    private readonly fleet: Fleet,
    private readonly log: (line: string) => void,
  ) {}

  /** The fleet: Redis (append-only), then the servers, with `env`; the watchdog on. */
  static async start(count: number, env: Record<string, string>, log: (line: string) => void, onCluster = false, negativeControl: NegativeControl | null = null): Promise<ChaosCluster> {
    const preload = negativeControl ? ['--import', join(HERE, 'negative-control', `${negativeControl}.mjs`)] : [];
    if (negativeControl) log(`negative control: every server runs with ${negativeControl} put back (the run must fail)`);
    const fleet = await Fleet.start({ processes: count, redis: { cluster: onCluster, appendOnly: true }, env, log, nodeArgs: () => preload });
    const cluster = new ChaosCluster(fleet, log);
    cluster.watchdog = setInterval(() => cluster.restartExited(), WATCH_EVERY_MS);
    cluster.watchdog.unref();
    return cluster;
  }

  get servers(): readonly ChildServer[] {
    return this.fleet.servers;
  }

  get endpoints(): string[] {
    return this.fleet.endpoints;
  }

  /** Where the servers' Redis is: the one Redis's URL, or the cluster's nodes. */
  get redisTarget(): RedisTarget {
    return this.redis instanceof RedisServer ? redisUrlTarget(this.redis.url, 'the chaos run\'s Redis') : redisClusterTarget(this.redis.nodes, 'the chaos run\'s Redis Cluster');
  }

  private get redis(): RedisServer | RedisCluster {
    return this.fleet.redis!;
  }

  /** The node a Redis fault hits: the one Redis, or the next master of the cluster. */
  private async target(): Promise<RedisServer> {
    if (this.redis instanceof RedisServer) return this.redis;
    const masters = await this.redis.masters();
    if (masters.length === 0) throw new Error('no master is up');
    return masters[this.nextMaster++ % masters.length]!;
  }

  /** SIGKILL of server `i` (or the next one alive); resolves with its index, or undefined if none is up. */
  killServer(i: number): number | undefined {
    for (let k = 0; k < this.servers.length; k++) {
      const j = (i + k) % this.servers.length;
      if (this.restarting.has(j) || !this.servers[j]!.alive) continue;
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
      await exited(old.process);
      for (let attempt = 1; ; attempt++) {
        try {
          await this.fleet.restart(i);
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
      if (this.servers[i]!.alive || this.restarting.has(i) || this.killed.has(i)) continue;
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
    if (node.freeze()) this.frozen = node;
    return this.redis instanceof RedisServer ? 'redis' : `master ${node.port}`;
  }

  thaw(): void {
    this.frozen?.thaw();
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
      if (this.servers.every((_, i) => this.servers[i]!.alive && !this.restarting.has(i))) return;
      for (let i = 0; i < this.servers.length; i++) if (this.killed.has(i) && !this.restarting.has(i)) void this.restartServer(i).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('the servers were not all up again within 180 s of the last fault');
  }

  async stop(): Promise<void> {
    if (this.watchdog) clearInterval(this.watchdog);
    this.thaw();
    await this.fleet.stop();
  }
}
