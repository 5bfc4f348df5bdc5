import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import { moneyOnItsWay } from '../../src/archive/reconcile';
import { MemoryStore } from '../../src/dealer/memory/store';
import type { ArchiveOutbox } from '../../src/dealer/outbox';
import { RedisStore } from '../../src/dealer/redis/store';
import type { DealerStore } from '../../src/dealer/types';
import { RedisServer } from '../../tools/redis-server';
import { TEN_UNIT_TABLE } from './support/test-tables';

const T0 = 1_700_000_000_000;
const { game, stake } = TEN_UNIT_TABLE;

/**
 * One suite, every implementation: the money streams are the journal, line for line (on the
 * per-slot protocol, with the entries of p1's own stream not relayed to its shard yet).
 */
function outboxSuite(
  name: string,
  make: () => Promise<{ store: DealerStore & { outbox: ArchiveOutbox }; done: () => Promise<void> }>,
  /** Whether the `money` stream holds the stakes at purchase (not on the per-slot protocol: each player's stream, relayed later). */
  stakesInMoney = true,
): void {
  describe(`the archive's outbox (${name})`, () => {
    let store: DealerStore & { outbox: ArchiveOutbox };
    let done: () => Promise<void>;
    const money = () => moneyOnItsWay(store.outbox, new Map(), ['p1']);
    beforeEach(async () => {
      ({ store, done } = await make());
      await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
    });
    afterEach(() => done());

    it('holds an entry for every journal line of deposits, stakes, prizes and withdrawals, in the step of the line', async () => {
      await store.wallets.deposit('p1', 10_000, 'd1', T0);
      const units: string[] = [];
      for (let i = 0; i < 10; i++) {
        const bought = await store.sales.purchase({ playerId: 'p1', requestId: `r${i}`, game, stake, now: T0 + i });
        assert.ok(bought.ok);
        units.push(bought.sale.unitId);
        await store.sales.settle(bought.sale.unitId, T0 + i);
      }
      await store.wallets.withdraw('p1', 100, 'w1', T0 + 20);
      const entries = await money();
      const journal = await store.wallets.journal('p1');
      assert.deepEqual(
        entries.map((e) => ({ kind: e.kind, amount: e.payload['amount'], balance: e.payload['balance'], ref: e.payload['ref'], at: e.at })),
        journal.map((j) => ({ kind: j.kind, amount: j.amount, balance: j.balance, ref: j.ref, at: j.at })),
      );
      assert.ok(journal.some((j) => j.kind === 'prize'), 'the table pays prizes');
      assert.ok(entries.every((e) => e.player === 'p1'));
      assert.deepEqual([...new Set(entries.filter((e) => e.kind === 'stake' || e.kind === 'prize').map((e) => e.payload['game']))], [game]);
    });

    it('holds an entry for every line of the protection journal: limits, exclusions, blocks', async () => {
      await store.protections.changeProtection('p1', { what: 'limits', limits: { stake_week: 5000 }, raiseDelayMs: 48 * 3_600_000 }, T0);
      await store.protections.changeProtection('p1', { what: 'exclusion', until: T0 + 86_400_000 }, T0 + 1);
      await store.protections.changeProtection('p1', { what: 'block', reason: 'national_ban', until: null }, T0 + 2);
      const entries = await money();
      assert.deepEqual(
        entries.map((e) => [e.kind, e.player, e.at, e.payload['what'], e.payload['by']]),
        [
          ['protection', 'p1', T0, 'limit', 'player'],
          ['protection', 'p1', T0 + 1, 'exclusion', 'player'],
          ['protection', 'p1', T0 + 2, 'block', 'operator'],
        ],
      );
      assert.deepEqual(entries.map((e) => e.payload), (await store.protections.protectionRecord('p1')).history.reverse());
    });

    if (stakesInMoney) {
      it('gives a batch of purchases (one entry on Redis) a record per stake, in order, and reads and trims within it', async () => {
        for (const p of ['p0', 'p1', 'p2']) await store.wallets.deposit(p, 10_000, `${p}-d`, T0);
        // Six purchases in flight at once: one batch on Redis.
        const bought = await Promise.all(Array.from({ length: 6 }, (_, i) => store.sales.purchase({ playerId: `p${i % 3}`, requestId: `r${i}`, game, stake, now: T0 + 1 })));
        const all = await store.outbox.read('money', undefined, 100);
        assert.deepEqual(
          all.map((e) => [e.kind, e.player, e.payload['ref'], e.payload['game']]),
          [...['p0', 'p1', 'p2'].map((p) => ['deposit', p, `${p}-d`, undefined]), ...bought.map((b) => (b.ok ? ['stake', b.sale.playerId, b.sale.unitId, game] : []))],
        );
        assert.equal(new Set(all.map((e) => e.id)).size, all.length, 'each record its own id');
        assert.deepEqual(await store.outbox.read('money', all[4]!.id, 2), all.slice(5, 7), 'read after a stake within the batch');
        await store.outbox.trim('money', all[5]!.id);
        assert.deepEqual(await store.outbox.read('money', all[5]!.id, 100), all.slice(6), 'trimmed within the batch');
        await store.outbox.trim('money', all.at(-1)!.id);
        assert.deepEqual(await store.outbox.read('money', undefined, 100), [], 'trimmed through the batch');
      });
    }

    it('adds no entry for a replayed deposit or purchase', async () => {
      await store.wallets.deposit('p1', 10_000, 'd1', T0);
      await store.wallets.deposit('p1', 10_000, 'd1', T0);
      await store.sales.purchase({ playerId: 'p1', requestId: 'r', game, stake, now: T0 });
      await store.sales.purchase({ playerId: 'p1', requestId: 'r', game, stake, now: T0 });
      assert.deepEqual((await money()).map((e) => e.kind), ['deposit', 'stake']);
    });

    it('reads after an id, in order, and drops what is trimmed through an id', async () => {
      for (let i = 0; i < 5; i++) await store.outbox.append({ at: T0 + i, kind: 'action', player: 'p1', session: 's', table: 't', process: 'x', payload: { i } });
      const all = await store.outbox.read('play', undefined, 10);
      assert.deepEqual(all.map((e) => e.payload['i']), [0, 1, 2, 3, 4]);
      assert.deepEqual((await store.outbox.read('play', all[1]!.id, 2)).map((e) => e.payload['i']), [2, 3]);
      await store.outbox.trim('play', all[2]!.id);
      assert.deepEqual((await store.outbox.read('play', undefined, 10)).map((e) => e.payload['i']), [3, 4]);
      assert.deepEqual(all[0], { id: all[0]!.id, at: T0, kind: 'action', player: 'p1', session: 's', table: 't', process: 'x', payload: { i: 0 } });
    });
  });
}

