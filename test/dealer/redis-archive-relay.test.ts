import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import { IDEMPOTENCY_WINDOW_MS } from '../../src/dealer/identifiers';
import { RedisStore } from '../../src/dealer/redis/store';
import { defineDealerScripts } from '../../src/dealer/scripts/commands';
import { deposit } from '../../src/dealer/scripts/deposit';
import { relayArchive } from '../../src/dealer/scripts/relay-archive';
import { RedisServer } from '../../tools/redis-server';
import { TEN_UNIT_TABLE } from './support/test-tables';

const T0 = 1_700_000_000_000;
const { game, stake } = TEN_UNIT_TABLE;

/**
 * The archive's relay on the per-slot protocol (src/dealer/redis/archive-relay.ts): each money
 * entry written on the player's slot reaches the player's archive shard once, whatever is cut.
 */
describe('the archive relay (Redis, per-slot protocol)', () => {
  let server: RedisServer;
  let client: Redis;
  let store: RedisStore;
  let prefixes = 0;
  before(async function () {
    this.timeout(30_000);
    server = await RedisServer.start();
  });
  after(() => server?.stop());
  beforeEach(async () => {
    client = new Redis(server.url);
    store = new RedisStore(client, { prefix: `relay${++prefixes}`, protocol: 'per-slot' });
    await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 2, now: T0 });
  });
  afterEach(async () => {
    await store.close();
    client.disconnect();
  });

  const shard = () => store.keys.archiveShard('p1').stream;
  const inShard = async () => (await store.outbox.read(shard(), undefined, 100)).map((e) => `${e.kind} ${e.payload['ref']}`);
  const ownStream = () => client.xlen(store.keys.playerOutbox('p1'));

  it('relays a deposit before answering, and a unit\'s stake and prize before the unit counts as settled', async () => {
    await store.wallets.deposit('p1', 1_000, 'd1', T0);
    assert.deepEqual(await inShard(), ['deposit d1']);
    let won: { unitId: string; prize: number } | undefined;
    const refs: string[] = [];
    for (let i = 0; !won; i++) {
      const bought = await store.sales.purchase({ playerId: 'p1', requestId: `r${i}`, game, stake, now: T0 + i });
      assert.ok(bought.ok);
      assert.equal(await ownStream(), 1, 'the stake waits on the player\'s slot while the unit is in play');
      await store.sales.settle(bought.sale.unitId, T0 + i);
      refs.push(`stake ${bought.sale.unitId}`);
      if (bought.sale.prize > 0) {
        won = bought.sale;
        refs.push(`prize ${bought.sale.unitId}`);
      }
    }
    assert.deepEqual(await inShard(), ['deposit d1', ...refs]);
    assert.equal(await ownStream(), 0, 'trimmed once relayed');
    assert.ok(store.outbox.streams.includes(shard()), 'the writer drains the shard');
  });

  it('adds each entry once when a relay cut before its trim runs again, in the next window too', async () => {
    await store.wallets.deposit('p1', 1_000, 'd1', T0);
    const bought = await store.sales.purchase({ playerId: 'p1', requestId: 'r1', game, stake, now: T0 });
    assert.ok(bought.ok);
    // A relay whose process died after the shard took the stake, before the player's stream was trimmed.
    const entries = await client.xrange(store.keys.playerOutbox('p1'), '-', '+');
    const window = Math.floor(T0 / IDEMPOTENCY_WINDOW_MS);
    const { marks } = store.keys.archiveShard('p1');
    const run = defineDealerScripts(client);
    const relay = (w: number) => relayArchive(run, { stream: store.keys.outbox(shard()), marks: marks(w), previousMarks: marks(w - 1) }, { playerId: 'p1', marksTtlMs: IDEMPOTENCY_WINDOW_MS, entries });
    assert.equal(await relay(window), 1);
    assert.equal(await relay(window + 1), 0, 'the mark of the window before is read');
    await store.sales.settle(bought.sale.unitId, T0 + IDEMPOTENCY_WINDOW_MS);
    const kinds = await inShard();
    assert.deepEqual(kinds.filter((k) => k === `stake ${bought.sale.unitId}`), [`stake ${bought.sale.unitId}`], 'the stake once');
    assert.equal(kinds.length, bought.sale.prize > 0 ? 3 : 2);
  });

  it('relays, with the recovery, what a deposit whose process died before its relay left on the player\'s slot', async () => {
    // The deposit's own steps: the player announced in the pending index, then its script; no relay.
    await client.zadd(store.keys.pendingIndex(store.keys.pendingShard('p1')), 'GT', T0, 'p1');
    const player = store.keys.player('p1');
    await deposit(defineDealerScripts(client), { ...player, archive: store.keys.playerOutbox('p1') }, { playerId: 'p1', amount: 1_000, ref: 'd1', now: T0 });
    assert.deepEqual(await inShard(), []);
    await store.recoverPurchases(T0 - 1);
    assert.deepEqual(await inShard(), [], 'not older than the bound yet');
    await store.recoverPurchases(T0);
    assert.deepEqual(await inShard(), ['deposit d1']);
    assert.equal(await ownStream(), 0);
    assert.equal(await client.zscore(store.keys.pendingIndex(store.keys.pendingShard('p1')), 'p1'), null, 'nothing left to look for');
  });
});
