import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { RedisStore } from '../../src/dealer/redis/store';
import { RedisServer } from '../../tools/redis-server';
import { startBuyer } from './support/racing-buyers';
import { NOEL_50 } from './support/test-tables';

const ROUNDS = 100;
const T0 = 1_700_000_000_000;

describe('finish your unit first, across dealer processes', function () {
  this.timeout(60_000);
  let server: RedisServer;
  before(async () => {
    server = await RedisServer.start();
  });
  after(async () => {
    await server?.stop();
  });

  it(`never sells a player two unfinished units of a game when two processes race ${ROUNDS} rounds`, async () => {
    const prefix = 'race';
    const redis = new Redis(server.url);
    const store = new RedisStore(redis, { prefix });
    const common = { url: server.url, prefix, playerId: 'racer', game: NOEL_50.game, stake: NOEL_50.stake, finishFirst: true };
    const buyers = ['a', 'b'].map((name) => startBuyer({ ...common, name }));
    try {
      await store.emissions.openEmission({ emissionId: 'race', table: NOEL_50, blockCount: 1, now: T0 });
      await store.wallets.deposit('racer', ROUNDS * 2 * NOEL_50.stake, 'd1', T0);
      const wins = { a: 0, b: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        // Both processes get the order at once; their scripts reach Redis in either order.
        for (const { child } of buyers) child.stdin!.write(`buy ${round}\n`);
        const answers = await Promise.all(buyers.map((b) => b.answer(round)));
        const sold = answers.filter((line) => line.startsWith('sold '));
        assert.equal(sold.length, 1, `round ${round}: exactly one unit sold (${answers.join('; ')})`);
        assert.ok(answers.some((line) => line === `refused ${round} purchase/unfinished_unit`), `round ${round}: ${answers.join('; ')}`);
        wins[answers[0]!.startsWith('sold ') ? 'a' : 'b']++;
        const unfinished = await store.sales.unsettledSales(Number.MAX_SAFE_INTEGER, 10, 'racer');
        assert.deepEqual(unfinished.map((s) => s.unitId), [sold[0]!.split(' ')[2]], `round ${round}: one unit in play`);
        assert.ok((await store.sales.settle(unfinished[0]!.unitId, T0 + round)).ok);
      }
      assert.equal(wins.a + wins.b, ROUNDS);
      assert.equal(await store.wallets.balance('racer'), ROUNDS * NOEL_50.stake + (await store.wallets.journal('racer')).filter((e) => e.kind === 'prize').reduce((n, e) => n + e.amount, 0));
    } finally {
      for (const { child } of buyers) {
        child.stdin!.end();
        if (child.exitCode === null) await once(child, 'exit');
      }
      await store.close();
      await redis.quit();
    }
  });
});
