import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bookLines, moneyLines, moneyOnItsWay, moneyRecords, reconcile } from '../../src/archive/reconcile';
import { SealingKey } from '../../src/archive/seal';
import { formatProblem, verifyArchive } from '../../src/archive/verify';
import { RedisStore } from '../../src/dealer/redis/store';
import { redisClient, type RedisTarget } from '../../src/server/redis-client';
import { ArchiveWriterProcess } from '../../tools/archive-writer-process';

/** What the chaos run's archive check found. */
export interface ArchiveCheck {
  readonly records: number;
  readonly seals: number;
  /** Money entries still on their way (in the outbox, or on a cluster in a player's own stream): counted as archived. */
  readonly onItsWay: number;
  /** Times the writer's drains started failing (Redis killed or frozen under it), each told once by the writer and retried. */
  readonly writerOutages: number;
  /** Chain, seal or sequence problems, then the differences with the wallet journals. */
  readonly problems: readonly string[];
}

/** The writer's settings for `target`, as an operator gives them. */
function writerEnv(target: RedisTarget, prefix: string, dir: string): Record<string, string> {
  const nodes = target.redisClusterNodes?.map((n) => `${n.host}:${n.port}`).join(',') ?? '';
  // The one not used is set empty: this process's own environment must not add it.
  const redis = { REDIS_CLUSTER_NODES: nodes, REDIS_URL: nodes === '' ? target.redisUrl! : '' };
  return { ...redis, REDIS_PREFIX: prefix, ARCHIVE_DIR: join(dir, 'archive'), ARCHIVE_SIGNING_KEY_FILE: join(dir, 'signing-key.pem'), ARCHIVE_SEAL_SECONDS: '1' };
}

/**
 * The regulator's archive through the faults (docs/archive.md): the writer as an operator runs
 * it, `npm run archive -- run` in a process of its own, drains the servers' archive outbox every
 * second into a temporary directory while Redis is killed and frozen under it (it reconnects,
 * and its drains are retried) and while it is killed and started again itself (a `kill-writer`
 * fault, through `writer`); at the end it is stopped as an operator stops it (SIGTERM: it drains
 * the rest first), and the archive is verified (0 broken chains, 0 gaps) and reconciled with
 * every wallet journal. On a Redis Cluster it drains the archive shards the servers relay to
 * (docs/archive.md, "On a Redis Cluster"); entries a relay cut left in a player's own stream,
 * which the servers' recovery relays within a minute, count as on their way, as
 * `archive verify --books` counts them.
 */
export async function startArchiveCheck(target: RedisTarget, prefix: string): Promise<{ writer: ArchiveWriterProcess; finish(): Promise<ArchiveCheck> }> {
  const dir = await mkdtemp(join(tmpdir(), 'chaos-archive-'));
  await writeFile(join(dir, 'signing-key.pem'), SealingKey.generate().pem(), { mode: 0o600 });
  const writer = ArchiveWriterProcess.start(writerEnv(target, prefix, dir));
  return {
    writer,
    async finish() {
      const redis = redisClient(target, { maxRetriesPerRequest: null });
      try {
        const stopped = await writer.stop();
        const writerProblems = stopped === 0 ? [] : [`archive: the writer, stopped, exited with ${stopped}: ${writer.output.split('\n').slice(-5).join(' | ')}`];
        const store = new RedisStore(redis, { prefix, protocol: target.redisClusterNodes ? 'per-slot' : 'one-script' });
        const verified = await verifyArchive(join(dir, 'archive'));
        const onItsWay = await moneyOnItsWay(store.outbox, verified.records, await store.journaledPlayers());
        const result = reconcile(moneyLines([...moneyRecords(verified.records), ...onItsWay]), await bookLines(store));
        return {
          records: [...verified.counts.values()].reduce((n, count) => n + count, 0),
          seals: verified.seals,
          onItsWay: onItsWay.length,
          writerOutages: writer.output.match(/draining failed/g)?.length ?? 0,
          problems: [...writerProblems, ...verified.problems.map((p) => `archive: ${formatProblem(p)}`), ...result.differences.map((d) => `archive against the books: ${d}`)],
        };
      } finally {
        await writer.kill();
        redis.disconnect();
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
