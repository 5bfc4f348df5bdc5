import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { bookLines, moneyLines, reconcile } from '../../src/archive/reconcile';
import { SealingKey } from '../../src/archive/seal';
import { formatProblem, verifyArchive } from '../../src/archive/verify';
import { ArchiveWriter } from '../../src/archive/writer';
import { RedisStore } from '../../src/dealer/redis/store';

/** What the chaos run's archive check found. */
export interface ArchiveCheck {
  readonly records: number;
  readonly seals: number;
  /** Drains that failed during the faults (retried). */
  readonly drainErrors: number;
  /** Chain, seal or sequence problems, then the differences with the wallet journals. */
  readonly problems: readonly string[];
}

/**
 * The regulator's archive through the faults (docs/archive.md): a writer drains the servers'
 * archive outbox every second into a temporary directory while Redis is killed and frozen
 * under it (its drains fail and are retried); at the end it drains the rest, and the archive is
 * verified (0 broken chains, 0 gaps) and reconciled with every wallet journal.
 */
export async function startArchiveCheck(redisUrl: string, prefix: string): Promise<{ finish(): Promise<ArchiveCheck> }> {
  const dir = await mkdtemp(join(tmpdir(), 'chaos-archive-'));
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const store = new RedisStore(redis, { prefix });
  const writer = await ArchiveWriter.open({ dir, outbox: store.outbox, key: SealingKey.generate(), sealRecords: 1000, now: Date.now });
  let drainErrors = 0;
  const stop = writer.run(1000, () => drainErrors++);
  return {
    async finish() {
      try {
        await stop();
        await writer.drainAll();
        const verified = await verifyArchive(dir);
        const result = reconcile(moneyLines(verified.records.get('money') ?? []), await bookLines(store));
        return {
          records: [...verified.records.values()].reduce((n, r) => n + r.length, 0),
          seals: verified.seals,
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
