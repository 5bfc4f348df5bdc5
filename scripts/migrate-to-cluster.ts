/**
 * `npm run migrate-to-cluster -- --from <redis url> --to <host:port,…> [--prefix p] [--dry-run]`:
 * moves a one-Redis deployment to a Redis Cluster, servers stopped (docs/operations.md,
 * "Moving from one Redis to a cluster"; src/migration/migrate-to-cluster.ts). Progress on
 * stderr, the summary on stdout.
 * Exit codes: 0 done and checked, 1 a check failed after the copy, 2 bad command line,
 * 3 Redis unreachable, the cluster already holds keys under the prefix, or the copy failed.
 */
import { parseArgs } from 'node:util';
import type { Cluster, Redis } from 'ioredis';
import { DealerKeys } from '../src/dealer/redis/store';
import { migrateToCluster, type KeyCounts, type MigrationReport } from '../src/migration/migrate-to-cluster';
import { connectOnce, describeRedisTarget, redisClusterTarget, redisUrlTarget, type RedisTarget } from '../src/server/redis-client';

const USAGE = `usage: npm run migrate-to-cluster -- --from <redis url> --to <host:port,…> [--prefix <p>] [--dry-run]

  --from <url>          the one Redis the servers used (REDIS_URL), e.g. redis://10.0.0.5:6379
  --to <host:port,…>    the Redis Cluster they will use (REDIS_CLUSTER_NODES): some or all nodes
  --prefix <p>          key prefix (REDIS_PREFIX; default: $REDIS_PREFIX, else "lottery")
  --dry-run             count and check only; write nothing

Stop every server first, and start them on the cluster after (docs/operations.md).`;

function usage(message: string): never {
  console.error(`migrate-to-cluster: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function counts(c: KeyCounts): string {
  const types = Object.keys(c).sort();
  return types.length === 0 ? 'none' : types.map((t) => `${t} ${c[t]}`).join(', ');
}

function summary(report: MigrationReport): string {
  const lines = report.dryRun
    ? [`dry run: nothing written`, `keys to copy: ${report.copied} (${counts(report.source)})`, `request ids to write on the players' slots: ${report.requestIds}`]
    : [
        `keys copied: ${report.copied}${report.expired > 0 ? ` (${report.expired} expired before their copy)` : ''}`,
        `source:  ${counts(report.source)}`,
        `cluster: ${counts(report.target)} (${report.playerRequestKeysMade} player request-id hashes made)`,
        `request ids written on the players' slots: ${report.requestIds}, read back: ${report.requestIdsVerified}`,
      ];
  if (report.seatsLeftOut) lines.push('seats left out (they name rooms of the stopped servers)');
  lines.push(...report.mismatches.map((m) => `MISMATCH ${m}`));
  if (!report.dryRun) lines.push(report.mismatches.length === 0 ? 'checked: every count and request id equal' : 'NOT checked: see the mismatches above');
  return lines.join('\n');
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        prefix: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (err) {
    usage((err as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.from === undefined || values.to === undefined) usage('give --from and --to');
  const prefix = values.prefix ?? process.env['REDIS_PREFIX'] ?? 'lottery';
  if (prefix === '') usage('--prefix must not be empty: every key of the source would be taken');
  try {
    new DealerKeys(prefix);
  } catch (err) {
    usage(`--prefix: ${(err as Error).message}`);
  }
  let from: RedisTarget;
  let to: RedisTarget;
  try {
    from = redisUrlTarget(values.from, '--from');
    to = redisClusterTarget(values.to, '--to');
  } catch (err) {
    usage((err as Error).message);
  }

  const source = (await connectOnce(from)) as Redis;
  let target: Cluster | undefined;
  try {
    if (/cluster_enabled:1/.test(await source.info('cluster'))) usage(`--from: ${describeRedisTarget(from)} is a cluster node; the source is one Redis`);
    target = (await connectOnce(to, { autoPipelining: true })) as Cluster;
    const others = String(await source.call('CLIENT', 'LIST')).trim().split('\n').length - 1;
    if (others > 0 && !values['dry-run']) console.error(`migrate-to-cluster: ${others} other client(s) connected to the source: are the servers stopped?`);
    const report = await migrateToCluster(source, target, {
      prefix,
      dryRun: values['dry-run'],
      progress: (copied, total) => console.error(`copied ${copied} / ${total} keys`),
    });
    console.log(summary(report));
    return report.mismatches.length === 0 ? 0 : 1;
  } finally {
    source.disconnect();
    target?.disconnect();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`migrate-to-cluster: ${String((err as Error)?.message ?? err)}`);
    process.exitCode = 3;
  },
);
