/**
 * The operator's view of the dealer: `npm run blocks -- <command> [options]`.
 * Reads Redis directly (--redis, --redis-cluster) or asks a running server's admin endpoint (--url); see the
 * usage text below and docs/dealer.md.
 */
import { parseArgs } from 'node:util';
import {
  blocksReport,
  formatBlocksReport,
  formatVerification,
  verifyBlockReport,
  type BlocksReport,
  type BlockVerificationReport,
} from '../src/reports/operator-report';
import { RedisStore } from '../src/dealer/redis/store';
import { connectOnce, redisClusterTarget, redisUrlTarget, RedisUnreachableError, type RedisTarget } from '../src/server/redis-client';

const USAGE = `usage: npm run blocks -- <command> [options]

commands:
  list                emissions and blocks: sold and unsold units, prizes won and left per
                      tier, commitment, state (and the seed of closed blocks)
  verify <blockId>    re-print a closed block from its revealed seed and check its commitment
                      and every sold unit; exits 1 if anything differs

where to look (one of):
  --redis <url>       read Redis directly, e.g. redis://127.0.0.1:6379
  --redis-cluster <host:port,…>
                      read a Redis Cluster directly (some or all of its nodes, as
                      REDIS_CLUSTER_NODES)
  --prefix <p>        key prefix on Redis (default: $REDIS_PREFIX, else "lottery")
  --url <base>        ask a running server, e.g. http://127.0.0.1:2567, with the token in
                      $OPERATOR_TOKEN (Authorization: Bearer)

  --json              print the report as JSON
  --help              this text

exit codes: 0 ok, 1 verification failed or block unknown, 2 bad command line, 3 source unreachable or refused`;

class UsageError extends Error {}
class SourceError extends Error {}

interface Source {
  list(): Promise<BlocksReport>;
  verify(blockId: string): Promise<BlockVerificationReport | undefined>;
  close(): Promise<void>;
}

async function redisSource(target: RedisTarget, prefix: string): Promise<Source> {
  let redis;
  try {
    redis = await connectOnce(target);
  } catch (err) {
    throw err instanceof RedisUnreachableError ? new SourceError(err.message) : err;
  }
  // Reads only: the same under both purchase protocols.
  const store = new RedisStore(redis, { prefix });
  return {
    list: () => blocksReport(store),
    verify: (blockId) => verifyBlockReport(store, blockId),
    async close() {
      await store.close();
      redis.disconnect();
    },
  };
}

/** The Redis of --redis or --redis-cluster. */
function redisTarget(url: string | undefined, nodes: string | undefined): RedisTarget {
  try {
    return url !== undefined ? redisUrlTarget(url, '--redis') : redisClusterTarget(nodes!, '--redis-cluster');
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function httpSource(base: string): Source {
  const token = process.env['OPERATOR_TOKEN'];
  if (!token) throw new UsageError('--url needs the operator token in $OPERATOR_TOKEN');
  const get = async (path: string): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(new URL(path, base), { headers: { authorization: `Bearer ${token}` } });
    } catch (err) {
      throw new SourceError(`cannot reach ${base}: ${(err as Error).message}`);
    }
    if (res.status === 404 && path.endsWith('/verify')) return undefined;
    if (res.status === 401 || res.status === 403) throw new SourceError(`${base} refused the operator token (HTTP ${res.status})`);
    if (!res.ok) throw new SourceError(`${base}${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  };
  return {
    list: async () => (await get('/admin/blocks')) as BlocksReport,
    verify: async (blockId) => (await get(`/admin/blocks/${encodeURIComponent(blockId)}/verify`)) as BlockVerificationReport | undefined,
    async close() {},
  };
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        redis: { type: 'string' },
        'redis-cluster': { type: 'string' },
        prefix: { type: 'string' },
        url: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (command !== 'list' && command !== 'verify') {
    throw new UsageError(command === undefined ? 'give a command' : `unknown command ${JSON.stringify(command)}`);
  }
  if (command === 'list' && rest.length > 0) throw new UsageError('list takes no argument');
  if (command === 'verify' && rest.length !== 1) throw new UsageError('verify takes one block id, e.g. verify noel-de-la-chance-50.0');
  const nodes = values['redis-cluster'];
  const sources = [values.redis, nodes, values.url].filter((v) => v !== undefined).length;
  if (sources !== 1) throw new UsageError('give one of --redis <url>, --redis-cluster <host:port,…> or --url <base>');
  if (values.prefix !== undefined && values.url !== undefined) throw new UsageError('--prefix goes with --redis or --redis-cluster');

  const source = values.url === undefined
    ? await redisSource(redisTarget(values.redis, nodes), values.prefix ?? process.env['REDIS_PREFIX'] ?? 'lottery')
    : httpSource(values.url);
  try {
    if (command === 'list') {
      const report = await source.list();
      console.log(values.json ? JSON.stringify(report, null, 2) : formatBlocksReport(report));
      return 0;
    }
    const blockId = rest[0]!;
    const report = await source.verify(blockId);
    if (!report) {
      console.error(`no block ${blockId}`);
      return 1;
    }
    console.log(values.json ? JSON.stringify(report, null, 2) : formatVerification(report));
    return report.verified ? 0 : 1;
  } finally {
    await source.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`blocks: ${err.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else if (err instanceof SourceError) {
      console.error(`blocks: ${err.message}`);
      process.exitCode = 3;
    } else {
      console.error(err);
      process.exitCode = 3;
    }
  },
);
