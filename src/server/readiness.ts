import { setTimeout as sleep } from 'node:timers/promises';
import { matchMaker } from '@colyseus/core';
import type { Application } from 'express';
import { ReplyError } from 'ioredis';
import type { RedisClient } from '../redis-scripts/loader';

/**
 * Readiness, apart from liveness (`/health`): a process is ready once its start-up is over, when
 * it accepts rooms, is not shutting down, (in Redis mode) Redis takes a write, and the room listing that
 * matchmaking, the feed and `GET /tables` read answers. A load balancer
 * stops sending it players while `/ready` answers 503; `/health` stays 200 so that nothing
 * restarts it for a Redis outage.
 */

export type Readiness = { readonly ready: true } | { readonly ready: false; readonly reason: string };

const PING_TIMEOUT_MS = 1000;

/** An error Redis answered (ioredis exports the class as a value only). */
type RedisReplyError = InstanceType<typeof ReplyError>;

/**
 * Redis refused this client's credentials or rights: a setting to fix, not an outage to wait
 * out. Other answers (`LOADING` while a restarted Redis reads its file, say) pass with time.
 */
function credentialsRefused(err: unknown): err is RedisReplyError {
  return err instanceof ReplyError && /^(NOAUTH|WRONGPASS|NOPERM)\b|invalid password|AUTH.* without any password/.test((err as RedisReplyError).message);
}

/**
 * Why Redis does not answer now: '' when it answers `command` (a PING unless given) within a
 * second; the connection's status or the command's failure in words; or Redis's refusal of
 * this client's credentials. Rejects with an AbortError as soon as `signal` aborts.
 */
async function redisFailure(redis: RedisClient, signal?: AbortSignal, command: () => Promise<unknown> = () => redis.ping()): Promise<string | RedisReplyError> {
  // A client that is not connected would queue the PING (a cluster's, with no timeout at all).
  if (redis.status !== 'ready') return `redis ${redis.status}`;
  // The race handles whatever the loser does later; the timer keeps no process alive.
  const timeout = sleep(PING_TIMEOUT_MS, 'redis did not answer in time', { ref: false, ...(signal ? { signal } : {}) });
  const answer = command().then(() => '', (err: unknown) => (credentialsRefused(err) ? err : `redis: ${(err as Error).message}`));
  return Promise.race([answer, timeout]);
}

/** How long the readiness key lives: it holds nothing anyone reads, it only has to be writable. */
const READY_KEY_TTL_MS = 60_000;

/**
 * The room listing (the matchmaker's driver) answers: a process whose listing fails cannot match a
 * player or a spectator to a room, whatever its Redis PING says.
 */
async function roomListing(): Promise<Readiness> {
  const timeout = sleep(PING_TIMEOUT_MS, 'the room listing did not answer in time', { ref: false });
  const query = matchMaker.query({ name: 'feed' }).then(() => '', (err: unknown) => `room listing: ${(err as Error).message}`);
  const failure = await Promise.race([query, timeout]);
  return failure === '' ? { ready: true } : { ready: false, reason: failure };
}

export class ReadinessProbe {
  private starting = true;
  private draining = false;

  /**
   * `readyKey`: the key each check writes (one small SET with an expiry): a Redis that answers a
   * PING but takes no write (`CLIENT PAUSE … WRITE`, a replica promoted late, a full disk under
   * `min-replicas`, a rights change) sells nothing, so the process is not ready. On a Redis
   * Cluster it probes the key's master.
   */
  constructor(
    private readonly redis: RedisClient | undefined,
    private readonly readyKey: string,
  ) {}

  /** The start-up is over (stranded units settled, the sweeper running): ready from now on. */
  started(): void {
    this.starting = false;
  }

  /** From the first moment of a shutdown on, the process is not ready. */
  drain(): void {
    this.draining = true;
  }

  async check(): Promise<Readiness> {
    if (this.draining) return { ready: false, reason: 'shutting down' };
    if (this.starting) return { ready: false, reason: 'starting' };
    if (matchMaker.state !== matchMaker.MatchMakerState.READY) return { ready: false, reason: 'not accepting rooms' };
    if (!this.redis) return roomListing();
    const redis = this.redis;
    const failure = await redisFailure(redis, undefined, () => redis.set(this.readyKey, String(Date.now()), 'PX', READY_KEY_TTL_MS));
    if (failure !== '') return { ready: false, reason: typeof failure === 'string' ? failure : `redis: ${failure.message}` };
    return roomListing();
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

/** A process waiting for Redis at start-up says so after this long without an answer, and then every 10 s. */
const WAITING_SAID_AFTER_MS = 1000;
const WAITING_SAID_EVERY_MS = 10_000;

/**
 * Resolves once Redis answers a PING, so that a process started while Redis is down, frozen,
 * loading its file or failing over waits for it instead of exiting; `waiting` is told after a
 * second without an answer, then every 10 s. Credentials Redis refuses (on connecting or to the
 * PING) are no outage: the refusal is thrown at once. Rejects with an AbortError as soon as
 * `signal` aborts (the process was told to stop meanwhile).
 */
export async function untilRedisAnswers(
  redis: RedisClient,
  waiting: (reason: string, waitedMs: number) => void,
  signal?: AbortSignal,
  retryMs = 50,
): Promise<void> {
  let refused: RedisReplyError | undefined;
  let lastError = '';
  // A cluster client's failure carries the last node's reason (`lastNodeError`).
  const onError = (err: Error & { lastNodeError?: Error }) => {
    const refusal = [err, err.lastNodeError].find(credentialsRefused);
    if (refusal) refused = refusal;
    else lastError = err.lastNodeError?.message ?? err.message;
  };
  redis.on('error', onError);
  try {
    const started = Date.now();
    let saidAt: number | undefined;
    for (;;) {
      signal?.throwIfAborted();
      if (refused) throw refused;
      const failure = await redisFailure(redis, signal);
      if (failure === '') return;
      if (typeof failure !== 'string') throw failure;
      const now = Date.now();
      if (now - started >= WAITING_SAID_AFTER_MS && (saidAt === undefined || now - saidAt >= WAITING_SAID_EVERY_MS)) {
        saidAt = now;
        waiting(lastError ? `${failure} (${lastError})` : failure, now - started);
      }
      await sleep(retryMs, undefined, signal ? { signal } : {});
    }
  } finally {
    redis.off('error', onError);
  }
}
