import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { RedisStore } from '../../src/dealer/redis/store';
import { StoreClock } from '../../src/server/store-clock';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';
import { freePort, RedisServer } from '../../tools/redis-server';
import { ChildServer } from '../../tools/server-process';
import { devLogin, type TestPlayer } from '../support/game-server';
import { nextRequestId, reasonOf } from '../rooms/helpers';

const HOUR_MS = 3_600_000;

async function redisTime(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

describe('the store clock', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let client: Redis;

  before(async () => {
    redis = await RedisServer.start();
    client = new Redis(redis.url);
  });
  after(async () => {
    client.disconnect();
    await redis.stop();
  });

  it('tells the store’s time, whatever the process’s own clock says', async () => {
    const clock = StoreClock.of(client);
    const processNow = Date.now;
    Date.now = () => processNow() + 49 * HOUR_MS;
    try {
      await clock.start();
      const store = await redisTime(client);
      assert.ok(Math.abs(clock.now() - store) < 1_000, `${clock.now()} against the store's ${store}`);
    } finally {
      Date.now = processNow;
      clock.stop();
    }
  });

  it('never goes back, even when a new reading finds the store behind the time it told', async () => {
    const clock = StoreClock.of(client);
    await clock.start();
    const monotonic = performance.now;
    try {
      const told = clock.now();
      performance.now = () => monotonic.call(performance) - 5_000;
      assert.equal(clock.now(), told);
    } finally {
      performance.now = monotonic;
      clock.stop();
    }
  });

  it('is the process’s own clock for the memory store, which lives in the process', () => {
    const before = Date.now();
    const now = StoreClock.of(undefined).now();
    assert.ok(now >= before && now <= Date.now());
  });

  describe('a server whose clock runs 49 hours ahead, on a store where a right clock wrote', () => {
    let ahead: ChildServer | undefined;
    /** What a server with a right clock writes: the store's time. */
    let store: RedisStore;

    before(async function () {
      try {
        execFileSync('faketime', ['-f', '+0', 'true']);
      } catch {
        throw new Error('these tests run a server under faketime (Debian package faketime): install it');
      }
      store = new RedisStore(client, { prefix: 'one-clock' });
      const env = {
        REDIS_URL: redis.url,
        REDIS_PREFIX: 'one-clock',
        JWT_SECRET: 'one-clock-secret-of-at-least-32-characters',
        CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey(),
        DEV_LOGIN: 'true',
        DEMO_BALANCE_CENTS: '10000',
        EMISSION_BLOCKS: '1',
        LOG_LEVEL: 'warn',
      };
      ahead = await ChildServer.start({ name: 'ahead', script: 'src/server/main.ts', port: await freePort(), env, launcher: ['faketime', '-f', '+49h'] });
    });
    after(async () => {
      await ahead?.stop();
    });

    /** What the server ahead answers a purchase: the refusal's reason, or 'sold'. */
    async function buyOnAhead(p: TestPlayer, stake: number): Promise<string> {
      const room = await p.client.create('table', { game: '500000-carats' });
      try {
        await room.request('buy', { stake, requestId: nextRequestId('clock') });
        return 'sold';
      } catch (err) {
        return reasonOf(err);
      } finally {
        await room.leave();
      }
    }

    it('refuses a purchase of a player who excluded themself a moment before, for 24 hours', async () => {
      const p = await devLogin(ahead!, 'Excluded');
      const now = await redisTime(client);
      await store.protections.changeProtection(p.playerId, { what: 'exclusion', until: now + 24 * HOUR_MS }, now);
      assert.match(await buyOnAhead(p, 500), /protection\/excluded/);
    });

    it('keeps the lower stake limit until 48 hours after a raise asked a moment before', async () => {
      const p = await devLogin(ahead!, 'Raised');
      const now = await redisTime(client);
      await store.protections.changeProtection(p.playerId, { what: 'limits', limits: { stake_week: 100 }, raiseDelayMs: 48 * HOUR_MS }, now);
      await store.protections.changeProtection(p.playerId, { what: 'limits', limits: { stake_week: 100_000 }, raiseDelayMs: 48 * HOUR_MS }, now);
      assert.match(await buyOnAhead(p, 500), /limit\/stake_week/);
    });

    it('signs its players in and sells to them, its tokens and stamps on the store’s time', async () => {
      const p = await devLogin(ahead!, 'Player');
      const before = await redisTime(client);
      assert.equal(await buyOnAhead(p, 500), 'sold');
      const [stake] = (await store.wallets.journal(p.playerId)).filter((line) => line.kind === 'stake');
      assert.ok(Math.abs(stake!.at - before) < 60_000, `sold at ${stake!.at}, the store's time ${before}`);
    });
  });
});
