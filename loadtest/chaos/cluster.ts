import type { ChildProcess } from 'node:child_process';
import { RedisServer } from '../../tools/redis-server';
import { ChildServer, freePort } from '../processes';

/**
 * What a chaos run starts and breaks: one `redis-server` (append-only, fsync always, so every
 * acknowledged write survives its SIGKILL) and N game server processes on it, each on its own
 * loopback port. A server process that exits without being told (a Redis outage can make one
 * exit today) is started again on its port by a watchdog, and counted. Everything it started is
 * killed when the harness exits, however it exits (processes.ts, redis-server.ts).
 */

const WATCH_EVERY_MS = 250;

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
  private frozen = false;

  private constructor(
    readonly redis: RedisServer,
    readonly servers: ChildServer[],
    private readonly env: Readonly<Record<string, string>>,
    private readonly log: (line: string) => void,
  ) {}

  /** Redis, then the servers one after another (the first opens the emissions, the others find them). */
  static async start(count: number, env: (redisUrl: string) => Record<string, string>, log: (line: string) => void): Promise<ChaosCluster> {
    const redis = await RedisServer.start({ appendOnly: true });
    const cluster = new ChaosCluster(redis, [], env(redis.url), log);
    log(`redis-server (AOF, fsync always) on ${redis.url}`);
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
      script: 'src/server/main.ts',
      port,
      env: { ...this.env, PUBLIC_ADDRESS: `127.0.0.1:${port}` },
    });
  }

  private get redisProcess(): ChildProcess | undefined {
    // RedisServer keeps its child private; its pid is what SIGSTOP needs.
    return (this.redis as unknown as { process?: ChildProcess }).process;
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

  /** Starts server `i` again on its port once it is dead; resolves when it listens. */
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
          // It may exit while starting if Redis is down at that moment: try again, bounded.
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

  async killRedis(): Promise<void> {
    this.thaw();
    await this.redis.kill();
  }

  async restartRedis(): Promise<void> {
    await this.redis.restart();
  }

  freezeRedis(): void {
    if (this.redisProcess?.kill('SIGSTOP')) this.frozen = true;
  }

  thaw(): void {
    if (this.frozen) this.redisProcess?.kill('SIGCONT');
    this.frozen = false;
  }

  /** After the faults: Redis running and not frozen, every server up again. */
  async restore(): Promise<void> {
    this.thaw();
    if (!this.redisProcess || this.redisProcess.exitCode !== null || this.redisProcess.signalCode !== null) await this.restartRedis();
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
