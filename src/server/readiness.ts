import { setTimeout as sleep } from 'node:timers/promises';
import { matchMaker } from '@colyseus/core';
import type { Application } from 'express';
import { ReplyError } from 'ioredis';
import type { RedisClient } from '../dealer/scripts/commands';

/**
 * Readiness, apart from liveness (`/health`): a process is ready when it accepts rooms, is not
 * shutting down, and (in Redis mode) Redis answers. A load balancer stops sending it players
 * while `/ready` answers 503; `/health` stays 200 so that nothing restarts it for a Redis outage.
 */

export type Readiness = { readonly ready: true } | { readonly ready: false; readonly reason: string };

const PING_TIMEOUT_MS = 1000;

export class ReadinessProbe {
  private draining = false;

  constructor(private readonly redis: RedisClient | undefined) {}

  /** From the first moment of a shutdown on, the process is not ready. */
  drain(): void {
    this.draining = true;
  }

  async check(): Promise<Readiness> {
    if (this.draining) return { ready: false, reason: 'shutting down' };
    if (matchMaker.state !== matchMaker.MatchMakerState.READY) return { ready: false, reason: 'not accepting rooms' };
    if (!this.redis) return { ready: true };
    // A client that is reconnecting would queue the PING: its status says it at once.
    if (this.redis.status !== 'ready') return { ready: false, reason: `redis ${this.redis.status}` };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('redis did not answer in time'), PING_TIMEOUT_MS)));
    const ping = this.redis.ping().then(() => '', (err: unknown) => `redis: ${(err as Error).message}`);
    const failure = await Promise.race([ping, timeout]).finally(() => clearTimeout(timer));
    return failure ? { ready: false, reason: failure } : { ready: true };
  }
}

export function mountReadiness(app: Application, probe: ReadinessProbe): void {
  app.get('/ready', (_req, res) => {
    probe.check().then((readiness) => {
      if (readiness.ready) res.json({ ready: true });
      else res.status(503).json({ ready: false, reason: readiness.reason });
    }, () => res.status(503).json({ ready: false, reason: 'readiness check failed' }));
  });
}

/**
 * What an operator should fix in the Redis this server writes money to (as BullMQ warns): a
 * `maxmemory-policy` other than `noeviction` may evict wallets and sales; without AOF, a crash
 * loses acknowledged purchases. Read from INFO, which managed services keep (CONFIG they rename).
 */
export async function redisWarnings(redis: RedisClient): Promise<string[]> {
  const info = await redis.info();
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  const warnings: string[] = [];
  const policy = field('maxmemory_policy');
  if (policy !== undefined && policy !== 'noeviction') {
    warnings.push(`Redis maxmemory-policy is ${policy}: it must be noeviction, or Redis may evict wallets and sales under memory pressure`);
  }
  if (field('aof_enabled') !== '1') {
    warnings.push('Redis append-only file (AOF) is off: a Redis crash loses acknowledged purchases (set appendonly yes, appendfsync always or everysec)');
  }
  return warnings;
}

/** How often a process waiting for Redis at start-up says so. */
const WAITING_SAID_EVERY_MS = 10_000;

/**
 * Resolves once Redis answers a PING, so that a process started while Redis is down, frozen or
 * failing over waits for it instead of exiting; `waiting` is told at the first failure and then
 * every 10 s. What Redis itself answers with an error (a wrong password, say) is no outage: it
 * is thrown at once. Rejects when `signal` aborts (the process was told to stop meanwhile).
 */
export async function untilRedisAnswers(
  redis: RedisClient,
  waiting: (reason: string, waitedMs: number) => void,
  signal?: AbortSignal,
  retryMs = 500,
): Promise<void> {
  const started = Date.now();
  let saidAt: number | undefined;
  for (;;) {
    signal?.throwIfAborted();
    try {
      await redis.ping();
      return;
    } catch (err) {
      if (err instanceof ReplyError) throw err;
      const now = Date.now();
      if (saidAt === undefined || now - saidAt >= WAITING_SAID_EVERY_MS) {
        saidAt = now;
        waiting((err as Error).message, now - started);
      }
    }
    await sleep(retryMs, undefined, signal ? { signal } : {});
  }
}
