import { strict as assert } from 'node:assert';
import { MemoryStore, type MemoryStoreOptions } from '../../src/dealer/memory/store';
import type { Sale } from '../../src/dealer/types';
import { blockIdOf } from '../../src/ids';
import { pageLogConformance } from './page-log-conformance';
import { storeConformance, type StoreFactory } from './store-conformance';
import { UNSOLD } from '../../src/fairness/printing';
import { TEN_UNIT_TABLE } from './support/test-tables';

const openMemory: StoreFactory = async (handles, options) => {
  const store = new MemoryStore(options);
  return { stores: Array.from({ length: handles }, () => store), close: () => store.close() };
};
storeConformance('memory', openMemory);
pageLogConformance('memory', openMemory);

describe('memory store, bounded (keepSettled)', () => {
  const T0 = 1_700_000_000_000;
  let clock = 0;

  async function bounded(keepSettled: MemoryStoreOptions['keepSettled'], blockCount = 5, options: MemoryStoreOptions = {}) {
    const forgotten: string[] = [];
    const store = new MemoryStore({ keepSettled, forgotten: (ids) => forgotten.push(...ids), ...options });
    await store.emissions.openEmission({ emissionId: 'noel-test', table: TEN_UNIT_TABLE, blockCount, now: T0 });
    if (!options.fundedByOperator) for (const p of ['p1', 'p2']) await store.wallets.deposit(p, 1_000_000, 'start', T0);
    return { store, forgotten };
  }

  async function buy(store: MemoryStore, playerId: string): Promise<Sale> {
    const result = await store.sales.purchase({ playerId, requestId: `r${++clock}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + clock });
    if (!result.ok) assert.fail(`${result.code}: ${result.message}`);
    return result.sale;
  }

  async function buyAndSettle(store: MemoryStore, playerId: string): Promise<Sale> {
    const sale = await buy(store, playerId);
    assert.equal((await store.sales.settle(sale.unitId, T0 + ++clock)).ok, true);
    return sale;
  }

  it('keeps the last N settled units of a player and forgets the older ones', async () => {
    const { store, forgotten } = await bounded({ perPlayer: 3, total: 100 });
    const sales: Sale[] = [];
    for (let i = 0; i < 5; i++) sales.push(await buyAndSettle(store, 'p1'));
    const kept = sales.slice(2).map((s) => s.unitId);
    assert.deepEqual(forgotten, sales.slice(0, 2).map((s) => s.unitId));
    assert.deepEqual((await store.sales.listSales('p1', 0, 100)).map((s) => s.unitId), [...kept].reverse());
    for (const sale of sales.slice(0, 2)) assert.equal(await store.sales.getSale(sale.unitId), undefined);
    for (const unitId of kept) assert.ok(await store.sales.getSale(unitId));
  });

  it('never forgets a unit that is not settled, however many are sold', async () => {
    const { store } = await bounded({ perPlayer: 1, total: 2 }, 10);
    const open = await buy(store, 'p2');
    for (let i = 0; i < 6; i++) await buyAndSettle(store, 'p1');
    assert.deepEqual(await store.sales.getSale(open.unitId), open);
    assert.deepEqual((await store.sales.unsettledSales(T0 + clock, 100)).map((s) => s.unitId), [open.unitId]);
    assert.deepEqual((await store.sales.listSales('p2', 0, 100)).map((s) => s.unitId), [open.unitId]);
  });

  it('keeps at most the global cap of settled units over all players, the oldest forgotten first', async () => {
    const { store, forgotten } = await bounded({ perPlayer: 10, total: 4 });
    const sales: Sale[] = [];
    for (let i = 0; i < 6; i++) sales.push(await buyAndSettle(store, i % 2 === 0 ? 'p1' : 'p2'));
    assert.deepEqual(forgotten, sales.slice(0, 2).map((s) => s.unitId));
    const kept = [...(await store.sales.listSales('p1', 0, 100)), ...(await store.sales.listSales('p2', 0, 100))];
    assert.deepEqual(kept.map((s) => s.unitId).sort(), sales.slice(2).map((s) => s.unitId).sort());
  });

  it('keeps the balance and the block counts exact, and drops the journal lines of forgotten units', async () => {
    const { store } = await bounded({ perPlayer: 2, total: 100 });
    const sales: Sale[] = [];
    for (let i = 0; i < 12; i++) sales.push(await buyAndSettle(store, 'p1'));
    const won = sales.reduce((sum, s) => sum + s.prize - s.stake, 0);
    assert.equal(await store.wallets.balance('p1'), 1_000_000 + won);
    const [first] = (await store.emissions.listEmissions()).map((e) => e.blocks[0]!);
    assert.equal(first!.sold, 10);
    assert.deepEqual(first!.soldPerTier.slice(1), TEN_UNIT_TABLE.tiers.map((t) => t.count));
    assert.ok(!(await store.pages.recordedTiers(first!.blockId))!.includes(UNSOLD), 'every position of the sold-out block recorded');
    const journal = await store.wallets.journal('p1');
    const kept = new Set(sales.slice(-2).map((s) => s.unitId));
    assert.deepEqual([...new Set(journal.filter((e) => e.kind !== 'deposit').map((e) => e.ref))].sort(), [...kept].sort());
    assert.equal(journal.at(-1)!.balance, 1_000_000 + won);
    assert.ok(journal.at(-1)!.seq > journal.length, 'lines keep their numbers');
  });

  it('never archives a block some of whose units it forgot', async () => {
    const { store } = await bounded({ perPlayer: 2, total: 100 });
    for (let i = 0; i < 10; i++) await buyAndSettle(store, 'p1');
    assert.deepEqual(await store.offloading.offloadableBlocks(T0 + clock + 1), []);
  });

  it('forgets a unit bought and its request: a retry of it is a new purchase', async () => {
    const { store } = await bounded({ perPlayer: 1, total: 100 });
    const first = await buy(store, 'p1');
    await store.sales.settle(first.unitId, T0 + ++clock);
    await buyAndSettle(store, 'p1');
    const retried = await store.sales.purchase({ playerId: 'p1', requestId: first.requestId, game: first.game, stake: first.stake, now: T0 + ++clock });
    assert.ok(retried.ok && !retried.repeated && retried.sale.unitId !== first.unitId);
  });

  it('refuses a bound that is not a whole number of at least one, and takes one', () => {
    assert.throws(() => new MemoryStore({ keepSettled: { perPlayer: 0, total: 10 } }), RangeError);
    assert.throws(() => new MemoryStore({ keepSettled: { perPlayer: 1, total: 1.5 } }), RangeError);
    assert.throws(() => new MemoryStore({ keepSettled: { perPlayer: 1, total: 0 } }), /keepSettled needs whole numbers ≥ 1: \{"perPlayer":1,"total":0\}/);
    assert.doesNotThrow(() => new MemoryStore({ keepSettled: { perPlayer: 1, total: 1 } }));
  });

  it('forgets without being asked to tell anyone', async () => {
    const store = new MemoryStore({ keepSettled: { perPlayer: 1, total: 10 } });
    await store.emissions.openEmission({ emissionId: 'noel-test', table: TEN_UNIT_TABLE, blockCount: 1, now: T0 });
    await store.wallets.deposit('p1', 1_000_000, 'start', T0);
    for (let i = 0; i < 3; i++) await buyAndSettle(store, 'p1');
    assert.equal((await store.sales.listSales('p1', 0, 10)).length, 1);
  });

  it("drops a forgotten unit's prize line even when other lines came between its stake and its prize", async () => {
    const { store } = await bounded({ perPlayer: 1, total: 100 });
    const sales: Sale[] = [];
    // A whole block (every winner of the table in it), each unit with a deposit between its purchase and its settlement.
    for (let i = 0; i < TEN_UNIT_TABLE.blockSize; i++) {
      const sale = await buy(store, 'p1');
      await store.wallets.deposit('p1', 1, `between-${i}`, T0 + ++clock);
      await store.sales.settle(sale.unitId, T0 + ++clock);
      sales.push(sale);
    }
    assert.ok(sales.slice(0, -1).some((s) => s.prize > 0), 'a forgotten unit won');
    const unitLines = (await store.wallets.journal('p1')).filter((e) => e.kind !== 'deposit');
    assert.deepEqual([...new Set(unitLines.map((e) => e.ref))], [sales.at(-1)!.unitId], 'only the unit kept has lines');
  });

  it('tells the units it forgot, and nothing after a settlement that forgot none', async () => {
    const calls: (readonly string[])[] = [];
    const store = new MemoryStore({ keepSettled: { perPlayer: 2, total: 100 }, forgotten: (ids) => calls.push(ids) });
    await store.emissions.openEmission({ emissionId: 'noel-test', table: TEN_UNIT_TABLE, blockCount: 1, now: T0 });
    await store.wallets.deposit('p1', 1_000_000, 'start', T0);
    const sales: Sale[] = [];
    for (let i = 0; i < 3; i++) sales.push(await buyAndSettle(store, 'p1'));
    assert.deepEqual(calls, [[sales[0]!.unitId]]);
  });

  it("drops a forgotten unit's lines when they open the journal (the operator holds the money: no deposit before)", async () => {
    const { store } = await bounded({ perPlayer: 1, total: 100 }, 5, { fundedByOperator: true });
    const first = await buyAndSettle(store, 'p1');
    const second = await buyAndSettle(store, 'p1');
    const refs = (await store.wallets.journal('p1')).map((e) => e.ref);
    assert.ok(!refs.includes(first.unitId), 'the first unit forgotten, its lines with it');
    assert.ok(refs.length > 0 && refs.every((ref) => ref === second.unitId));
  });
});

describe('memory store, printed from a given seed (printSeed)', () => {
  it('deals the same tiers in the same order from the same seed, and prints with that seed', async () => {
    const seed = new Uint8Array(32).fill(7);
    const dealt = async () => {
      const store = new MemoryStore({ printSeed: () => seed });
      await store.emissions.openEmission({ emissionId: 'noel-test', table: TEN_UNIT_TABLE, blockCount: 1, now: 0 });
      await store.wallets.deposit('p', 1_000_000, 'start', 0);
      const tiers: number[] = [];
      for (let i = 0; i < TEN_UNIT_TABLE.blockSize; i++) {
        const result = await store.sales.purchase({ playerId: 'p', requestId: `r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: i });
        if (!result.ok) assert.fail(result.code);
        tiers.push(result.sale.tierId);
      }
      return { tiers, seed: Buffer.from(await store.pages.blockSeed(blockIdOf('noel-test', 0))).toString('hex') };
    };
    const [a, b] = [await dealt(), await dealt()];
    assert.deepEqual(a, b);
    assert.equal(a.seed, Buffer.from(seed).toString('hex'));
  });
});

