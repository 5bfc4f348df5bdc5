import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { moneyLines, moneyOnItsWay, reconcile } from '../../src/archive/reconcile';
import { writeOffloadedBlock } from '../../src/offload/unit-files';
import { Redis } from 'ioredis';
import { RedisStore, type RedisStoreOptions } from '../../src/dealer/redis/store';
import type { Sale } from '../../src/dealer/types';
import { RedisServer } from '../../tools/redis-server';
import { IDEMPOTENCY_WINDOW_MS } from '../../src/dealer/identifiers';
import { defineDealerScripts } from '../../src/dealer/scripts/commands';
import { creditPrize } from '../../src/dealer/scripts/credit-prize';
import { relayEvent } from '../../src/dealer/scripts/relay-event';
import { storeBlock } from '../../src/dealer/scripts/store-block';
import { pageRootOfProof, pageTreeOfPrint, rootOfPage } from '../../src/fairness/merkle';
import { commitmentOf, newBlockSeed, printBlock, printNewBlock } from '../../src/fairness/printing';
import { isStoreOutage } from '../../src/dealer/outage';
import { NOT_COMMANDS } from '../support/redis-commands';
import { pageLogConformance } from './page-log-conformance';
import { storeConformance, type StoreOptions } from './store-conformance';
import { dealOnLane, reserveThenDie } from './support/cut-purchase';
import { NOEL_50, scaledTable, TEN_UNIT_TABLE } from './support/test-tables';

let server: RedisServer;
before(async function () {
  this.timeout(30_000);
  server = await RedisServer.start();
});
after(async () => {
  await server?.stop();
});

let prefixes = 0;

/** `handles` stores on one fresh prefix, each with its own auto-pipelined connection. */
async function openStores(handles: number, options: StoreOptions & Pick<RedisStoreOptions, 'protocol' | 'sequenceLanes' | 'pageClaimMs'> = {}, prefix = `t${++prefixes}`) {
  const clients = Array.from({ length: handles }, () => new Redis(server.url, { enableAutoPipelining: true }));
  const stores = clients.map((client) => new RedisStore(client, { prefix, ...options }));
  return {
    stores,
    clients,
    async close() {
      await Promise.all(stores.map((s) => s.close()));
      await Promise.all(clients.map((c) => c.quit()));
    },
  };
}

storeConformance('redis', openStores);
storeConformance('redis, per-slot protocol', (handles, options) => openStores(handles, { ...options, protocol: 'per-slot' }));
pageLogConformance('redis', openStores);
pageLogConformance('redis, per-slot protocol, 3 lanes', (handles, options) => openStores(handles, { ...options, protocol: 'per-slot', sequenceLanes: 3 }));
storeConformance('redis, per-slot protocol, 3 lanes', (handles, options) => openStores(handles, { ...options, protocol: 'per-slot', sequenceLanes: 3 }), { lanes: 3 });

