/**
 * `npm run offload-blocks -- (--redis <url> | --redis-cluster <host:port,…>) --dir <directory>
 * [--retention-days 30] [--prefix p]`: offloads the blocks closed more than the retention ago
 * whose every unit is settled: their units (sales, settlements, action logs) go to write-once
 * files in the directory and Redis drops them (docs/dealer.md, "Offloading settled blocks"). Run it from cron on
 * a host whose offload directory the servers can read (recall of an offloaded unit reads it).
 * Prints one line per block.
 * Exit codes: 0 ok, 2 bad command line, 3 Redis unreachable or offloading failed.
 */
import { parseArgs } from 'node:util';
import { RedisStore } from '../src/dealer/redis/store';
import { connectOnce, redisClusterTarget, redisUrlTarget, type RedisTarget } from '../src/server/redis-client';
import { offloadClosedBlocks } from '../src/offload/offload-blocks';
import { RedisActionLog } from '../src/action-log/redis-action-log';

const USAGE = `usage: npm run offload-blocks -- (--redis <url> | --redis-cluster <host:port,…>) --dir <directory> [--retention-days <n>] [--prefix <p>]

  --redis <url>          Redis of the servers, e.g. redis://127.0.0.1:6379
  --redis-cluster <host:port,…>
                         the servers' Redis Cluster instead (some or all of its nodes, as
                         REDIS_CLUSTER_NODES)
  --dir <directory>      the offload directory (created if missing); keep it
  --retention-days <n>   days a closed block stays in Redis before it is offloaded (default 30)
  --prefix <p>           key prefix (default: $REDIS_PREFIX, else "lottery")`;

const DAY_MS = 24 * 60 * 60 * 1000;

function usage(message: string): never {
  console.error(`offload-blocks: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        redis: { type: 'string' },
        'redis-cluster': { type: 'string' },
        dir: { type: 'string' },
        'retention-days': { type: 'string', default: '30' },
        prefix: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (err) {
    usage((err as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const nodes = values['redis-cluster'];
  if ((values.redis === undefined) === (nodes === undefined) || !values.dir) usage('give --redis or --redis-cluster, and --dir');
  const days = Number(values['retention-days']);
  if (!Number.isFinite(days) || days < 0) usage('--retention-days must be a number of days ≥ 0');
  const prefix = values.prefix ?? process.env['REDIS_PREFIX'] ?? 'lottery';
  let target: RedisTarget;
  try {
    target = values.redis !== undefined ? redisUrlTarget(values.redis, '--redis') : redisClusterTarget(nodes!, '--redis-cluster');
  } catch (err) {
    usage((err as Error).message);
  }

  const redis = await connectOnce(target, { autoPipelining: true });
  try {
    // Reads and the archive's marks are the same under both purchase protocols.
    const store = new RedisStore(redis, { prefix });
    const log = new RedisActionLog(redis, prefix);
    const offloaded = await offloadClosedBlocks(store, log, { dir: values.dir, retentionMs: Math.round(days * DAY_MS), now: Date.now() });
    for (const block of offloaded) console.log(`${block.blockId}: ${block.units} units offloaded in ${block.path}`);
    console.log(`${offloaded.length} block(s) offloaded`);
  } finally {
    redis.disconnect();
  }
}

main().catch((err: unknown) => {
  console.error(`offload-blocks: ${String((err as Error)?.message ?? err)}`);
  process.exitCode = 3;
});