outboxSuite('memory', async () => {
  const store = new MemoryStore();
  return { store, done: () => store.close() };
});

let server: RedisServer;
let prefixes = 0;
describe('on Redis', () => {
  before(async function () {
    this.timeout(30_000);
    server = await RedisServer.start();
  });
  after(() => server?.stop());

  describe("the archive's money stream on one Redis", () => {
    let client: Redis;
    let store: RedisStore;
    beforeEach(async () => {
      client = new Redis(server.url);
      store = new RedisStore(client, { prefix: `outbox${++prefixes}` });
      await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
    });
    afterEach(async () => {
      await store.close();
      client.disconnect();
    });

    it("names a batch's game once, on its first line", async () => {
      for (const p of ['p0', 'p1']) await store.wallets.deposit(p, 10_000, `${p}-d`, T0);
      await Promise.all(Array.from({ length: 4 }, (_, i) => store.sales.purchase({ playerId: `p${i % 2}`, requestId: `r${i}`, game, stake, now: T0 + 1 })));
      const entries = await client.xrange(store.keys.outbox('money'), '-', '+');
      const batch = entries.at(-1)![1];
      assert.deepEqual(batch.filter((_, i) => i % 2 === 0), ['p', 'j', 'g', 'p', 'j', 'p', 'j', 'p', 'j']);
      assert.equal(batch[5], game);
    });

    it('reads an entry written with the game on every line (before a batch named it once) the same', async () => {
      const lines = ['stake|-100|900|1|e.0:0', 'stake|-100|900|1|e.0:1'];
      await client.xadd(store.keys.outbox('money'), '*', 'p', 'p0', 'j', lines[0]!, 'g', game, 'p', 'p1', 'j', lines[1]!, 'g', game);
      const read = await store.outbox.read('money', undefined, 10);
      assert.deepEqual(read.map((e) => [e.player, e.payload['ref'], e.payload['game']]), [['p0', 'e.0:0', game], ['p1', 'e.0:1', game]]);
    });
  });

  for (const protocol of ['one-script', 'per-slot'] as const) {
    outboxSuite(`Redis, ${protocol}`, async () => {
      const client = new Redis(server.url);
      const store = new RedisStore(client, { prefix: `outbox${++prefixes}`, protocol });
      return {
        store,
        done: async () => {
          await store.close();
          client.disconnect();
        },
      };
    }, protocol === 'one-script');
  }
});
