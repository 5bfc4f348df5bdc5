import { strict as assert } from 'node:assert';
import type { DealerStore, PurchaseResult } from '../../src/dealer/types';
import type { StoreFactory } from './store-conformance';
import { assertPagesLogged } from './support/page-log-check';
import { NOEL_50, scaledTable, TEN_UNIT_TABLE } from './support/test-tables';

const T0 = 1_700_000_000_000;
/** Two pages a block: 4,096 positions and 904. */
const TWO_PAGES = scaledTable(NOEL_50, 5_000);

/**
 * The shared suite of the log of page roots (`PageLog`, src/fairness/page-log.ts): every store
 * appends each page it publishes once, in publication order, whichever handle publishes it.
 * `open` is the factory of the store's conformance suite.
 */
export function pageLogConformance(name: string, open: StoreFactory): void {
  describe(`log of page roots (${name})`, function () {
    this.timeout(30_000);
    let closers: (() => Promise<void>)[] = [];
    afterEach(async () => {
      await Promise.all(closers.map((close) => close()));
      closers = [];
    });

    async function dealers(handles: number): Promise<DealerStore[]> {
      const opened = await open(handles);
      closers.push(opened.close);
      return opened.stores;
    }

    let requests = 0;
    function buy(store: DealerStore, playerId: string, table = TWO_PAGES): Promise<PurchaseResult> {
      return store.sales.purchase({ playerId, requestId: `r${++requests}`, game: table.game, stake: table.stake, now: T0 + requests });
    }

    /** Two handles buy `each` units each for every player, all at once. */
    async function buyFromBoth(stores: DealerStore[], players: string[], each: number, table = TWO_PAGES): Promise<void> {
      await Promise.all(stores.flatMap((store) => players.map(async (p) => {
        for (let k = 0; k < each; k++) assert.ok((await buy(store, p, table)).ok);
      })));
    }

    it('is empty before any emission, and knows no page', async () => {
      const [store] = (await dealers(1)) as [DealerStore];
      assert.equal(await store.log.logSize(), 0);
      assert.deepEqual(await store.log.logLeaves(0, 10), []);
      assert.equal(await store.log.logIndexOf('noel-test.0', 0), undefined);
    });

    it('holds the page 0 of every block printed when the emission opens', async () => {
      const [store] = (await dealers(1)) as [DealerStore];
      const info = await store.emissions.openEmission({ emissionId: 'noel-test', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
      const leaves = await assertPagesLogged(store, info.blocks.map((b) => ({ ...b })));
      assert.equal(leaves.length, info.blocks.length);
      assert.deepEqual(await store.log.logLeaves(1, 5), leaves.slice(1), 'read from an index on');
    });

    it('appends every page published while two dealers sell at once, each once, in page order per block, never changing what it held', async () => {
      const stores = await dealers(2);
      await stores[0]!.emissions.openEmission({ emissionId: 'pages', table: TWO_PAGES, blockCount: 3, now: T0 });
      const players = ['a', 'b', 'c', 'd'];
      for (const p of players) await stores[0]!.wallets.deposit(p, 1_000_000, `d-${p}`, T0);
      const before = await stores[1]!.log.logLeaves(0, 100);
      await buyFromBoth(stores, players, 5);
      await Promise.all(stores.map((s) => s.close()));
      const blocks = (await stores[1]!.emissions.listEmissions()).flatMap((e) => e.blocks);
      const leaves = await assertPagesLogged(stores[1]!, blocks);
      assert.ok(leaves.some((l) => l.includes(' 1 ')), 'a page 1 was published ahead of the sales');
      assert.deepEqual(leaves.slice(0, before.length), before, 'what the log held is still its beginning');
      assert.deepEqual(await stores[0]!.log.logLeaves(0, leaves.length), leaves, 'every handle reads the same log');
    });

    it('appends the page of every block when two dealers sell a run of blocks out at once, printing ahead as they go', async () => {
      const stores = await dealers(2);
      await stores[0]!.emissions.openEmission({ emissionId: 'noel-test', table: TEN_UNIT_TABLE, blockCount: 12, now: T0 });
      const players = ['a', 'b', 'c', 'd', 'e'];
      for (const p of players) await stores[0]!.wallets.deposit(p, 1_000_000, `d-${p}`, T0);
      await buyFromBoth(stores, players, 12, TEN_UNIT_TABLE);
      await Promise.all(stores.map((s) => s.close()));
      const blocks = (await stores[0]!.emissions.listEmissions()).flatMap((e) => e.blocks);
      assert.equal(blocks.length, 12);
      assert.equal((await assertPagesLogged(stores[0]!, blocks)).length, 12);
    });
  });
}
