import { strict as assert } from 'node:assert';
import type { Cluster } from 'ioredis';
import { isStoreOutage } from '../../src/dealer/outage';
import { RedisStore } from '../../src/dealer/redis/store';
import { RedisCluster } from '../../tools/redis-cluster';
import { buyUntilAnswered } from './support/cluster-buyer';
import { TEN_UNIT_TABLE } from './support/test-tables';

/**
 * An acknowledged purchase outlives its master: the per-slot protocol answers only after a
 * replica has every write of the purchase (WAIT), and a purchase refused meanwhile is retried
 * with its request id until answered. A master SIGKILLed mid-purchases: test-long/
 * dealer-cluster-failover.test.ts (its failover takes seconds and a loaded machine stretches it).
 */
const GAME = TEN_UNIT_TABLE.game;
const STAKE = TEN_UNIT_TABLE.stake;
const T0 = 1_700_000_000_000;

describe('dealer store (redis cluster) failover', function () {
  this.timeout(120_000);

  let cluster: RedisCluster;
  let client: Cluster;
  let store: RedisStore;
  let prefixes = 0;

  beforeEach(async function () {
    this.timeout(60_000);
    cluster = await RedisCluster.start();
    // Fail fast while a master is down (the buyer retries), as the server's connections do.
    client = cluster.client({ enableAutoPipelining: true, slotsRefreshInterval: 500, redisOptions: { maxRetriesPerRequest: 1, commandTimeout: 2_000 } });
    store = new RedisStore(client, { prefix: `f${++prefixes}`, protocol: 'per-slot', waitReplicas: 1, replicaTimeoutMs: 2_000 });
  });
  afterEach(async () => {
    await store?.close();
    client?.disconnect();
    await cluster?.stop();
  });

  it('answers a purchase whose replica is down with a retryable refusal, and its retry with the same unit, charged once', async () => {
    await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
    await store.wallets.deposit('p1', 1_000, 'd1', T0);
    const sequenceMaster = await cluster.masterOf(store.keys.lane(GAME, STAKE).current);
    const replica = await cluster.replicaOf(sequenceMaster);
    await replica.kill();
    const refused = await store.sales.purchase({ playerId: 'p1', requestId: 'r1', game: GAME, stake: STAKE, now: T0 }).then(
      () => assert.fail('answered without a replica'),
      (err: unknown) => err,
    );
    assert.ok(isStoreOutage(refused), `an outage: ${String(refused)}`);
    await replica.restart();
    await cluster.ready();
    const { result } = await buyUntilAnswered(store, 'p1', 'r1', T0 + 5_000);
    assert.ok(result.ok);
    assert.equal(result.sale.unitId, 'e.0:0', 'the unit dealt before the refusal');
    assert.equal(result.sale.soldAt, T0, 'the first call\'s time');
    assert.equal(await store.wallets.balance('p1'), 1_000 - STAKE);
    assert.deepEqual((await store.wallets.journal('p1')).map((j) => j.kind), ['deposit', 'stake']);
  });

  it('deals nothing for a purchase whose hold no replica acknowledged, and deals it on the retry', async () => {
    await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
    const sequenceMaster = await cluster.masterOf(store.keys.lane(GAME, STAKE).current);
    // A player whose wallet lives on another master than the sequence.
    let playerId = '';
    for (let i = 0; !playerId; i++) {
      if ((await cluster.masterOf(store.keys.player(`p${i}`).wallet)) !== sequenceMaster) playerId = `p${i}`;
    }
    await store.wallets.deposit(playerId, 1_000, 'd1', T0);
    const replica = await cluster.replicaOf(await cluster.masterOf(store.keys.player(playerId).wallet));
    await replica.kill();
    await assert.rejects(store.sales.purchase({ playerId, requestId: 'r1', game: GAME, stake: STAKE, now: T0 }), (err: unknown) => isStoreOutage(err));
    assert.equal((await store.emissions.listEmissions())[0]!.blocks[0]!.sold, 0, 'no unit dealt on an unacknowledged hold');
    await replica.restart();
    await cluster.ready();
    const { result } = await buyUntilAnswered(store, playerId, 'r1', T0 + 5_000);
    assert.ok(result.ok && result.sale.unitId === 'e.0:0');
    assert.equal(await store.wallets.balance(playerId), 1_000 - STAKE);
  });
});

/**
 * What keeps writes going when a master dies, with WAIT 1: its promoted replica must have a
 * replica of its own at once. With one replica per master it has none until the old master is
 * back (purchases on its slots refused meanwhile); with two, the other one follows it.
 */
describe('dealer store (redis cluster) topology: a master lost, before it is back', function () {
  this.timeout(180_000);

  async function loseTheSequenceMaster(replicas: 1 | 2) {
    const cluster = await RedisCluster.start({ replicas });
    const client = cluster.client({ enableAutoPipelining: true, slotsRefreshInterval: 500, redisOptions: { maxRetriesPerRequest: 1, commandTimeout: 2_000 } });
    const store = new RedisStore(client, { prefix: `t${replicas}`, protocol: 'per-slot', waitReplicas: 1, replicaTimeoutMs: 1_000 });
    const stop = async () => {
      await store.close();
      client.disconnect();
      await cluster.stop();
    };
    try {
      await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
      await store.wallets.deposit('p1', 1_000, 'd1', T0);
      assert.ok((await store.sales.purchase({ playerId: 'p1', requestId: 'before', game: GAME, stake: STAKE, now: T0 })).ok);
      const master = await cluster.masterOf(store.keys.lane(GAME, STAKE).current);
      await master.kill();
      // A replica took the slots over (the old master stays down).
      await cluster.ready(false);
      return { cluster, store, master, stop };
    } catch (err) {
      await stop();
      throw err;
    }
  }

  it('with two replicas per master, keeps answering purchases on the lost master\'s slots', async () => {
    const { cluster, store, master, stop } = await loseTheSequenceMaster(2);
    try {
      await cluster.ready(true);
      const { result } = await buyUntilAnswered(store, 'p1', 'after', T0 + 1_000);
      assert.ok(result.ok);
      assert.equal(master.running, false, 'answered while the old master is still down');
      assert.equal(await store.wallets.balance('p1'), 1_000 - 2 * STAKE);
    } finally {
      await stop();
    }
  });

  it('with one replica per master, refuses them until the old master is back (what two replicas avoid)', async () => {
    const { cluster, store, master, stop } = await loseTheSequenceMaster(1);
    try {
      const promoted = await cluster.masterOf(store.keys.lane(GAME, STAKE).current);
      assert.deepEqual(await cluster.replicasOf(promoted), [], 'the promoted replica has no replica');
      await assert.rejects(store.sales.purchase({ playerId: 'p1', requestId: 'after', game: GAME, stake: STAKE, now: T0 + 1_000 }), (err: unknown) => isStoreOutage(err));
      await master.restart();
      await cluster.ready();
      const { result } = await buyUntilAnswered(store, 'p1', 'after', T0 + 1_000);
      assert.ok(result.ok);
      assert.equal(await store.wallets.balance('p1'), 1_000 - 2 * STAKE, 'charged once');
    } finally {
      await stop();
    }
  });
});
