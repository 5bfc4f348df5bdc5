import { nonceFor, Rng } from '../../src/random/rng';
import type { ArchiveWriterProcess } from '../../tools/archive-writer-process';
import type { SyntheticPlayer } from '../player';
import type { ChaosCluster } from './cluster';
import { countByKind, seedKey, type Fault, type FaultKind } from './plan';

/**
 * Carries out a fault plan against the cluster and the players: each fault starts at its
 * planned moment and ends with what it broke restored (a killed process started again, a
 * frozen Redis resumed, the archive writer's process started again). Redis takes one fault at a time (a Redis fault waits for the previous
 * one to be over); a server restarting does not hold up the next faults. A cut
 * drops the connections of some players at once (no close handshake); which ones is drawn
 * from the run's seed too. `stop()` ends the schedule early and waits for the fault in hand.
 */

export interface InjectedFault extends Fault {
  /** Milliseconds after the faults began, when it was injected. */
  readonly injectedAtMs: number;
  /** What it hit: a server's name, redis (or `master <port>` of the cluster), or the cut players' pseudonyms. */
  readonly hit: string;
  /** Until everything it broke was back (restart included). */
  readonly tookMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class FaultInjector {
  readonly injected: InjectedFault[] = [];
  private stopped = false;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly plan: readonly Fault[],
    private readonly cluster: ChaosCluster,
    private readonly players: () => readonly SyntheticPlayer[],
    seed: number,
    private readonly log: (line: string) => void,
    /** The archive writer's process (`npm run archive -- run`), killed and started again like the servers. */
    private readonly writer: Pick<ArchiveWriterProcess, 'kill' | 'restart'>,
  ) {
    this.cutRng = new Rng(seedKey(seed), nonceFor('chaos-cuts'));
  }

  private readonly cutRng: Rng;

  start(): void {
    const began = performance.now();
    this.running = (async () => {
      for (const fault of this.plan) {
        const wait = began + fault.atMs - performance.now();
        if (wait > 0) await this.pause(wait);
        if (this.stopped) return;
        // Redis takes one fault at a time; a server's restart goes on while the next faults come.
        if (fault.kind === 'kill-redis' || fault.kind === 'freeze-redis') await this.redisBusy;
        const at = performance.now();
        const recovery = this.inject(fault).then((hit) => {
          if (hit === undefined) return;
          const done = { ...fault, injectedAtMs: Math.round(at - began), hit, tookMs: Math.round(performance.now() - at) };
          this.injected.push(done);
          this.log(`fault at ${(done.injectedAtMs / 1000).toFixed(1)} s: ${fault.kind} ${hit} (back after ${done.tookMs} ms)`);
        }, (err: Error) => this.log(`fault ${fault.kind} failed: ${err.message}`));
        this.recoveries.add(recovery);
        void recovery.finally(() => this.recoveries.delete(recovery));
        if (fault.kind === 'kill-redis' || fault.kind === 'freeze-redis') this.redisBusy = recovery;
        // A process killed is gone at once; let it be seen gone before the next fault.
        await Promise.race([recovery, sleep(100)]);
      }
    })();
  }

  private redisBusy: Promise<void> = Promise.resolve();
  private readonly recoveries = new Set<Promise<void>>();

  /** Sleeps, but wakes at once when stopped. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async inject(fault: Fault): Promise<string | undefined> {
    const c = this.cluster;
    switch (fault.kind) {
      case 'kill-server': {
        const i = c.killServer(fault.target);
        if (i === undefined) return undefined;
        await sleep(fault.downMs);
        await c.restartServer(i);
        return c.servers[i]!.name;
      }
      case 'kill-redis': {
        const hit = await c.killRedis();
        await sleep(fault.downMs);
        await c.restartRedis();
        return hit;
      }
      case 'freeze-redis': {
        const hit = await c.freezeRedis();
        await sleep(fault.downMs);
        c.thaw();
        return hit;
      }
      case 'kill-writer': {
        await this.writer.kill();
        await sleep(fault.downMs);
        await this.writer.restart();
        return 'the archive writer';
      }
      case 'cut-clients': {
        const connected = this.players().filter((p) => p.room?.connection?.isOpen);
        if (connected.length === 0) return undefined;
        const cut = this.cutRng.sample(connected, Math.min(fault.target, connected.length)).filter((p) => p.cut());
        return cut.length > 0 ? cut.map((p) => p.pseudonym).join(' ') : undefined;
      }
    }
  }

  /** Ends the schedule; resolves once the faults in hand are over (their processes restarted). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    await Promise.all([...this.recoveries]);
    this.injected.sort((a, b) => a.injectedAtMs - b.injectedAtMs);
  }

  counts(): Record<FaultKind, number> {
    return countByKind(this.injected);
  }
}
