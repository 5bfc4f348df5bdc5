import { strict as assert } from 'node:assert';
import type { Cluster } from 'ioredis';
import { bookLines, moneyLines, moneyOnItsWay, moneyRecords, reconcile } from '../../src/archive/reconcile';
import { SealingKey } from '../../src/archive/seal';
import { verifyArchive } from '../../src/archive/verify';
import { ArchiveWriter, readManifest } from '../../src/archive/writer';
import { RedisStore } from '../../src/dealer/redis/store';
import { RedisCluster } from '../../tools/redis-cluster';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';
import { runScript } from '../scripts/run-script';
import { T0, tempDir } from './support/archive-fixture';

const KEY = SealingKey.generate();
const PLAYERS = 8;
const UNITS = 4;
const { game, stake } = TEN_UNIT_TABLE;

/**
 * The regulator's archive on a local Redis Cluster (3 masters, 3 replicas; docs/archive.md, "On
 * a Redis Cluster"): two processes' stores on the per-slot protocol, every write acknowledged by
 * a replica; each money entry written on its player's slot and relayed to the player's archive
 * shard, the writer draining the shards, each its own chain.
 */
describe('the archive on a Redis Cluster', () => {
  let cluster: RedisCluster;
  let clients: Cluster[];
  let stores: RedisStore[];
  let dir: string;
  let remove: () => Promise<void>;
  const prefix = 'archived';
  before(async function () {
    this.timeout(60_000);
    cluster = await RedisCluster.start();
    clients = [cluster.client(), cluster.client()];
    stores = clients.map((client) => new RedisStore(client, { prefix, protocol: 'per-slot', waitReplicas: 1, sequenceLanes: 3 }));
    ({ dir, remove } = await tempDir());
  });
  after(async () => {
    await Promise.all((stores ?? []).map((s) => s.close()));
    for (const client of clients ?? []) client.disconnect();
    await cluster?.stop();
    await remove?.();
  });

  it('archives every deposit, withdrawal, protection change, stake and prize, verified and reconciled with the books', async function () {
    this.timeout(120_000);
    await stores[0]!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 6, now: T0 });
    let unsettled: string | undefined;
    await Promise.all(
      Array.from({ length: PLAYERS }, async (_, p) => {
        const playerId = `p${p}`;
        // Two processes: each player's calls alternate between them.
        const store = (i: number) => stores[(p + i) % 2]!;
        assert.ok((await store(0).wallets.deposit(playerId, 10_000, `${playerId}-d`, T0)).ok);
        await store(1).protections.changeProtection(playerId, { what: 'limits', limits: { stake_week: 5_000 }, raiseDelayMs: 48 * 3_600_000 }, T0);
        for (let i = 0; i < UNITS; i++) {
          const bought = await store(i).sales.purchase({ playerId, requestId: `${playerId}-r${i}`, game, stake, now: T0 + i });
          assert.ok(bought.ok, bought.ok ? '' : bought.code);
          // One unit stays in play: its stake waits on its player's slot, on its way.
          if (p === 0 && i === UNITS - 1) unsettled = bought.sale.unitId;
          else await store(i + 1).sales.settle(bought.sale.unitId, T0 + i);
        }
        if (p % 2 === 0 && p > 0) assert.ok((await store(1).wallets.withdraw(playerId, 100, `${playerId}-w`, T0 + 10)).ok);
      }),
    );
    const writer = await ArchiveWriter.open({ dir, outbox: stores[1]!.outbox, key: KEY, sealRecords: 7, now: () => T0 });
    await writer.drainAll();

    const { streams } = await readManifest(dir);
    assert.deepEqual(streams, stores[0]!.outbox.streams, 'every shard listed, each its own chain');
    const verified = await verifyArchive(dir);
    assert.deepEqual(verified.problems, []);
    const shards = [...verified.records].filter(([stream, records]) => stream.startsWith('money-') && records.length > 0);
    assert.ok(shards.length >= 3, `the players spread over the shards (${shards.length})`);

    const archived = moneyRecords(verified.records);
    const players = await stores[0]!.journaledPlayers();
    assert.equal(players.length, PLAYERS, 'the books read on every master');
    const onItsWay = await moneyOnItsWay(stores[0]!.outbox, verified.records, players);
    assert.deepEqual(onItsWay.map((e) => `${e.kind} ${e.payload['ref']}`), [`stake ${unsettled}`]);
    const books = await bookLines(stores[0]!);
    const result = reconcile(moneyLines([...archived, ...onItsWay]), books);
    assert.deepEqual(result.differences, []);
    const kinds = new Set(books.map((line) => line.kind));
    assert.deepEqual([...kinds].sort(), ['deposit', 'prize', 'stake', 'withdrawal'], 'every kind of movement');
    assert.equal(archived.filter((r) => r.kind === 'protection').length, PLAYERS);

    // The unit settled: its stake and prize join the archive, and the command line agrees.
    await stores[0]!.sales.settle(unsettled!, T0 + 20);
    await writer.drainAll();
    const env = { REDIS_CLUSTER_NODES: cluster.nodes, REDIS_PREFIX: prefix };
    const checked = await runScript('archive', ['verify', dir, '--books'], env);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /books: (\d+) journal lines, \1 archived \(0 still in the outbox\)/);
    assert.match(checked.stdout, /0 problem\(s\)/);
  });
});