describe('memory store, its reads', () => {
  const T0 = 1_700_000_000_000;
  async function opened(): Promise<MemoryStore> {
    const store = new MemoryStore();
    await store.emissions.openEmission({ emissionId: 'noel-test', table: TEN_UNIT_TABLE, blockCount: 1, now: T0 });
    for (const p of ['p1', 'p2']) await store.wallets.deposit(p, 1_000_000, 'start', T0);
    return store;
  }
  const purchase = async (store: MemoryStore, playerId: string, requestId: string, now: number) => {
    const result = await store.sales.purchase({ playerId, requestId, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now });
    if (!result.ok) assert.fail(result.code);
    return result.sale;
  };

  it('gives copies of a block’s seed, recorded tiers and pages: changing them changes nothing kept', async () => {
    const store = await opened();
    await purchase(store, 'p1', 'r1', T0 + 1);
    const block = blockIdOf('noel-test', 0);
    const [seed, tiers, pages] = [await store.pages.blockSeed(block), (await store.pages.recordedTiers(block))!, (await store.pages.pageCommitments(block))!];
    const [seedCopy, tiersCopy, pagesCopy] = [seed.slice(), tiers.slice(), pages.slice()];
    seed.fill(0);
    tiers.fill(0);
    pages.length = 0;
    assert.deepEqual(await store.pages.blockSeed(block), seedCopy);
    assert.deepEqual(await store.pages.recordedTiers(block), tiersCopy);
    assert.deepEqual(await store.pages.pageCommitments(block), pagesCopy);
  });

  it('lists unsettled sales by their time of sale, even when a clock behind sold one later', async () => {
    const store = await opened();
    const later = await purchase(store, 'p1', 'r1', T0 + 10);
    const earlier = await purchase(store, 'p2', 'r2', T0 + 5);
    assert.deepEqual((await store.sales.unsettledSales(T0 + 10, 10)).map((s) => s.unitId), [earlier.unitId, later.unitId]);
  });

  it('says which unit it has no sale of, and refuses a settlement at no time', async () => {
    const store = await opened();
    const sale = await purchase(store, 'p1', 'r1', T0 + 1);
    assert.deepEqual(await store.sales.settle('noel-test.0.9', T0 + 2), { ok: false, code: 'settle/unknown_unit', message: 'no sale of unit noel-test.0.9' });
    await assert.rejects(store.sales.settle(sale.unitId, Number.NaN), RangeError);
  });
});