describe('dealer store (redis) specifics', () => {
  const T0 = 1_700_000_000_000;
  const buy = (store: RedisStore, requestId: string) =>
    store.sales.purchase({ playerId: 'p1', requestId, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 });

  it('prints a missing next block on the spot when its printer died', async () => {
    const { stores, clients, close } = await openStores(1);
    try {
      const [store] = stores;
      await store!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
      await store!.wallets.deposit('p1', 10_000, 'd1', T0);
      for (let i = 0; i < 10; i++) assert.ok((await buy(store!, `a${i}`)).ok);
      await store!.close(); // block 2, printed ahead when block 1 opened, is stored
      const block2 = store!.keys.blockKeys('noel-de-la-chance', 50, 'e.2');
      // As if the dealer that opened block 1 had died before printing block 2 (so before its page 0, the last leaf, entered the log).
      assert.equal(await clients[0]!.del(block2.units, block2.info), 2);
      assert.match((await clients[0]!.rpop(store!.keys.pageLog.leaves))!, / e\.2 0 /);
      assert.equal(await clients[0]!.hdel(store!.keys.pageLog.index, 'e.2:0'), 1);
      const sales = [];
      for (let i = 0; i < 20; i++) {
        const result = await buy(store!, `b${i}`);
        assert.ok(result.ok, `purchase ${i}`);
        sales.push(result.sale);
      }
      assert.deepEqual(sales.map((s) => s.unitId), [
        ...Array.from({ length: 10 }, (_, p) => `e.1:${p}`),
        ...Array.from({ length: 10 }, (_, p) => `e.2:${p}`),
      ]);
    } finally {
      await close();
    }
  });

  it('deals batches that cross many block boundaries, printing blocks as they are needed', async () => {
    const { stores, close } = await openStores(1);
    try {
      const [store] = stores;
      await store!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 25, now: T0 });
      await store!.wallets.deposit('p1', 1_000_000, 'd1', T0);
      // 260 at once: batches of up to 64, each running past several 10-unit blocks.
      const results = await Promise.all(Array.from({ length: 260 }, (_, i) => buy(store!, `m${i}`)));
      const sales = results.flatMap((r) => (r.ok ? [r.sale] : []));
      assert.equal(sales.length, 250);
      assert.ok(results.every((r) => r.ok || r.code === 'purchase/game_closed'));
      assert.equal(new Set(sales.map((s) => s.unitId)).size, 250);
      const emission = (await store!.emissions.listEmissions())[0]!;
      assert.equal(emission.blocks.length, 25);
      for (const block of emission.blocks) {
        assert.equal(block.state, 'closed');
        assert.deepEqual(block.soldPerTier, [4, 0, 0, 1, 1, 1, 2, 1]);
      }
    } finally {
      await close();
    }
  });

  it('keeps the request ids of a window in one hash that Redis drops within two windows', async () => {
    const window = 60_000;
    const { stores, clients, close } = await openStores(1, { idempotencyWindowMs: window });
    try {
      const [store] = stores;
      await store!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 2, now: T0 });
      await store!.wallets.deposit('p1', 1_000, 'd1', T0);
      assert.ok((await buy(store!, 'r1')).ok);
      const key = store!.keys.lane(TEN_UNIT_TABLE.game, TEN_UNIT_TABLE.stake).requests(Math.floor(T0 / window));
      assert.deepEqual(await clients[0]!.hgetall(key), { 'p1|r1': 'e.0:0' });
      const ttl = await clients[0]!.pttl(key);
      assert.ok(ttl > window && ttl <= 2 * window, `expires in ${ttl} ms`);
    } finally {
      await close();
    }
  });

  it('counts the units in play per game in the wallet, and forgets the count once they are settled', async () => {
    const { stores, clients, close } = await openStores(1);
    try {
      const [store] = stores;
      await store!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 2, now: T0 });
      await store!.wallets.deposit('p1', 1_000, 'd1', T0);
      const sales = [await buy(store!, 'r1'), await buy(store!, 'r2')].map((r) => (r.ok ? r.sale : assert.fail()));
      const wallet = store!.keys.player('p1').wallet;
      assert.equal(await clients[0]!.hget(wallet, 'n:noel-de-la-chance'), '2');
      for (const sale of sales) await store!.sales.settle(sale.unitId, T0 + 1);
      // What stays: the balance, and the stakes' window of the player's protection (p:…).
      assert.deepEqual(Object.keys(await clients[0]!.hgetall(wallet)).filter((field) => !field.startsWith('p:')), ['balance']);
    } finally {
      await close();
    }
  });

  it('drops the sales, settlements and printed bytes of an archived block, and keeps its info', async () => {
    const { stores, clients, close } = await openStores(1);
    const dir = mkdtempSync(join(tmpdir(), 'dealer-archive-'));
    try {
      const [store] = stores;
      await store!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 2, now: T0 });
      await store!.wallets.deposit('p1', 1_000, 'd1', T0);
      for (let i = 0; i < 10; i++) {
        const result = await buy(store!, `r${i}`);
        assert.ok(result.ok);
        await store!.sales.settle(result.sale.unitId, T0);
      }
      const sales = await store!.offloading.blockSales('e.0', 0, 10);
      const path = await writeOffloadedBlock(dir, 'e.0', 10, (async function* () {
        for (const sale of sales) yield { sale, actions: [] };
      })());
      await store!.offloading.markOffloaded('e.0', path, T0);
      const block = store!.keys.blockKeys(TEN_UNIT_TABLE.game, TEN_UNIT_TABLE.stake, 'e.0');
      assert.equal(await clients[0]!.exists(block.sales, block.settled, block.units), 0);
      assert.deepEqual(await clients[0]!.hmget(block.info, 'state', 'archive'), ['closed', path]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await close();
    }
  });

  it('stores a block and the root of its page 0 in one script, so no outage after it leaves the block without that root', async () => {
    const { stores, clients, close } = await openStores(1);
    try {
      const [store] = stores;
      await store!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
      const sequence = store!.keys.lane(TEN_UNIT_TABLE.game, TEN_UNIT_TABLE.stake);
      const print = printNewBlock(TEN_UNIT_TABLE, 'e.2');
      const root = Buffer.from(rootOfPage(pageTreeOfPrint(print, 0))).toString('hex');
      // Block 2 as a dealer prints it ahead; nothing of this process runs after the script.
      const stored = await storeBlock(defineDealerScripts(clients[0]!), { emission: store!.keys.emissionKey(TEN_UNIT_TABLE.game, TEN_UNIT_TABLE.stake, 'e'), base: sequence.base }, {
        emissionId: 'e',
        index: 2,
        block: { ...print, firstPageRoot: root },
        now: T0 + 5,
      });
      assert.equal(stored, true);
      const pages = store!.keys.blockKeys(TEN_UNIT_TABLE.game, TEN_UNIT_TABLE.stake, 'e.2').pages;
      assert.equal(await clients[0]!.hget(pages, '0'), `${root}|${T0 + 5}`);
      // The blocks the opening stored, likewise.
      const blocks = (await store!.emissions.listEmissions())[0]!.blocks;
      assert.deepEqual(blocks.map((b) => [b.blockId, b.scheme]), [['e.0', 3], ['e.1', 3]]);
    } finally {
      await close();
    }
  });

  it('keeps proving a block stored under scheme 2 (before scheme 3) as scheme 2, next to scheme 3 blocks', async () => {
    const { stores, clients, close } = await openStores(1);
    try {
      const [store] = stores;
      await store!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
      await store!.wallets.deposit('p1', 10_000, 'd1', T0);
      const sequence = store!.keys.lane(TEN_UNIT_TABLE.game, TEN_UNIT_TABLE.stake);
      // Block 2 as the code before scheme 3 printed it: salted leaves, the commitment without a domain.
      const seed = newBlockSeed();
      const units = printBlock(TEN_UNIT_TABLE, seed);
      const print = { seed, units, commitment: commitmentOf(seed, units, { version: 2 }), scheme: { version: 2 } } as const;
      const root = Buffer.from(rootOfPage(pageTreeOfPrint(print, 0))).toString('hex');
      const emission = store!.keys.emissionKey(TEN_UNIT_TABLE.game, TEN_UNIT_TABLE.stake, 'e');
      assert.ok(await storeBlock(defineDealerScripts(clients[0]!), { emission, base: sequence.base }, { emissionId: 'e', index: 2, block: { ...print, firstPageRoot: root }, now: T0 }));
      const sales: Sale[] = [];
      for (let i = 0; i < 21; i++) {
        const bought = await buy(store!, `r${i}`);
        assert.ok(bought.ok);
        sales.push(bought.sale);
      }
      const blocks = (await store!.emissions.listEmissions())[0]!.blocks;
      assert.deepEqual(blocks.map((b) => [b.blockId, b.scheme]), [['e.0', 3], ['e.1', 3], ['e.2', 2]]);
      for (const sale of [sales[0]!, sales[20]!]) {
        const proof = (await store!.pages.unitProof(sale.unitId))!;
        const [page] = (await store!.pages.pageCommitments(sale.blockId))!;
        assert.equal(proof.scheme, sale.blockId === 'e.2' ? 'merkle-sha256/v2' : 'merkle-sha256/v3');
        assert.equal(pageRootOfProof(proof, { game: sale.game, stake: sale.stake, blockId: sale.blockId }), page!.root, sale.unitId);
      }
    } finally {
      await close();
    }
  });

  it('keeps one sequence under one hash tag, one player under another, and the log of page roots under its own', async () => {
    const { stores, clients, close } = await openStores(1, {}, 'tags');
    try {
      const [store] = stores;
      await store!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 2, now: T0 });
      await store!.wallets.deposit('p1', 1_000, 'd1', T0);
      assert.ok((await buy(store!, 'r1')).ok);
      const keys = (await clients[0]!.keys('tags:*')).sort();
      const tags = new Set(keys.map((k) => /\{[^}]*\}/.exec(k)?.[0] ?? k));
      // The archive's outbox (docs/archive.md) and the log of page roots under tags of their own: one Redis only.
      assert.deepEqual([...tags].sort(), ['tags:emissions', '{archive}', '{page-log}', '{player:p1}', '{seq:noel-de-la-chance:50}']);
    } finally {
      await close();
    }
  });

  it('replays a funding reference recorded before its line was kept (its seq alone) from the journal, bound to its amount', async () => {
    const { stores, clients, close } = await openStores(1);
    try {
      const [store] = stores;
      const first = await store!.wallets.deposit('p1', 500, 'd1', T0);
      await clients[0]!.hset(store!.keys.player('p1').deposits, 'd1', '1');
      assert.deepEqual(await store!.wallets.deposit('p1', 500, 'd1', T0 + 1), { ...first, repeated: true });
      assert.equal((await store!.wallets.deposit('p1', 501, 'd1', T0 + 2)).ok, false);
      assert.equal((await store!.wallets.withdraw('p1', 500, 'd1', T0 + 3)).ok, false);
      assert.equal(await store!.wallets.balance('p1'), 500);
    } finally {
      await close();
    }
  });

  it('never shows negative stakes held for units bought before the wallet kept their total', async () => {
    const { stores, clients, close } = await openStores(1);
    try {
      const [store] = stores;
      await store!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 1, now: T0 });
      await store!.wallets.deposit('p1', 1_000, 'd1', T0);
      const bought = await buy(store!, 'r1');
      assert.ok(bought.ok);
      await clients[0]!.hdel(store!.keys.player('p1').wallet, 'staked');
      await store!.sales.settle(bought.sale.unitId, T0 + 1);
      assert.deepEqual(await store!.wallets.wallet('p1'), { balance: 1_000 - TEN_UNIT_TABLE.stake + bought.sale.prize, held: 0 });
      assert.equal(await clients[0]!.hexists(store!.keys.player('p1').wallet, 'staked'), 0);
    } finally {
      await close();
    }
  });

  describe('a Merkle page another dealer is hashing', () => {
    /** Three pages a block; the first purchase publishes pages 0 and 1 (one page ahead). */
    const PAGED = scaledTable(NOEL_50, 10_000);
    const FOREIGN_ROOT = 'ab'.repeat(32);

    async function opened(pageClaimMs: number) {
      const handle = await openStores(1, { pageClaimMs });
      const store = handle.stores[0]!;
      await store.emissions.openEmission({ emissionId: 'e', table: PAGED, blockCount: 1, now: T0 });
      await store.wallets.deposit('p1', 10_000, 'd1', T0);
      const keys = store.keys.blockKeys(PAGED.game, PAGED.stake, 'e.0');
      const purchase = () => store.sales.purchase({ playerId: 'p1', requestId: 'r1', game: PAGED.game, stake: PAGED.stake, now: T0 });
      return { ...handle, store, keys, redis: handle.clients[0]!, purchase };
    }

    it('is waited for: the dealer takes the root the other one publishes instead of hashing the page too', async () => {
      const { store, keys, redis, purchase, close } = await opened(10_000);
      try {
        assert.equal(await redis.set(keys.pageClaim(1), 'another dealer', 'PX', 10_000, 'NX'), 'OK');
        let answered = false;
        const bought = purchase().finally(() => (answered = true));
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(answered, false, 'the purchase waits for page 1, which the claim holder has not published');
        await redis.hset(keys.pages, '1', `${FOREIGN_ROOT}|${T0}`);
        assert.ok((await bought).ok);
        assert.equal((await store.pages.pageCommitments('e.0'))?.find((p) => p.page === 1)?.root, FOREIGN_ROOT);
      } finally {
        await close();
      }
    });

    /**
     * A store whose claim of page 1 is, as soon as it is taken, `then`: left alone, or taken
     * over by another dealer (as when the claim ran out while this dealer stalled); and whose
     * next script after the claim fails, as a blip would: its hashing fails.
     */
    async function failingAfterClaim(then: 'kept' | 'taken over') {
      const prefix = `t${++prefixes}`;
      const client = new Redis(server.url, { enableAutoPipelining: true });
      const claim = new RedisStore(client, { prefix }).keys.blockKeys(PAGED.game, PAGED.stake, 'e.0').pageClaim(1);
      let failNextScript = false;
      const proxy = new Proxy(client, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver) as unknown;
          if (typeof value !== 'function' || typeof prop !== 'string') return value;
          return async (...args: unknown[]) => {
            if (failNextScript && prop.startsWith('dealer_')) {
              failNextScript = false;
              throw new Error('Command timed out');
            }
            const reply = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            if (prop === 'set' && args[0] === claim) {
              if (then === 'taken over') await target.set(claim, 'another dealer');
              failNextScript = true;
            }
            return reply;
          };
        },
      });
      const store = new RedisStore(proxy, { prefix, pageClaimMs: 10_000 });
      await store.emissions.openEmission({ emissionId: 'e', table: PAGED, blockCount: 1, now: T0 });
      await store.wallets.deposit('p1', 10_000, 'd1', T0);
      await assert.rejects(store.sales.purchase({ playerId: 'p1', requestId: 'r1', game: PAGED.game, stake: PAGED.stake, now: T0 }), /timed out/);
      // The claim is dropped without waiting for the reply (the purchase has failed already).
      await new Promise((resolve) => setTimeout(resolve, 50));
      const left = await client.get(claim);
      await store.close();
      await client.quit();
      return left;
    }

    it('is given up by a dealer whose hashing failed, so that no one waits for its claim', async () => {
      assert.equal(await failingAfterClaim('kept'), null);
    });

    it('is not given up for another dealer by one whose claim ran out before its hashing failed', async () => {
      assert.equal(await failingAfterClaim('taken over'), 'another dealer');
    });

    const stale = [
      { claim: 'runs out (its dealer died)', expiry: ['PX', '300'] },
      { claim: 'was left without an expiry', expiry: [] },
    ];
    for (const { claim, expiry } of stale) {
      it(`is hashed here once its claim ${claim}, with the root its units prove`, async () => {
        const { store, keys, redis, purchase, close } = await opened(300);
        try {
          const started = performance.now();
          assert.equal(await redis.call('SET', keys.pageClaim(1), 'another dealer', ...expiry, 'NX'), 'OK');
          assert.ok((await purchase()).ok);
          assert.ok(performance.now() - started >= 250, 'not before the claim ran out');
          const published = (await store.pages.pageCommitments('e.0'))?.find((p) => p.page === 1);
          const seed = await store.pages.blockSeed('e.0');
          const tree = pageTreeOfPrint({ seed, units: printBlock(PAGED, seed), scheme: { version: 3, game: PAGED.game, stake: PAGED.stake, blockId: 'e.0' } }, 1);
          assert.equal(published?.root, Buffer.from(rootOfPage(tree)).toString('hex'));
        } finally {
          await close();
        }
      });
    }
  });
});

