import { strict as assert } from 'node:assert';
import type { Cluster } from 'ioredis';
import { isStoreOutage } from '../../src/dealer/outage';
import { RedisStore } from '../../src/dealer/redis-store';
import type { PurchaseResult } from '../../src/dealer/types';
import { RedisCluster } from '../../tools/redis-cluster';
import { TEN_UNIT_TABLE } from './support/test-tables';

/**
 * An acknowledged purchase outlives its master: the per-slot protocol answers only after a
 * replica has every write of the purchase (WAIT), and a purchase cut by the failover is
 * retried with its request id until answered.
 */
const GAME = TEN_UNIT_TABLE.game;
const STAKE = TEN_UNIT_TABLE.stake;
const DEPOSIT = 1_000_000;
const T0 = 1_700_000_000_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Buys with one request id until answered; a failure that is not an outage fails the test. */
async function buyUntilAnswered(store: RedisStore, playerId: string, requestId: string, now: number): Promise<{ result: PurchaseResult; outages: number }> {
  let outages = 0;
  for (;;) {
    try {
      return { result: await store.purchase({ playerId, requestId, game: GAME, stake: STAKE, now }), outages };
    } catch (err) {
      if (!isStoreOutage(err)) throw err;
      outages++;
      if (outages > 300) throw new Error(`purchase ${requestId} still failing after ${outages} tries: ${(err as Error).message}`);
      await sleep(100);
    }
  }
}

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
    store = new RedisStore(client, { prefix: `f${++prefixes}`, protocol: 'per-slot', waitReplicas: 1, replicaTimeoutMs: 500 });
  });
  afterEach(async () => {
    await store?.close();
    client?.disconnect();
    await cluster?.stop();
  });

  it('answers a purchase whose replica is down with a retryable refusal, and its retry with the same unit, charged once', async () => {
    await store.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
    await store.deposit('p1', 1_000, 'd1', T0);
    const sequenceMaster = await cluster.masterOf(store.keys.sequence(GAME, STAKE).current);
    const replica = await cluster.replicaOf(sequenceMaster);
    await replica.kill();
    const refused = await store.purchase({ playerId: 'p1', requestId: 'r1', game: GAME, stake: STAKE, now: T0 }).then(
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
    assert.equal(await store.balance('p1'), 1_000 - STAKE);
    assert.deepEqual((await store.journal('p1')).map((j) => j.kind), ['deposit', 'stake']);
  });

  it('deals nothing for a purchase whose hold no replica acknowledged, and deals it on the retry', async () => {
    await store.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
    const sequenceMaster = await cluster.masterOf(store.keys.sequence(GAME, STAKE).current);
    // A player whose wallet lives on another master than the sequence.
    let playerId = '';
    for (let i = 0; !playerId; i++) {
      if ((await cluster.masterOf(store.keys.player(`p${i}`).wallet)) !== sequenceMaster) playerId = `p${i}`;
    }
    await store.deposit(playerId, 1_000, 'd1', T0);
    const replica = await cluster.replicaOf(await cluster.masterOf(store.keys.player(playerId).wallet));
    await replica.kill();
    await assert.rejects(store.purchase({ playerId, requestId: 'r1', game: GAME, stake: STAKE, now: T0 }), (err: unknown) => isStoreOutage(err));
    assert.equal((await store.listEmissions())[0]!.blocks[0]!.sold, 0, 'no unit dealt on an unacknowledged hold');
    await replica.restart();
    await cluster.ready();
    const { result } = await buyUntilAnswered(store, playerId, 'r1', T0 + 5_000);
    assert.ok(result.ok && result.sale.unitId === 'e.0:0');
    assert.equal(await store.balance(playerId), 1_000 - STAKE);
  });

  it('keeps every acknowledged purchase, once, with exact balances, when a master is SIGKILLed mid-purchases', async () => {
    const players = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const blocks = 60;
    await store.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: blocks, now: T0 });
    for (const p of players) await store.deposit(p, DEPOSIT, `d-${p}`, T0);
    const victim = await cluster.masterOf(store.keys.sequence(GAME, STAKE).current);

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
      const sale = await store.getSale(ack.unitId);
      assert.ok(sale, `unit ${ack.unitId} kept`);
      assert.equal(sale.playerId, ack.playerId);
      assert.equal(sale.requestId, ack.requestId);
    }
    const emission = (await store.listEmissions())[0]!;
    const sold = emission.blocks.reduce((n, b) => n + b.sold, 0);
    assert.equal(sold, acks.length, 'every unit sold was acknowledged');
    // Balances exact: each player's journal has exactly its acknowledged units, debited once.
    for (const playerId of players) {
      const mine = acks.filter((a) => a.playerId === playerId).map((a) => a.unitId).sort();
      const journal = await store.journal(playerId);
      assert.deepEqual(journal.filter((j) => j.kind === 'stake').map((j) => j.ref).sort(), mine);
      assert.equal(await store.balance(playerId), DEPOSIT - STAKE * mine.length);
      assert.equal(journal.at(-1)!.balance, DEPOSIT - STAKE * mine.length);
      assert.deepEqual(await client.hgetall(store.keys.player(playerId).pending), {}, 'nothing left pending');
    }
  });
});
