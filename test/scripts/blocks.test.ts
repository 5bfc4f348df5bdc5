import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import { Redis } from 'ioredis';
import { MemoryStore } from '../../src/dealer/memory/store';
import { blocksReport, verifyBlockReport, type BlocksReport } from '../../src/reports/operator-report';
import { RedisStore } from '../../src/dealer/redis/store';
import { RedisCluster } from '../../tools/redis-cluster';
import { RedisServer } from '../../tools/redis-server';
import { dealFourteen } from '../dealer/support/fourteen-sales';
import { runScript } from './run-script';

const blocks = (args: string[], env: Record<string, string> = {}) => runScript('blocks', args, env);

/** A report without what the random printing decides (commitments, seeds, the tiers of the units sold). */
function withoutPrinting(report: BlocksReport): unknown {
  return report.emissions.map((e) => ({ ...e, blocks: e.blocks.map((b) => ({ ...b, commitment: undefined, seed: undefined, tiers: undefined, prizesWon: undefined, prizesLeft: undefined })) }));
}

describe('npm run blocks', function () {
  this.timeout(60_000);
  let redisServer: RedisServer;
  let cluster: RedisCluster;
  let http: Server;
  let httpUrl: string;

  before(async () => {
    [redisServer, cluster] = await Promise.all([RedisServer.start(), RedisCluster.start()]);
    const redis = new Redis(redisServer.url);
    await dealFourteen(new RedisStore(redis, { prefix: 'ops' }));
    await redis.quit();

    // A stand-in for the server's admin routes, serving the same reports from a memory store.
    const memory = new MemoryStore();
    await dealFourteen(memory);
    http = createServer((req, res) => {
      if (req.headers.authorization !== 'Bearer s3cret') return void res.writeHead(401).end();
      const verify = /^\/admin\/blocks\/([^/]+)\/verify$/.exec(req.url ?? '');
      const report = req.url === '/admin/blocks' ? blocksReport(memory) : verify ? verifyBlockReport(memory, decodeURIComponent(verify[1]!)) : Promise.resolve(undefined);
      void report.then((body) => (body ? res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)) : res.writeHead(404).end()));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    httpUrl = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  });

  after(async () => {
    http?.close();
    await Promise.all([redisServer?.stop(), cluster?.stop()]);
  });

  it('lists and verifies blocks read from Redis', async () => {
    const list = await blocks(['list', '--redis', redisServer.url, '--prefix', 'ops']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /emission noel: noel-de-la-chance at 0\.50 €, selling, 3 of 3 blocks printed/);
    const verified = await blocks(['verify', 'noel.0', '--redis', redisServer.url, '--prefix', 'ops', '--json']);
    assert.equal(verified.code, 0, verified.stderr);
    assert.equal((JSON.parse(verified.stdout) as { verified: boolean }).verified, true);
    const open = await blocks(['verify', 'noel.1', '--redis', redisServer.url, '--prefix', 'ops']);
    assert.equal(open.code, 1);
    assert.match(open.stdout, /NOT verified/);
  });

  it('lists and verifies blocks read from a Redis Cluster, the report of one Redis after the same purchases', async () => {
    const client = cluster.client({ enableAutoPipelining: true });
    const store = new RedisStore(client, { prefix: 'ops', protocol: 'per-slot' });
    await dealFourteen(store);
    const inProcess = await blocksReport(store);
    await client.quit();

    const onCluster = await blocks(['list', '--redis-cluster', cluster.nodes, '--prefix', 'ops', '--json']);
    assert.equal(onCluster.code, 0, onCluster.stderr);
    const onOneRedis = await blocks(['list', '--redis', redisServer.url, '--prefix', 'ops', '--json']);
    const clusterReport = JSON.parse(onCluster.stdout) as BlocksReport;
    assert.deepEqual(clusterReport, inProcess, "the cluster's report as the store gives it");
    assert.deepEqual(withoutPrinting(clusterReport), withoutPrinting(JSON.parse(onOneRedis.stdout) as BlocksReport), 'the same emissions, blocks, states and counts as on one Redis');
    const verified = await blocks(['verify', 'noel.0', '--redis-cluster', cluster.nodes.split(',')[0]!, '--prefix', 'ops']);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /verified\. Re-printed from its seed \(withheld while a unit of it is in play\)/);
  });

  it("lists and verifies blocks through a server's admin endpoint with the operator token", async () => {
    const list = await blocks(['list', '--url', httpUrl, '--json'], { OPERATOR_TOKEN: 's3cret' });
    assert.equal(list.code, 0, list.stderr);
    assert.equal((JSON.parse(list.stdout) as { emissions: unknown[] }).emissions.length, 1);
    const unknown = await blocks(['verify', 'noel.9', '--url', httpUrl], { OPERATOR_TOKEN: 's3cret' });
    assert.deepEqual([unknown.code, unknown.stderr.trim()], [1, 'no block noel.9']);
    const refused = await blocks(['list', '--url', httpUrl], { OPERATOR_TOKEN: 'wrong' });
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /refused the operator token/);
  });

  it('explains a bad command line and exits 2', async () => {
    const badLines = [[], ['sell'], ['verify'], ['list', '--redis', 'redis://x', '--url', 'http://x'], ['list', '--redis', 'redis://x', '--redis-cluster', 'h:1'], ['list', '--bogus']];
    for (const [i, result] of (await Promise.all(badLines.map((args) => blocks(args)))).entries()) {
      assert.equal(result.code, 2, badLines[i]!.join(' '));
      assert.match(result.stderr, /usage: npm run blocks -- <command>/);
    }
    const [badNodes, badUrl] = await Promise.all([blocks(['list', '--redis-cluster', '127.0.0.1:7000,nohost']), blocks(['list', '--redis', 'localhost:6379'])]);
    assert.equal(badNodes.code, 2);
    assert.match(badNodes.stderr, /--redis-cluster must list host:port entries separated by commas; "nohost" is not one/);
    assert.equal(badUrl.code, 2);
    assert.match(badUrl.stderr, /--redis must be a URL starting with redis:\/\//);
  });

  it('says which Redis it cannot reach and exits 3', async () => {
    const [closed, notACluster, noRedis] = await Promise.all([
      blocks(['list', '--redis-cluster', '127.0.0.1:1']),
      blocks(['list', '--redis-cluster', `127.0.0.1:${redisServer.port}`]),
      blocks(['list', '--redis', 'redis://127.0.0.1:1']),
    ]);
    assert.equal(closed.code, 3, closed.stderr);
    assert.match(closed.stderr, /^blocks: cannot reach the Redis Cluster at 127\.0\.0\.1:1: /);
    assert.equal(notACluster.code, 3, notACluster.stderr);
    assert.match(notACluster.stderr, /cannot reach the Redis Cluster at 127\.0\.0\.1:\d+: .*\(ERR This instance has cluster support disabled\)/);
    assert.equal(noRedis.code, 3);
    assert.match(noRedis.stderr, /^blocks: cannot reach Redis at redis:\/\/127\.0\.0\.1:1: /);
  });
});
