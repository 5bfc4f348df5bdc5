import type { DealerRunScript } from '../scripts/commands';
import type { RedisClient } from '../../redis-scripts/loader';
import type { DealerKeys } from './keys';

/** A write the replicas did not acknowledge in time: it may be lost if its master fails now. */
class ReplicaAckError extends Error {
  constructor(wanted: number, acknowledged: number, timeoutMs: number) {
    super(`NOREPLICAS ${acknowledged} of ${wanted} replicas acknowledged the write within ${timeoutMs} ms`);
    this.name = 'ReplicaAckError';
  }
}

/** What every part of the Redis store works with: the connection, its scripts, the key names. */
export class RedisContext {
  constructor(
    readonly redis: RedisClient,
    readonly run: DealerRunScript,
    readonly keys: DealerKeys,
    /** The idempotency window W, in ms. */
    readonly windowMs: number,
    private readonly waitReplicas: number,
    private readonly replicaTimeoutMs: number,
    /** Whether the store runs the per-slot protocol (one slot per script: a Redis Cluster). */
    readonly perSlot: boolean,
  ) {}

  /** The archive's money stream a player's deposit or withdrawal writes (keys.ts: `outbox`, `playerOutbox`). */
  moneyStream(playerId: string): string {
    return this.perSlot ? this.keys.playerOutbox(playerId) : this.keys.outbox('money');
  }

  /** The idempotency window of a time: ⌊now / W⌋. */
  window(now: number): number {
    return Math.floor(now / this.windowMs);
  }

  /** Time to live of the request ids of the window of `now`: to the end of the next window. */
  requestsTtl(now: number): number {
    return (this.window(now) + 2) * this.windowMs - now;
  }

  /**
   * Waits until `waitReplicas` replicas of the server holding `key` have this connection's
   * writes (WAIT on that server: a pipeline goes to the key's node); throws ReplicaAckError
   * when fewer did in time.
   */
  async replicated(key: string): Promise<void> {
    if (this.waitReplicas === 0) return;
    const replies = await this.redis.pipeline().exists(key).wait(this.waitReplicas, this.replicaTimeoutMs).exec();
    const [err, acknowledged] = replies?.[1] ?? [new Error('WAIT got no reply'), 0];
    if (err) throw err;
    if (Number(acknowledged) < this.waitReplicas) throw new ReplicaAckError(this.waitReplicas, Number(acknowledged), this.replicaTimeoutMs);
  }
}
