import { strict as assert } from 'node:assert';
import type { Cluster } from 'ioredis';
import { RedisStore } from '../src/dealer/redis/store';
import { RedisCluster } from '../tools/redis-cluster';
import { buyUntilAnswered } from '../test/dealer/support/cluster-buyer';
import { TEN_UNIT_TABLE } from '../test/dealer/support/test-tables';

/**
 * A master of a local Redis Cluster (3 + 3) SIGKILLed while 12 buyers buy through the per-slot
 * protocol with WAIT 1, each retrying its request id until answered: after the failover every
 * acknowledged purchase is there once, as acknowledged, and balances are exact.
 */
const GAME = TEN_UNIT_TABLE.game;
const STAKE = TEN_UNIT_TABLE.stake;
const DEPOSIT = 1_000_000;
const T0 = 1_700_000_000_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('dealer store (redis cluster) failover of a master', function () {
  this.timeout(300_000);
  let cluster: RedisCluster;
  let client: Cluster;
  let store: RedisStore;

  before(async () => {
    cluster = await RedisCluster.start();
    // Fail fast while a master is down (the buyer retries), as the server's connections do.
    client = cluster.client({ enableAutoPipelining: true, slotsRefreshInterval: 500, redisOptions: { maxRetriesPerRequest: 1, commandTimeout: 2_000 } });
    store = new RedisStore(client, { prefix: 'failover', protocol: 'per-slot', waitReplicas: 1, replicaTimeoutMs: 2_000 });
  });
  after(async () => {
    await store?.close();
    client?.disconnect();
    await cluster?.stop();
  });

  it('keeps every acknowledged purchase, once, with exact balances, when a master is SIGKILLed mid-purchases', async () => {
    const players = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const blocks = 60;
    await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: blocks, now: T0 });
    for (const p of players) await store.wallets.deposit(p, DEPOSIT, `d-${p}`, T0);
    const victim = await cluster.masterOf(store.keys.lane(GAME, STAKE).current);

    const acks: { playerId: string; requestId: string; unitId: string }[] = [];
    let outages = 0;
    let killed = false;
    const lanes = players.map(async (playerId, lane) => {
      for (let k = 0; acks.length < blocks * TEN_UNIT_TABLE.blockSize; k++) {
        const requestId = `l${lane}-${k}`;
        const answer = await buyUntilAnswered(store, playerId, requestId, T0 + k);
        outages += answer.outages;
        if (!answer.result.ok) {
          assert.equal(answer.result.code, 'purchase/game_closed');
          return;
        }
        acks.push({ playerId, requestId, unitId: answer.result.sale.unitId });
      }
    });
    const fault = (async () => {
      while (acks.length < 150) await sleep(10);
      await victim.kill();
      killed = true;
      await cluster.ready(false);
      await victim.restart(); // it comes back as the replica of its successor
      await cluster.ready();
    })();
    await Promise.all([...lanes, fault]);
    assert.ok(killed);
    assert.ok(outages > 0, 'the failover was seen by the buyers');

    // Every acknowledged purchase is there, once, as acknowledged.
    assert.equal(new Set(acks.map((a) => a.unitId)).size, acks.length, 'no unit acknowledged twice');
    for (const ack of acks) {
      const sale = await store.sales.getSale(ack.unitId);
      assert.ok(sale, `unit ${ack.unitId} kept`);
      assert.equal(sale.playerId, ack.playerId);
      assert.equal(sale.requestId, ack.requestId);
    }
    const emission = (await store.emissions.listEmissions())[0]!;
    const sold = emission.blocks.reduce((n, b) => n + b.sold, 0);
    assert.equal(sold, acks.length, 'every unit sold was acknowledged');
    // Balances exact: each player's journal has exactly its acknowledged units, debited once.
    for (const playerId of players) {
      const mine = acks.filter((a) => a.playerId === playerId).map((a) => a.unitId).sort();
      const journal = await store.wallets.journal(playerId);
      assert.deepEqual(journal.filter((j) => j.kind === 'stake').map((j) => j.ref).sort(), mine);
      assert.equal(await store.wallets.balance(playerId), DEPOSIT - STAKE * mine.length);
      assert.equal(journal.at(-1)!.balance, DEPOSIT - STAKE * mine.length);
      assert.deepEqual(await client.hgetall(store.keys.player(playerId).pending), {}, 'nothing left pending');
    }
  });
});