describe('memory store, what the archive reads', () => {
  const T0 = 1_700_000_000_000;

  it("puts each money line in the archive's outbox: a deposit with no game, a stake and a prize with theirs", async () => {
    const store = new MemoryStore();
    await store.emissions.openEmission({ emissionId: 'noel-test', table: TEN_UNIT_TABLE, blockCount: 1, now: T0 });
    await store.wallets.deposit('p1', 1_000, 'd1', T0);
    // A whole block: every winner of the table in it.
    for (let i = 1; i <= TEN_UNIT_TABLE.blockSize; i++) {
      const result = await store.sales.purchase({ playerId: 'p1', requestId: `r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + i });
      if (!result.ok) assert.fail(result.code);
      await store.sales.settle(result.sale.unitId, T0 + i);
    }
    const journal = await store.wallets.journal('p1');
    const entries = await store.outbox.read('money', undefined, 100);
    assert.deepEqual(
      entries.map((e) => ({ kind: e.kind, player: e.player, payload: e.payload })),
      journal.map((line) => ({
        kind: line.kind,
        player: 'p1',
        payload: { amount: line.amount, balance: line.balance, ref: line.ref, ...(line.kind === 'deposit' ? {} : { game: TEN_UNIT_TABLE.game }) },
      })),
    );
    assert.ok(journal.some((line) => line.kind === 'prize'));
  });

  it('keeps no outbox entries when no archive writer drains them (archive: false)', async () => {
    const store = new MemoryStore({ archive: false });
    await store.wallets.deposit('p1', 1_000, 'd1', T0);
    assert.deepEqual(await store.outbox.read('money', undefined, 100), []);
  });

  it('names each player with a wallet, whose journal the reconciliation reads', async () => {
    const store = new MemoryStore();
    assert.deepEqual(await store.journaledPlayers(), []);
    for (const p of ['p2', 'p1']) await store.wallets.deposit(p, 1_000, `d-${p}`, T0);
    assert.deepEqual((await store.journaledPlayers()).sort(), ['p1', 'p2']);
  });
});

describe('memory store, the withdrawal threshold', () => {
  const seed = new Uint8Array(32).fill(3);
  /** The same dealing each time (one seed): settles units in turn up to the first win. */
  async function firstWin(threshold?: number) {
    const store = new MemoryStore({ printSeed: () => seed, ...(threshold === undefined ? {} : { withdrawalThreshold: threshold }) });
    await store.emissions.openEmission({ emissionId: 'noel-test', table: TEN_UNIT_TABLE, blockCount: 1, now: 0 });
    await store.wallets.deposit('p', 1_000, 'start', 0);
    for (let i = 1; ; i++) {
      const result = await store.sales.purchase({ playerId: 'p', requestId: `r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: i });
      if (!result.ok) assert.fail(result.code);
      const before = await store.wallets.balance('p');
      await store.sales.settle(result.sale.unitId, i);
      if (result.sale.prize > 0) return { events: (await store.events.events(undefined, 10)).events, before, prize: result.sale.prize };
    }
  }

  it('tells the operator once a prize takes a balance from at most the threshold to above it, and only then', async () => {
    const { before, prize, events } = await firstWin();
    assert.deepEqual(events, [], 'no threshold, no event');
    const crossed = await firstWin(before);
    assert.deepEqual(crossed.events.map((e) => ({ kind: e.kind, balance: e.balance, threshold: e.threshold })), [{ kind: 'withdrawal_threshold', balance: before + prize, threshold: before }]);
    assert.deepEqual((await firstWin(before + prize)).events, [], 'reaching the threshold is not going above it');
    assert.deepEqual((await firstWin(before - 1)).events, [], 'already above it before the prize');
  });
});

describe('memory store, its emissions', () => {
  it('lists its emissions in the order of their ids, whatever the order they opened in', async () => {
    const store = new MemoryStore();
    // One a price: a price sells one emission at a time.
    for (const [id, stake] of [['noel-c', 50], ['noel-a', 100], ['noel-b', 200]] as const) {
      await store.emissions.openEmission({ emissionId: id, table: { ...TEN_UNIT_TABLE, stake }, blockCount: 1, now: 0 });
    }
    assert.deepEqual((await store.emissions.listEmissions()).map((e) => e.emissionId), ['noel-a', 'noel-b', 'noel-c']);
  });
});