/**
 * The client, with its `failAt`-th command failing as a blip would: `before` it reaches Redis
 * (nothing done) or `after` it ran (its reply lost). Commands sent in pipelines are left alone.
 */
function failingOnce(client: Redis, failAt: number, when: 'before' | 'after'): { client: Redis; calls: () => number } {
  let calls = 0;
  const proxy = new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string' || NOT_COMMANDS.has(prop)) return value;
      return (...args: unknown[]) => {
        if (++calls !== failAt) return (value as (...a: unknown[]) => unknown).apply(target, args);
        const blip = new Error(when === 'before' ? 'Connection is closed.' : 'Command timed out');
        if (when === 'before') return Promise.reject(blip);
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args).then(() => Promise.reject(blip));
      };
    },
  });
  return { client: proxy, calls: () => calls };
}

describe('dealer store (redis): player protection across a restart of every process', () => {
  const T0 = 1_700_000_000_000;
  const HOUR = 3_600_000;
  const SETTINGS = { realityCheckMs: 60 * 60_000, sessionIdleMs: 30 * 60_000 };

  for (const protocol of ['one-script', 'per-slot'] as const) {
    it(`still refuses an excluded player, and keeps the limits, the block and the journal, once every store was closed and new ones opened (${protocol})`, async () => {
      const prefix = `restart-${protocol}`;
      const first = await openStores(2, { protocol }, prefix);
      const [a, b] = first.stores;
      await a!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
      await a!.wallets.deposit('p1', 10_000, 'd1', T0);
      await a!.wallets.deposit('p2', 10_000, 'd2', T0);
      await b!.protections.changeProtection('p1', { what: 'limits', limits: { stake_week: 5000 }, raiseDelayMs: 48 * HOUR }, T0);
      await b!.protections.changeProtection('p1', { what: 'exclusion', until: T0 + 30 * 24 * HOUR }, T0 + 1);
      await a!.protections.changeProtection('p2', { what: 'limits', limits: { stake_week: 5000 }, raiseDelayMs: 48 * HOUR }, T0);
      await a!.protections.changeProtection('p2', { what: 'block', reason: 'national_ban', until: null }, T0 + 1);
      await first.close();

      const second = await openStores(2, { protocol }, prefix);
      try {
        const [c, d] = second.stores;
        const buy = (store: RedisStore, playerId: string, now: number) =>
          store.sales.purchase({ playerId, requestId: `r${now}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now, protection: SETTINGS });
        const excluded = await buy(c!, 'p1', T0 + 2);
        assert.ok(!excluded.ok);
        assert.deepEqual([excluded.code, excluded.details], ['protection/excluded', { until: T0 + 30 * 24 * HOUR }]);
        const blocked = await buy(d!, 'p2', T0 + 2);
        assert.ok(!blocked.ok);
        assert.equal(blocked.code, 'protection/blocked');
        const { record, history } = await d!.protections.protectionRecord('p1');
        assert.equal(record.limits.stake_week.amount, 5000);
        assert.deepEqual(history.map((change) => change.what), ['exclusion', 'limit']);
        assert.ok((await buy(c!, 'p1', T0 + 30 * 24 * HOUR)).ok, 'the exclusion ends when it said');
      } finally {
        await second.close();
      }
    });
  }
});

describe('dealer store (redis) after one failed call', () => {
  const T0 = 1_700_000_000_000;
  const PURCHASES = 21; // over three 10-unit blocks, two of them opened on the way (each printing the next ahead)
  const DEPOSIT = 100_000;
  // Near the balance as the stakes take it down: some prizes take it back above.
  const THRESHOLD = DEPOSIT - 3 * TEN_UNIT_TABLE.stake;

  /** `call`, again while the store is out, as a client retries with the same ids (3 tries). */
  async function retried<T>(what: string, call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        if (!isStoreOutage(err) || attempt === 3) throw new Error(`${what}, attempt ${attempt}: ${(err as Error).message}`);
      }
    }
  }

  /** Buys and settles PURCHASES units, each call retried while the store is out; the calls made. */
  async function playThrough(protocol: 'one-script' | 'per-slot', failAt: number, when: 'before' | 'after'): Promise<number> {
    const setup = new Redis(server.url);
    const prefix = `blip${++prefixes}`;
    const clean = new RedisStore(setup, { prefix, protocol, withdrawalThreshold: THRESHOLD });
    await clean.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 4, now: T0 });
    await clean.wallets.deposit('p1', DEPOSIT, 'd1', T0);
    const { client, calls } = failingOnce(setup.duplicate({ enableAutoPipelining: true }), failAt, when);
    const store = new RedisStore(client, { prefix, protocol, withdrawalThreshold: THRESHOLD });
    const label = `${protocol}, call ${failAt} failing ${when}`;
    try {
      const units = new Set<string>();
      let prizes = 0;
      for (let i = 0; i < PURCHASES; i++) {
        const now = T0 + i;
        const bought = await retried(`${label}: purchase ${i}`, () => store.sales.purchase({ playerId: 'p1', requestId: `r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now }));
        assert.ok(bought.ok, `${label}: purchase ${i} refused: ${!bought.ok && bought.code}`);
        units.add(bought.sale.unitId);
        const settled = await retried(`${label}: settling ${bought.sale.unitId}`, () => store.sales.settle(bought.sale.unitId, now));
        assert.ok(settled.ok && settled.prize === bought.sale.prize, `${label}: ${bought.sale.unitId} settled with its prize`);
        prizes += bought.sale.prize;
      }
      await store.close();
      assert.equal(units.size, PURCHASES, `${label}: each purchase its own unit`);
      assert.equal(await clean.wallets.balance('p1'), DEPOSIT - PURCHASES * TEN_UNIT_TABLE.stake + prizes, `${label}: each stake debited once, each prize credited once`);
      const blocks = (await clean.emissions.listEmissions())[0]!.blocks;
      assert.deepEqual(blocks.filter((b) => b.scheme !== 3).map((b) => b.blockId), [], `${label}: every block stored with its page 0 root`);
      const crossings = (await clean.wallets.journal('p1')).filter((e) => e.kind === 'prize' && e.balance - e.amount <= THRESHOLD && e.balance > THRESHOLD);
      const events = (await clean.events.events(undefined, 500)).events;
      assert.deepEqual(events.map((e) => e.balance), crossings.map((e) => e.balance), `${label}: one withdrawal threshold event per crossing`);
      // The archive's entries, in its outbox or on their way to it (a relay cut), each line's once.
      const booked = (await clean.wallets.journal('p1')).map((j) => ({ player: 'p1', kind: j.kind, amount: j.amount, at: j.at, ref: j.ref, game: j.kind === 'stake' || j.kind === 'prize' ? TEN_UNIT_TABLE.game : '' }));
      const archived = moneyLines(await moneyOnItsWay(clean.outbox, new Map(), ['p1']));
      assert.deepEqual(reconcile(archived, booked).differences, [], `${label}: each journal line in the archive once`);
      return calls();
    } finally {
      await clean.close();
      client.disconnect();
      setup.disconnect();
    }
  }

  for (const protocol of ['one-script', 'per-slot'] as const) {
    it(`deals and settles on, each unit once, charged and credited once, archived once, whichever one call fails, before or after it ran (${protocol})`, async function () {
      this.timeout(300_000);
      const total = await playThrough(protocol, 0, 'before'); // no failure: how many calls a run makes
      assert.ok(total > 2 * PURCHASES, `${total} calls`);
      for (let failAt = 1; failAt <= total; failAt++) {
        for (const when of ['before', 'after'] as const) await playThrough(protocol, failAt, when);
      }
    });
  }
});

