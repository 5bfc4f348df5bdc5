import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import { IDEMPOTENCY_WINDOW_MS } from '../../src/dealer/identifiers';
import { DealerKeys } from '../../src/dealer/redis/keys';
import { RedisStore } from '../../src/dealer/redis/store';
import type { PurchaseRequest, Sale } from '../../src/dealer/types';
import { RedisActionLog } from '../../src/action-log/redis-action-log';
import { RedisCluster } from '../../tools/redis-cluster';
import { RedisServer } from '../../tools/redis-server';
import { T0 } from '../dealer/support/fourteen-sales';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';
import { runScript } from './run-script';

const migrate = (args: string[]) => runScript('migrate-to-cluster', args);
const PLAYERS = ['p1', 'p2', 'p3'];
const WINDOW = Math.floor(T0 / IDEMPOTENCY_WINDOW_MS);
const LANE_REQUESTS = `live:{seq:${TEN_UNIT_TABLE.game}:${TEN_UNIT_TABLE.stake}:1}:requests:${WINDOW}`;

function purchaseOf(playerId: string, i: number): PurchaseRequest {
  return { playerId, requestId: `${playerId}-r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + 100 * i };
}

describe('npm run migrate-to-cluster', function () {
  this.timeout(120_000);
  let oneRedis: RedisServer;
  let cluster: RedisCluster;
  let source: Redis;
  /** The units sold on one Redis, and which of them were settled there. */
  const sold: Sale[] = [];
  const settledBefore = new Set<string>();

  before(async () => {
    [oneRedis, cluster] = await Promise.all([RedisServer.start(), RedisCluster.start()]);
    source = new Redis(oneRedis.url);
    // The servers' state on one Redis: the one-script protocol, as REDIS_URL runs it.
    const store = new RedisStore(source, { prefix: 'live' });
    const log = new RedisActionLog(source, 'live');
    await store.emissions.openEmission({ emissionId: 'noel', table: TEN_UNIT_TABLE, blockCount: 4, now: T0 });
    for (const [i, playerId] of PLAYERS.entries()) await store.wallets.deposit(playerId, 1_000 * (i + 1), `bank-${playerId}`, T0);
    await store.wallets.withdraw('p3', 250, 'payout-p3', T0 + 1);
    for (let i = 0; i < 5; i++) {
      for (const playerId of PLAYERS) {
        const result = await store.sales.purchase(purchaseOf(playerId, i));
        assert.ok(result.ok, JSON.stringify(result));
        sold.push(result.sale);
        assert.ok(await log.append(result.sale.unitId, 0, { action: { type: 'reveal', i }, at: T0 + 100 * i + 1, by: 'player' }));
        // The first three rounds are settled; the last two stay in play.
        if (i < 3) {
          await store.sales.settle(result.sale.unitId, T0 + 100 * i + 2);
          settledBefore.add(result.sale.unitId);
        }
      }
    }
    await store.close();
    // A request id on a sequence spread over lanes (`{seq:<game>:<stake>:<lane>}`), as the
    // dealer's lanes name them.
    await source.hset(LANE_REQUESTS, 'p9|lane-r1', 'noel.1:3');
    // …and one that lane passed on, sold out (dealt on another lane, or never).
    await source.hset(LANE_REQUESTS, 'p9|lane-r2', '>');
    await source.pexpire(LANE_REQUESTS, 3_600_000);
    // Not the dealer's: the seats (rooms of the stopped servers) and a key of Colyseus's.
    await source.hset('live:seats', 'p1:noel-de-la-chance', 'room-1');
    await source.hset('roomcaches', 'room-1', '{}');
  });

  after(async () => {
    source?.disconnect();
    await Promise.all([oneRedis?.stop(), cluster?.stop()]);
  });

  it('refuses a bad command line (exit 2) and an unreachable cluster (exit 3), writing nothing', async () => {
    const bad: [string[], RegExp][] = [
      [['--from', oneRedis.url], /give --from and --to/],
      [['--from', 'localhost:6379', '--to', cluster.nodes], /--from must be a URL starting with redis:\/\//],
      [['--from', oneRedis.url, '--to', '127.0.0.1'], /--to must list host:port entries separated by commas; "127\.0\.0\.1" is not one/],
      [['--from', oneRedis.url, '--to', cluster.nodes, '--prefix', ''], /--prefix must not be empty/],
      [['--from', oneRedis.url, '--to', cluster.nodes, '--prefix', 'live*'], /--prefix: Redis prefix must be 0–64 of/],
      [['--from', `redis://${cluster.nodes.split(',')[0]}`, '--to', cluster.nodes], /--from: Redis at redis:\/\/127\.0\.0\.1:\d+ is a cluster node; the source is one Redis/],
      [['--from', oneRedis.url, '--to', cluster.nodes, '--force'], /Unknown option '--force'/],
    ];
    const runs = await Promise.all(bad.map(([args]) => migrate(args)));
    for (const [i, run] of runs.entries()) {
      assert.equal(run.code, 2, `${bad[i]![0].join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, bad[i]![1]);
      assert.match(run.stderr, /usage: npm run migrate-to-cluster/);
    }
    const [unreachable, noSource] = await Promise.all([
      migrate(['--from', oneRedis.url, '--to', '127.0.0.1:1']),
      migrate(['--from', 'redis://127.0.0.1:1', '--to', cluster.nodes]),
    ]);
    assert.equal(unreachable.code, 3);
    assert.match(unreachable.stderr, /cannot reach the Redis Cluster at 127\.0\.0\.1:1/);
    assert.equal(noSource.code, 3);
    assert.match(noSource.stderr, /cannot reach Redis at redis:\/\/127\.0\.0\.1:1/);
  });

  it('counts what it would copy on a dry run, and writes nothing', async () => {
    const run = await migrate(['--from', oneRedis.url, '--to', cluster.nodes, '--prefix', 'live', '--dry-run']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^dry run: nothing written$/m);
    assert.match(run.stdout, /^request ids to write on the players' slots: 16$/m);
    const client = cluster.client();
    try {
      for (const node of client.nodes('master')) assert.deepEqual(await node.keys('live:*'), []);
    } finally {
      client.disconnect();
    }
  });

  describe('moved from one Redis to a cluster', () => {
    const onOneRedis: { balances: number[]; journals: unknown[]; blocks: string; unsettled: Sale[] } = { balances: [], journals: [], blocks: '', unsettled: [] };
    let client: ReturnType<RedisCluster['client']>;
    let store: RedisStore;

    before(async () => {
      const oneStore = new RedisStore(source, { prefix: 'live' });
      onOneRedis.balances = await Promise.all(PLAYERS.map((p) => oneStore.wallets.balance(p)));
      onOneRedis.journals = await Promise.all(PLAYERS.map((p) => oneStore.wallets.journal(p)));
      onOneRedis.unsettled = await oneStore.sales.unsettledSales(T0 + 10_000, 100);
      const list = await runScript('blocks', ['list', '--redis', oneRedis.url, '--prefix', 'live', '--json']);
      assert.equal(list.code, 0, list.stderr);
      onOneRedis.blocks = list.stdout;

      const run = await migrate(['--from', oneRedis.url, '--to', cluster.nodes, '--prefix', 'live']);
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /^request ids written on the players' slots: 16, read back: 16$/m);
      assert.match(run.stdout, /^checked: every count and request id equal$/m);
      assert.match(run.stdout, /^seats left out/m);
      assert.match(run.stderr, /^copied (\d+) \/ \1 keys$/m);

      client = cluster.client({ enableAutoPipelining: true });
      store = new RedisStore(client, { prefix: 'live', protocol: 'per-slot', waitReplicas: 1 });
    });

    after(async () => {
      await store?.close();
      await client?.quit();
    });

    it('keeps every balance, journal and the blocks report', async () => {
      assert.deepEqual(await Promise.all(PLAYERS.map((p) => store.wallets.balance(p))), onOneRedis.balances);
      assert.deepEqual(await Promise.all(PLAYERS.map((p) => store.wallets.journal(p))), onOneRedis.journals);
      const list = await runScript('blocks', ['list', '--redis-cluster', cluster.nodes, '--prefix', 'live', '--json']);
      assert.equal(list.code, 0, list.stderr);
      assert.equal(list.stdout, onOneRedis.blocks);
    });

    it('copies only the prefix: not the seats, not the keys of Colyseus', async () => {
      assert.equal(await client.exists('live:seats'), 0);
      assert.equal(await client.exists('roomcaches'), 0);
      const log = new RedisActionLog(client, 'live');
      assert.deepEqual(await log.read(sold[0]!.unitId), [{ action: { type: 'reveal', i: 0 }, at: T0 + 1, by: 'player' }]);
    });

    it('replays a purchase made before the move and retried after it with the same request id, debiting nothing', async () => {
      for (const [k, sale] of [sold[0]!, sold[sold.length - 1]!].entries()) {
        const request = purchaseOf(sale.playerId, k === 0 ? 0 : 4);
        assert.equal(request.requestId, sale.requestId);
        const balance = await store.wallets.balance(sale.playerId);
        const retry = await store.sales.purchase({ ...request, now: request.now + 60_000 });
        assert.ok(retry.ok);
        assert.deepEqual([retry.repeated, retry.sale.unitId], [true, sale.unitId]);
        assert.equal(await store.wallets.balance(sale.playerId), balance, 'no second debit');
      }
    });

    it("writes a lane's request ids on the player's slot, expiring with the lane's, and not the requests it passed on", async () => {
      const key = new DealerKeys('live').player('p9').requests(WINDOW);
      assert.equal(await client.hget(key, `${TEN_UNIT_TABLE.game}:${TEN_UNIT_TABLE.stake}|lane-r1`), 'noel.1:3');
      assert.equal(await client.hget(key, `${TEN_UNIT_TABLE.game}:${TEN_UNIT_TABLE.stake}|lane-r2`), null);
      const ttl = await client.pttl(key);
      assert.ok(ttl > 3_500_000 && ttl <= 3_600_000, String(ttl));
    });

    it('settles each unit left unsettled exactly once, and refuses a settled one a second credit', async () => {
      assert.deepEqual(await store.sales.unsettledSales(T0 + 10_000, 100), onOneRedis.unsettled);
      assert.equal(onOneRedis.unsettled.length, 6);
      const balances = await Promise.all(PLAYERS.map((p) => store.wallets.balance(p)));
      for (const sale of onOneRedis.unsettled) {
        const first = await store.sales.settle(sale.unitId, T0 + 5_000);
        assert.deepEqual([first.ok, first.ok && first.credited], [true, true]);
        const again = await store.sales.settle(sale.unitId, T0 + 5_001);
        assert.deepEqual([again.ok, again.ok && again.credited], [true, false]);
      }
      for (const sale of sold.filter((s) => settledBefore.has(s.unitId))) {
        const again = await store.sales.settle(sale.unitId, T0 + 5_002);
        assert.deepEqual([again.ok, again.ok && again.credited], [true, false]);
      }
      const won = PLAYERS.map((p) => onOneRedis.unsettled.filter((s) => s.playerId === p).reduce((sum, s) => sum + s.prize, 0));
      assert.deepEqual(await Promise.all(PLAYERS.map((p) => store.wallets.balance(p))), balances.map((b, i) => b + won[i]!));
      assert.deepEqual(await store.sales.unsettledSales(T0 + 10_000, 100), []);
      for (const playerId of PLAYERS) {
        const journal = await store.wallets.journal(playerId);
        assert.equal(journal.reduce((sum, line) => sum + line.amount, 0), await store.wallets.balance(playerId), `${playerId}'s journal sums to the balance`);
      }
    });

    it('sells new units on the cluster, each debited once', async () => {
      const balance = await store.wallets.balance('p2');
      const result = await store.sales.purchase(purchaseOf('p2', 9));
      assert.ok(result.ok);
      assert.equal(result.repeated, false);
      assert.equal(await store.wallets.balance('p2'), balance - TEN_UNIT_TABLE.stake);
      assert.ok(!sold.some((s) => s.unitId === result.sale.unitId));
    });

    it('refuses to write over a cluster that holds keys under the prefix (exit 3)', async () => {
      const run = await migrate(['--from', oneRedis.url, '--to', cluster.nodes, '--prefix', 'live']);
      assert.equal(run.code, 3);
      assert.match(run.stderr, /the cluster already holds keys under "live:"/);
    });
  });
});
