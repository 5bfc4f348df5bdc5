import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { RedisStore } from '../../src/dealer/redis/store';
import { RedisServer } from '../../tools/redis-server';
import { startBuyer } from './support/racing-buyers';
import { NOEL_50 } from './support/test-tables';

const T0 = 1_700_000_000_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const LIMIT = 15 * MINUTE;
const H = Math.floor(T0 / HOUR) + 1;
/** Within the hour the last purchases pass on their allowance; across an hour each is checked in full. */
const STARTS = [['within the hour, on the allowance', H * HOUR], ['the last ones an hour later, checked in full', (H + 1) * HOUR - LIMIT + 1000]] as const;

describe('the playing-time limit, across dealer processes', function () {
  this.timeout(60_000);
  let server: RedisServer;
  before(async () => {
    server = await RedisServer.start();
  });
  after(async () => {
    await server?.stop();
  });

  it('counts each gap once when two processes race a player’s purchases every minute, and sells none with no time left', async () => {
    const prefix = 'time-race';
    const redis = new Redis(server.url);
    const store = new RedisStore(redis, { prefix });
    const buyers: ReturnType<typeof startBuyer>[] = [];
    let round = 0;
    try {
      await store.emissions.openEmission({ emissionId: 'time-race', table: NOEL_50, blockCount: 1, now: T0 });
      for (const [way, start] of STARTS) {
        const player = `racer${start}`;
        const racers = ['a', 'b'].map((name) => startBuyer({ url: server.url, prefix, playerId: player, game: NOEL_50.game, stake: NOEL_50.stake, finishFirst: false, name: `${name}${start}` }));
        buyers.push(...racers);
        await store.wallets.deposit(player, 40 * NOEL_50.stake, `d-${player}`, T0);
        await store.protections.changeProtection(player, { what: 'limits', limits: { stake_week: 1000 * NOEL_50.stake, time_day: LIMIT }, raiseDelayMs: 48 * HOUR }, T0);
        /** Both processes buy at `now`, their scripts reaching Redis in either order: the two answers' words. */
        const both = async (now: number) => {
          round++;
          for (const { child } of racers) child.stdin!.write(`buy ${round} ${now}\n`);
          return (await Promise.all(racers.map((r) => r.answer(round)))).map((line) => (line.startsWith('sold ') ? 'sold' : line.split(' ').slice(2).join(' ')));
        };
        // The first of each moment counts the gap since the last; the other finds it counted.
        for (let minute = 0; minute <= 14; minute++) assert.deepEqual(await both(start + minute * MINUTE), ['sold', 'sold'], `${way}: minute ${minute}`);
        assert.deepEqual(await both(start + LIMIT - 1000), ['sold', 'sold'], `${way}: one second left`);
        assert.deepEqual(await both(start + LIMIT), ['limit/time_day', 'limit/time_day'], `${way}: no time left`);
        const { record } = await store.protections.protectionRecord(player);
        const counted = record.played.reduce((sum, b) => sum + b.cents, 0);
        assert.equal(counted + (start + LIMIT - record.lastPlayedAt!), LIMIT, `${way}: the time used is the limit, each gap once`);
        assert.equal((await store.sales.listSales(player, 0, 100)).length, 32, `${way}: two units a moment, none refused before the limit`);
      }
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