describe('dealer store (redis, per-slot protocol) recovery of purchases cut between steps', () => {
  const T0 = 1_700_000_000_000;
  const GAME = TEN_UNIT_TABLE.game;
  const STAKE = TEN_UNIT_TABLE.stake;

  /** A per-slot store on a fresh prefix, an emission of `blockCount` blocks open and p1 funded with 10 €. */
  async function withStore(blockCount: number, test: (store: RedisStore, client: Redis) => Promise<void>): Promise<void> {
    const { stores, clients, close } = await openStores(1, { protocol: 'per-slot' });
    try {
      await stores[0]!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount, now: T0 });
      await stores[0]!.wallets.deposit('p1', 1_000, 'd1', T0);
      await test(stores[0]!, clients[0]!);
    } finally {
      await close();
    }
  }

  it('deals and debits a purchase whose process died after holding its stake, once it is older than the bound', () =>
    withStore(2, async (store, client) => {
      await reserveThenDie(store, client, 'p1', 'r1', T0);
      // Held, not debited: the balance stands, but it cannot be withdrawn.
      assert.equal(await store.wallets.balance('p1'), 1_000);
      const refused = await store.wallets.withdraw('p1', 1_000, 'w1', T0);
      assert.ok(!refused.ok && refused.code === 'wallet/insufficient_funds' && refused.balance === 1_000 - STAKE, 'the refusal says what may be withdrawn');
      assert.deepEqual(await store.wallets.wallet('p1'), { balance: 1_000 - STAKE, held: STAKE }, 'the player sees the wallet as the purchase will leave it');
      assert.equal(await store.recoverPurchases(T0 - 1), 0, 'not older than the bound yet');
      assert.equal(await store.recoverPurchases(T0), 1);
      const sale = await store.sales.getSale('e.0:0');
      assert.equal(sale?.requestId, 'r1');
      assert.equal(sale?.soldAt, T0);
      assert.equal(await store.wallets.balance('p1'), 1_000 - STAKE);
      assert.deepEqual(await store.wallets.wallet('p1'), { balance: 1_000 - STAKE, held: STAKE }, 'the same once dealt: the stake in play');
      assert.deepEqual((await store.wallets.journal('p1')).map((j) => [j.kind, j.ref]), [['deposit', 'd1'], ['stake', 'e.0:0']]);
      assert.deepEqual(await client.hgetall(store.keys.player('p1').pending), {});
      assert.equal(await client.zcard(store.keys.pendingIndex(store.keys.pendingShard('p1'))), 0, 'the player left the index');
      // The client's own retry, later, gets that sale.
      const retried = await store.sales.purchase({ playerId: 'p1', requestId: 'r1', game: GAME, stake: STAKE, now: T0 + 90_000 });
      assert.ok(retried.ok && retried.repeated && retried.sale.unitId === 'e.0:0');
      assert.equal(await store.recoverPurchases(T0 + 90_000), 0);
    }));

  it('releases the stake of a purchase cut before dealing when the game sold out meanwhile', () =>
    withStore(1, async (store, client) => {
      await store.wallets.deposit('p2', 1_000, 'd2', T0);
      await reserveThenDie(store, client, 'p1', 'r1', T0);
      for (let i = 0; i < 10; i++) assert.ok((await store.sales.purchase({ playerId: 'p2', requestId: `s${i}`, game: GAME, stake: STAKE, now: T0 })).ok);
      assert.equal(await store.recoverPurchases(T0), 1);
      assert.equal(await store.wallets.balance('p1'), 1_000);
      const wallet = Object.entries(await client.hgetall(store.keys.player('p1').wallet));
      assert.deepEqual(Object.fromEntries(wallet.filter(([field]) => !field.startsWith('p:'))), { balance: '1000' }, 'nothing held, nothing in play');
      const { record } = await store.protections.protectionRecord('p1');
      assert.deepEqual(record.stakes.filter((bucket) => bucket.cents > 0), [], 'the held stake left the stake window');
      assert.deepEqual((await store.wallets.withdraw('p1', 1_000, 'w1', T0)).ok, true);
    }));

  it('takes the released stake back from the bucket of the hold\'s hour once the player bought in a later hour', () =>
    withStore(1, async (store, client) => {
      const HOUR = 3_600_000;
      await reserveThenDie(store, client, 'p1', 'r1', T0);
      // A later hour's purchase makes the hold's hour a bucket of its own, no longer the newest.
      assert.ok((await store.sales.purchase({ playerId: 'p1', requestId: 'r2', game: GAME, stake: STAKE, now: T0 + 2 * HOUR })).ok);
      await store.wallets.deposit('p2', 1_000, 'd2', T0);
      for (let i = 0; i < 9; i++) assert.ok((await store.sales.purchase({ playerId: 'p2', requestId: `s${i}`, game: GAME, stake: STAKE, now: T0 + 2 * HOUR })).ok);
      assert.equal(await store.recoverPurchases(T0 + 2 * HOUR), 1);
      const { record } = await store.protections.protectionRecord('p1');
      assert.deepEqual(record.stakes, [
        { hour: Math.floor(T0 / HOUR), cents: 0 },
        { hour: Math.floor(T0 / HOUR) + 2, cents: STAKE },
      ]);
    }));

  it('debits then credits, each once, a unit dealt whose purchase was never finished, when it is settled', () =>
    withStore(2, async (store, client) => {
      await reserveThenDie(store, client, 'p1', 'r1', T0);
      // The sequence's step ran, the player's last did not.
      await dealOnLane(store, client, 0, { playerId: 'p1', requestId: 'r1', now: T0, picks: '', balanceBefore: 1_000, passMarked: true });
      // The server's sweeper completes old unsettled units: settling finishes the purchase first.
      const [unit] = await store.sales.unsettledSales(T0, 10);
      assert.equal(unit?.unitId, 'e.0:0');
      const settled = await Promise.all([store.sales.settle('e.0:0', T0 + 1), store.sales.settle('e.0:0', T0 + 2)]);
      assert.equal(settled.filter((s) => s.ok && s.credited).length, 1, 'credited once');
      const prize = unit!.prize;
      assert.deepEqual(await store.wallets.wallet('p1'), { balance: 1_000 - STAKE + prize, held: 0 }, 'its stake held, then no more');
      const journal = await store.wallets.journal('p1');
      assert.deepEqual(journal.map((j) => j.kind), ['deposit', 'stake', ...(prize > 0 ? ['prize'] : [])]);
      assert.equal(journal.at(-1)!.balance, 1_000 - STAKE + prize);
      assert.equal(await store.recoverPurchases(T0 + 10), 0, 'nothing left to recover');
    }));

  it('tells the operator once of a threshold crossed by a settlement cut after its credit, or after its relay', async () => {
    const THRESHOLD = 500;
    const { stores, clients, close } = await openStores(1, { protocol: 'per-slot', withdrawalThreshold: THRESHOLD });
    try {
      const [store] = stores;
      const client = clients[0]!;
      await store!.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 1, now: T0 });
      await store!.wallets.deposit('p1', 1_000, 'd1', T0);
      const sales: Sale[] = [];
      for (let i = 0; i < 10; i++) {
        const bought = await store!.sales.purchase({ playerId: 'p1', requestId: `r${i}`, game: GAME, stake: STAKE, now: T0 });
        assert.ok(bought.ok);
        sales.push(bought.sale);
      }
      const [first, second] = sales.filter((s) => s.prize > 0);
      const player = store!.keys.player('p1');
      const run = defineDealerScripts(client);
      const creditOnly = (unitId: string, prize: number, now: number) =>
        creditPrize(run, { ...player, requests: player.requests(Math.floor(T0 / IDEMPOTENCY_WINDOW_MS)), archive: store!.keys.playerOutbox('p1') }, {
          field: `${GAME}:${STAKE}|${sales.find((s) => s.unitId === unitId)!.requestId}`, unitId, stake: STAKE, soldAt: T0, requestsTtlMs: IDEMPOTENCY_WINDOW_MS, prize, now, game: GAME, playerId: 'p1', withdrawalThreshold: THRESHOLD,
        });
      const streamLength = () => client.xlen(store!.keys.events);

      // Cut after the credit: the event waits in the wallet; the sweeper's settlement relays it.
      const credit = await creditOnly(first!.unitId, first!.prize, T0 + 1);
      assert.ok(credit.credited && credit.event !== undefined);
      assert.equal(await streamLength(), 0);
      assert.equal((await store!.sales.unsettledSales(T0 + 1, 10)).some((s) => s.unitId === first!.unitId), true, 'left for the sweeper');
      await store!.sales.settle(first!.unitId, T0 + 2);
      assert.equal(await streamLength(), 1);
      assert.equal(await client.hexists(player.wallet, `e:${first!.unitId}`), 0);
      assert.deepEqual((await store!.events.events(undefined, 10)).events.map(({ id: _, ...e }) => e), [
        { at: T0 + 1, playerId: 'p1', kind: 'withdrawal_threshold', balance: THRESHOLD + first!.prize, threshold: THRESHOLD },
      ], 'the credit\'s time and balance');

      // Cut after the relay, before the wallet dropped it: relayed again, added once.
      assert.ok((await store!.wallets.withdraw('p1', first!.prize, 'paid-out', T0 + 3)).ok);
      const again = await creditOnly(second!.unitId, second!.prize, T0 + 4);
      await relayEvent(run, { events: store!.keys.events, relayed: store!.keys.relayedEvents(Math.floor((T0 + 4) / IDEMPOTENCY_WINDOW_MS)) }, {
        key: `p1|${second!.unitId}`, event: again.event!, relayedTtlMs: IDEMPOTENCY_WINDOW_MS,
      });
      assert.equal(await streamLength(), 2);
      await store!.sales.settle(second!.unitId, T0 + 5);
      await store!.sales.settle(second!.unitId, T0 + 6);
      assert.equal(await streamLength(), 2, 'no duplicate');
      assert.equal(await client.hexists(player.wallet, `e:${second!.unitId}`), 0);
      assert.ok(!(await store!.sales.unsettledSales(T0 + 10, 10)).some((s) => s.unitId === second!.unitId), 'marked settled');
    } finally {
      await close();
    }
  });

  it('credits a settlement cut after its credit once, and the sweeper\'s settlement marks it', () =>
    withStore(2, async (store, client) => {
      const bought = await store.sales.purchase({ playerId: 'p1', requestId: 'r1', game: GAME, stake: STAKE, now: T0 });
      assert.ok(bought.ok);
      const { sale } = bought;
      // The buyer's step of a settlement ran, the sequence's did not (its process died).
      const player = store.keys.player('p1');
      const credit = await creditPrize(defineDealerScripts(client), { ...player, requests: player.requests(Math.floor(T0 / IDEMPOTENCY_WINDOW_MS)), archive: store.keys.playerOutbox('p1') }, {
        field: `${GAME}:${STAKE}|r1`, unitId: sale.unitId, stake: STAKE, soldAt: T0, requestsTtlMs: IDEMPOTENCY_WINDOW_MS, prize: sale.prize, now: T0 + 1, game: GAME, playerId: 'p1', withdrawalThreshold: undefined,
      });
      assert.equal(credit.credited, true);
      assert.equal((await store.sales.getSale(sale.unitId))?.settledAt, undefined, 'not marked settled yet');
      const [left] = await store.sales.unsettledSales(T0 + 1, 10);
      assert.equal(left?.unitId, sale.unitId, 'still in the unsettled set, for the sweeper');
      const settled = await store.sales.settle(sale.unitId, T0 + 2);
      assert.ok(settled.ok && !settled.credited, 'nothing credited again');
      assert.equal((await store.sales.getSale(sale.unitId))?.settledAt, T0 + 2);
      assert.equal(await store.wallets.balance('p1'), 1_000 - STAKE + sale.prize);
      assert.deepEqual(await store.sales.unsettledSales(T0 + 10, 10), []);
    }));
});
