import { strict as assert } from 'node:assert';
import { firstLane } from '../../src/dealer/redis/keys';
import { RedisStore } from '../../src/dealer/redis/store';
import { defineDealerScripts } from '../../src/dealer/scripts/commands';
import { openEmission } from '../../src/dealer/scripts/open-emission';
import { canonicalTable } from '../../src/dealer/identifiers';
import { gamePrice } from '../../src/ids';
import { pageTreeOfPrint, rootOfPage } from '../../src/fairness/merkle';
import { printNewBlock, tierCounts, UNSOLD } from '../../src/fairness/printing';
import type { Sale } from '../../src/dealer/types';
import { RedisCluster } from '../../tools/redis-cluster';
import { dealOnLane, reserveThenDie } from './support/cut-purchase';
import { TEN_UNIT_TABLE } from './support/test-tables';

const GAME = TEN_UNIT_TABLE.game;
const STAKE = TEN_UNIT_TABLE.stake;
const T0 = 1_700_000_000_000;
const LANES = 3;

/** `count` request ids of `playerId` whose walk over 3 lanes starts on `lane`. */
function idsOnLane(playerId: string, lane: number, count: number, tag: string): string[] {
  const ids: string[] = [];
  for (let i = 0; ids.length < count; i++) if (firstLane(playerId, `${tag}${i}`, LANES) === lane) ids.push(`${tag}${i}`);
  return ids;
}

/**
 * Lanes (docs/dealer.md, "Lanes") on a local Redis Cluster (3 masters, 3 replicas), per slot
 * with WAIT: one game and price dealt over 3 hash slots. The conformance suite runs with 3
 * lanes too (redis-cluster-store.test.ts); these are what only lanes have.
 */
