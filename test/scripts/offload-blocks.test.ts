import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisStore } from '../../src/dealer/redis/store';
import { RedisActionLog } from '../../src/action-log/redis-action-log';
import { RedisCluster } from '../../tools/redis-cluster';
import { T0 } from '../dealer/support/fourteen-sales';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';
import { runScript } from './run-script';

const offloadBlocks = (args: string[]) => runScript('offload-blocks', args);

describe('npm run offload-blocks', function () {
  this.timeout(60_000);
  let cluster: RedisCluster;
  let dir: string;
  before(async () => {
    cluster = await RedisCluster.start();
    dir = mkdtempSync(join(tmpdir(), 'offload-blocks-script-'));
  });
  after(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('offloads a closed, settled block of a Redis Cluster, and its units stay recallable', async () => {
    const client = cluster.client({ enableAutoPipelining: true });
    const store = new RedisStore(client, { prefix: 'arch', protocol: 'per-slot' });
    const log = new RedisActionLog(client, 'arch');
    await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 2, now: T0 });
    await store.wallets.deposit('p1', 1_000, 'd1', T0);
    const unitIds: string[] = [];
    for (let i = 0; i < 10; i++) {
      const result = await store.sales.purchase({ playerId: 'p1', requestId: `r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + i });
      assert.ok(result.ok);
      unitIds.push(result.sale.unitId);
      assert.ok(await log.append(result.sale.unitId, 0, { action: { type: 'auto', i }, at: T0 + i, by: 'player' }));
      await store.sales.settle(result.sale.unitId, T0 + i);
    }
    const before = await Promise.all(unitIds.map(async (id) => [await store.sales.getSale(id), await log.read(id)]));
    await store.close();
    await client.quit();

    const run = await offloadBlocks(['--redis-cluster', cluster.nodes, '--dir', dir, '--retention-days', '0', '--prefix', 'arch']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `e.0: 10 units offloaded in ${join(dir, 'e.0.units.ndjson')}\n1 block(s) offloaded\n`);
    assert.ok(existsSync(join(dir, 'e.0.units.index')));

    // A fresh client and store: what they read comes from Redis and the offloaded files, not a cache.
    const reader = cluster.client();
    try {
      const readStore = new RedisStore(reader, { prefix: 'arch', protocol: 'per-slot' });
      const readLog = new RedisActionLog(reader, 'arch');
      assert.deepEqual(await readStore.offloading.blockSales('e.0', 0, 10), [], 'the cluster dropped the sales');
      assert.equal((await readStore.emissions.block('e.0'))?.offloadedTo, join(dir, 'e.0.units.ndjson'));
      const after = await Promise.all(unitIds.map(async (id) => [await readStore.sales.getSale(id), await readLog.read(id)]));
      assert.deepEqual(after, before);
    } finally {
      await reader.quit();
    }
    const again = await offloadBlocks(['--redis-cluster', cluster.nodes, '--dir', dir, '--retention-days', '0', '--prefix', 'arch']);
    assert.equal(again.stdout, '0 block(s) offloaded\n', 'once');
  });

  it('explains a bad command line and exits 2, an unreachable cluster and exits 3', async () => {
    const badLines = [['--dir', dir], ['--redis', 'redis://x', '--redis-cluster', 'h:1', '--dir', dir], ['--redis-cluster', 'h:1']];
    for (const [i, result] of (await Promise.all(badLines.map((args) => offloadBlocks(args)))).entries()) {
      assert.equal(result.code, 2, badLines[i]!.join(' '));
      assert.match(result.stderr, /give --redis or --redis-cluster, and --dir/);
    }
    const [badNodes, closed] = await Promise.all([
      offloadBlocks(['--redis-cluster', 'h:99999', '--dir', dir]),
      offloadBlocks(['--redis-cluster', '127.0.0.1:1', '--dir', dir]),
    ]);
    assert.equal(badNodes.code, 2);
    assert.match(badNodes.stderr, /--redis-cluster must list host:port entries separated by commas; "h:99999" is not one/);
    assert.equal(closed.code, 3);
    assert.match(closed.stderr, /^offload-blocks: cannot reach the Redis Cluster at 127\.0\.0\.1:1: /);
  });
});
