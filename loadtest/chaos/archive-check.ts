import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bookLines, moneyLines, moneyOnItsWay, moneyRecords, reconcile } from '../../src/archive/reconcile';
import { SealingKey } from '../../src/archive/seal';
import { formatProblem, verifyArchive } from '../../src/archive/verify';
import { ArchiveWriter } from '../../src/archive/writer';
import { RedisStore } from '../../src/dealer/redis/store';
import { redisClient, type RedisTarget } from '../../src/server/redis-client';

/** What the chaos run's archive check found. */
export interface ArchiveCheck {
  readonly records: number;
  readonly seals: number;
  /** Money entries still on their way (in the outbox, or on a cluster in a player's own stream): counted as archived. */
  readonly onItsWay: number;
  /** Drains that failed during the faults (retried). */
  readonly drainErrors: number;
  /** Chain, seal or sequence problems, then the differences with the wallet journals. */
  readonly problems: readonly string[];
}

/**
 * The regulator's archive through the faults (docs/archive.md): a writer drains the servers'
 * archive outbox every second into a temporary directory while Redis is killed and frozen
 * under it (its drains fail and are retried); at the end it drains the rest, and the archive is
 * verified (0 broken chains, 0 gaps) and reconciled with every wallet journal. On a Redis
 * Cluster it drains the archive shards the servers relay to (docs/archive.md, "On a Redis
 * Cluster"); entries a relay cut left in a player's own stream, which the servers' recovery
 * relays within a minute, count as on their way, as `archive verify --books` counts them.
 */
export async function startArchiveCheck(target: RedisTarget, prefix: string): Promise<{ finish(): Promise<ArchiveCheck> }> {
  const dir = await mkdtemp(join(tmpdir(), 'chaos-archive-'));
  const redis = redisClient(target, { maxRetriesPerRequest: null });
  const store = new RedisStore(redis, { prefix, protocol: target.redisClusterNodes ? 'per-slot' : 'one-script' });
  const writer = await ArchiveWriter.open({ dir, outbox: store.outbox, key: SealingKey.generate(), sealRecords: 1000, now: Date.now });
  let drainErrors = 0;
  const stop = writer.run(1000, () => drainErrors++);
  return {
    async finish() {
      try {
        await stop();
        await writer.drainAll();
        const verified = await verifyArchive(dir);
        const onItsWay = await moneyOnItsWay(store.outbox, verified.records, await store.journaledPlayers());
        const result = reconcile(moneyLines([...moneyRecords(verified.records), ...onItsWay]), await bookLines(store));
        return {
          records: [...verified.records.values()].reduce((n, r) => n + r.length, 0),
          seals: verified.seals,
          onItsWay: onItsWay.length,
          drainErrors,
          problems: [...verified.problems.map((p) => `archive: ${formatProblem(p)}`), ...result.differences.map((d) => `archive against the books: ${d}`)],
        };
      } finally {
        redis.disconnect();
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