describe('dealer lanes (per slot, on a local Redis Cluster)', function () {
  this.timeout(60_000);
  let cluster: RedisCluster;
  before(async () => {
    cluster = await RedisCluster.start();
  });
  after(async () => {
    await cluster?.stop();
  });

  let prefixes = 0;
  let closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.map((close) => close()));
    closers = [];
  });

  /** `handles` dealers of `lanes` lanes on one fresh prefix, each with its own connection. */
  function dealers(handles: number, lanes = LANES, prefix = `l${++prefixes}`) {
    const clients = Array.from({ length: handles }, () => cluster.client({ enableAutoPipelining: true }));
    const stores = clients.map((client) => new RedisStore(client, { prefix, protocol: 'per-slot', waitReplicas: 1, sequenceLanes: lanes }));
    closers.push(async () => {
      await Promise.all(stores.map((s) => s.close()));
      await Promise.all(clients.map((c) => c.quit()));
    });
    return { stores, clients, prefix };
  }

  const buy = (store: RedisStore, playerId: string, requestId: string, now = T0) =>
    store.sales.purchase({ playerId, requestId, game: GAME, stake: STAKE, now });

  function sold(result: Awaited<ReturnType<RedisStore['sales']['purchase']>>): Sale {
    if (!result.ok) assert.fail(`purchase refused: ${result.code}`);
    return result.sale;
  }

  it('sells out an emission of 6 blocks over 3 lanes exactly under concurrent buyers, the lanes on different masters', async () => {
    const { stores, clients } = dealers(4);
    const info = await stores[0]!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 6, now: T0 });
    assert.deepEqual(info.blocks.map((b) => b.state), ['open', 'open', 'open', 'printed', 'printed', 'printed']);
    const players = Array.from({ length: 12 }, (_, i) => `p${i}`);
    for (const p of players) await stores[0]!.wallets.deposit(p, 1_000, `d-${p}`, T0);
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => buy(stores[i % 4]!, players[i % 12]!, `r${i}`, T0 + i)));
    const sales = results.flatMap((r) => (r.ok ? [r.sale] : []));
    assert.equal(sales.length, 60);
    assert.ok(results.every((r) => r.ok || r.code === 'purchase/game_closed'));
    assert.equal(new Set(sales.map((s) => s.unitId)).size, 60, 'each unit sold once');
    const blocks = (await stores[1]!.emissions.listEmissions())[0]!.blocks;
    assert.deepEqual(blocks.map((b) => b.index), [0, 1, 2, 3, 4, 5]);
    for (const block of blocks) {
      assert.equal(block.state, 'closed');
      assert.deepEqual(block.soldPerTier, tierCounts(TEN_UNIT_TABLE), block.blockId);
      assert.ok(!(await stores[2]!.pages.recordedTiers(block.blockId))!.includes(UNSOLD));
    }
    for (const p of players) assert.equal(await stores[3]!.wallets.balance(p), 1_000 - STAKE * sales.filter((s) => s.playerId === p).length);
    const after = await buy(stores[0]!, 'p0', 'after');
    assert.equal(!after.ok && after.code, 'purchase/game_closed', 'no sale after');
    // Each lane under its own hash tag, in its own slot; here each on its own master.
    const currents = Array.from({ length: LANES }, (_, lane) => stores[0]!.keys.lane(GAME, STAKE, lane).current);
    const slots = await Promise.all(currents.map(async (key) => Number(await clients[0]!.cluster('KEYSLOT', key))));
    assert.equal(new Set(slots).size, LANES, `slots ${slots.join(', ')}`);
    const dealtOn = new Set<number>();
    for (const block of blocks) {
      const sales = `${stores[0]!.keys.lane(GAME, STAKE, block.index % LANES).base}block:${block.blockId}:sales`;
      assert.equal(await clients[0]!.hlen(sales), 10, `${block.blockId}'s sales on its lane`);
      dealtOn.add((await cluster.masterOf(sales)).port);
    }
    assert.ok(dealtOn.size >= 2, `dealt on ${dealtOn.size} master(s)`);
  });

  it('walks on past sold-out lanes, and refuses a purchase as game closed only once every lane is sold out', async () => {
    const { stores } = dealers(1);
    const [store] = stores as [RedisStore];
    await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: LANES, now: T0 });
    await store.wallets.deposit('p1', 10_000, 'd1', T0);
    // Every request starts on lane 0 (block 0), then walks to lane 1 (block 1), then lane 2.
    const ids = idsOnLane('p1', 0, 31, 'w');
    const sales: Sale[] = [];
    for (const id of ids.slice(0, 30)) sales.push(sold(await buy(store, 'p1', id)));
    assert.deepEqual(sales.map((s) => s.blockId), [...Array(10).fill('e.0'), ...Array(10).fill('e.1'), ...Array(10).fill('e.2')]);
    const last = await buy(store, 'p1', ids[30]!);
    assert.equal(!last.ok && last.code, 'purchase/game_closed');
    assert.equal(await store.wallets.balance('p1'), 10_000 - 30 * STAKE);
  });

  it('answers a retry whose first lane sold out with the unit another lane dealt, charged once', async () => {
    const { stores } = dealers(2);
    const [store, other] = stores as [RedisStore, RedisStore];
    await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: LANES, now: T0 });
    await store.wallets.deposit('p1', 1_000, 'd1', T0);
    for (const id of idsOnLane('p1', 0, 10, 'a')) sold(await buy(store, 'p1', id));
    const [retried] = idsOnLane('p1', 0, 1, 'retried');
    const first = sold(await buy(store, 'p1', retried!));
    assert.equal(first.blockId, 'e.1', 'dealt by the next lane');
    const again = await Promise.all([buy(store, 'p1', retried!, T0 + 5), buy(other, 'p1', retried!, T0 + 6)]);
    for (const result of again) assert.ok(result.ok && result.repeated && result.sale.unitId === first.unitId);
    assert.equal(await store.wallets.balance('p1'), 1_000 - 11 * STAKE);
    const blocks = (await store.emissions.listEmissions())[0]!.blocks;
    assert.deepEqual(blocks.map((b) => b.sold), [10, 1, 0], 'nothing dealt twice');
  });

  it('recovers a purchase cut after a lane other than its first dealt it, even once another emission sells on the lanes', async () => {
    const { stores, clients } = dealers(1);
    const [store] = stores as [RedisStore];
    const client = clients[0]!;
    await store.emissions.openEmission({ emissionId: 'x', table: TEN_UNIT_TABLE, blockCount: LANES, now: T0 });
    await store.wallets.deposit('p1', 1_000, 'd1', T0);
    await store.wallets.deposit('p2', 10_000, 'd2', T0);
    for (const id of idsOnLane('p2', 0, 10, 'a')) sold(await buy(store, 'p2', id));
    // p1's purchase: held, turned away by its first lane (sold out), dealt by lane 1; then its process died.
    const [cut] = idsOnLane('p1', 0, 1, 'cut');
    await reserveThenDie(store, client, 'p1', cut!, T0);
    const purchase = { playerId: 'p1', requestId: cut!, now: T0, picks: '', balanceBefore: 1_000, passMarked: true };
    assert.deepEqual((await dealOnLane(store, client, 0, purchase)).results.map((r) => r.kind === 'refused' && r.error.code), ['purchase/game_closed']);
    const [dealt] = (await dealOnLane(store, client, 1, purchase)).results;
    assert.ok(dealt?.kind === 'sold' && dealt.index === 1);
    // The emission sells out and another opens on the same lanes before the recovery runs.
    for (let i = 0; i < 19; i++) sold(await buy(store, 'p2', `b${i}`));
    await store.emissions.openEmission({ emissionId: 'y', table: TEN_UNIT_TABLE, blockCount: LANES, now: T0 + 10 });
    assert.equal(await store.recoverPurchases(T0 + 10), 1);
    const sale = await store.sales.getSale(`x.1:${dealt.position}`);
    assert.equal(sale?.requestId, cut);
    assert.equal(await store.wallets.balance('p1'), 1_000 - STAKE);
    assert.deepEqual((await store.wallets.journal('p1')).map((j) => [j.kind, j.ref]), [['deposit', 'd1'], ['stake', sale!.unitId]]);
    const y = (await store.emissions.listEmissions()).find((e) => e.emissionId === 'y')!;
    assert.deepEqual(y.blocks.map((b) => b.sold), [0, 0, 0], 'nothing dealt in the new emission');
    const retried = await buy(store, 'p1', cut!, T0 + 20);
    assert.ok(retried.ok && retried.repeated && retried.sale.unitId === sale!.unitId);
  });

  it('sells a request refused while every lane was sold out once another emission opens', async () => {
    const { stores } = dealers(1);
    const [store] = stores as [RedisStore];
    await store.emissions.openEmission({ emissionId: 'x', table: TEN_UNIT_TABLE, blockCount: LANES, now: T0 });
    await store.wallets.deposit('p1', 10_000, 'd1', T0);
    for (let i = 0; i < 30; i++) sold(await buy(store, 'p1', `a${i}`));
    const refused = await buy(store, 'p1', 'later');
    assert.equal(!refused.ok && refused.code, 'purchase/game_closed');
    await store.emissions.openEmission({ emissionId: 'y', table: TEN_UNIT_TABLE, blockCount: LANES, now: T0 + 10 });
    const later = await buy(store, 'p1', 'later', T0 + 20);
    assert.ok(later.ok && !later.repeated && later.sale.blockId.startsWith('y.'));
  });

  it('completes the lanes of an emission whose opener died after its first lane, before dealing it', async () => {
    const { stores, clients } = dealers(1);
    const [store] = stores as [RedisStore];
    const lane0 = store.keys.lane(GAME, STAKE, 0);
    const first = printNewBlock(TEN_UNIT_TABLE, 'e.0');
    await openEmission(defineDealerScripts(clients[0]!), { current: lane0.current, base: lane0.base }, {
      emissionId: 'e',
      gamePrice: gamePrice(GAME, STAKE),
      tableJson: JSON.stringify(canonicalTable(TEN_UNIT_TABLE)),
      blockSize: TEN_UNIT_TABLE.blockSize,
      blockCount: LANES,
      prizes: TEN_UNIT_TABLE.tiers.map((t) => t.prize),
      now: T0,
      lanes: LANES,
      lane: 0,
      first: { ...first, firstPageRoot: Buffer.from(rootOfPage(pageTreeOfPrint(first, 0))).toString('hex') },
    });
    await store.wallets.deposit('p1', 1_000, 'd1', T0);
    const [id] = idsOnLane('p1', 2, 1, 'r');
    assert.equal(sold(await buy(store, 'p1', id!)).blockId, 'e.2', 'dealt on its own lane, opened first');
    const info = await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: LANES, now: T0 });
    assert.deepEqual(info.blocks.map((b) => [b.index, b.state, b.sold]), [[0, 'open', 0], [1, 'open', 0], [2, 'open', 1]]);
  });

  it('keeps an emission opened with one lane on one lane when a store of 3 opens it again', async () => {
    const { prefix } = dealers(0);
    const [one] = dealers(1, 1, prefix).stores as [RedisStore];
    const [three] = dealers(1, LANES, prefix).stores as [RedisStore];
    const opened = await one.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
    assert.deepEqual(await three.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 }), opened);
    await three.wallets.deposit('p1', 1_000, 'd1', T0);
    const sales: Sale[] = [];
    for (let i = 0; i < 11; i++) sales.push(sold(await buy(three, 'p1', `r${i}`)));
    assert.deepEqual(sales.map((s) => s.blockId), [...Array(10).fill('e.0'), 'e.1']);
  });
});
