import { strict as assert } from 'node:assert';
import { matchMaker, type Presence } from '@colyseus/core';
import type { Room } from '@colyseus/sdk';
import type { RunningServer } from '../../src/server/app';
import { createLogger } from '../../src/server/logger';
import { anonymous, reasonOf, eventually } from '../rooms/helpers';
import { decodedUnits, devLogin, record, startTestServer, until } from '../support/game-server';
import { RedisServer } from '../../tools/redis-server';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';

const ENV = { CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey(), JWT_SECRET: 'redis-outage-secret-of-at-least-32-chars', DEV_LOGIN: 'true', DEMO_BALANCE_CENTS: '5000', REDIS_PREFIX: 'outage', REDIS_COMMAND_TIMEOUT_MS: '1000' };

/**
 * A server on a Redis of its own for the tests of the enclosing `describe`, and the promise
 * rejections no one handled meanwhile.
 */
function serverOnItsRedis(redisOptions: Parameters<typeof RedisServer.start>[0] = {}) {
  const ctx = { redis: undefined as unknown as RedisServer, server: undefined as unknown as RunningServer, unhandled: [] as unknown[] };
  const onUnhandled = (reason: unknown) => ctx.unhandled.push(reason);
  before(async () => {
    ctx.redis = await RedisServer.start(redisOptions);
    ctx.server = await startTestServer({ ...ENV, REDIS_URL: ctx.redis.url });
    process.on('unhandledRejection', onUnhandled);
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await ctx.server.stop();
    await ctx.redis.stop();
  });
  return ctx;
}

describe('a Redis outage', function () {
  this.timeout(60_000);
  const ctx = serverOnItsRedis({ appendOnly: true });

  it('refuses play with server/unavailable while Redis is gone, and play goes on by itself when it is back', async () => {
    const player = await devLogin(ctx.server, 'Patient');
    const table: Room = await player.client.create('table', { game: 'mysteres-de-la-lampe' });
    await record(table).next('wallet');
    await table.request('watchers', { open: true });
    const watcher = await anonymous(ctx.server).joinOrCreate('watch', { table: table.roomId });
    const feed = await anonymous(ctx.server).joinOrCreate('feed');
    await record(feed).next('recent');

    await ctx.redis.kill();
    const asked = performance.now();
    await assert.rejects(
      table.request('buy', { stake: 50, requestId: 'during_outage', picks: [{ kind: 'colour', choice: 'gold' }] }),
      (err: unknown) => /server\/unavailable/.test(reasonOf(err)),
    );
    assert.ok(performance.now() - asked < 5000, 'refused within 5 s');
    await assert.rejects(table.request('wallet'), (err: unknown) => /server\/unavailable/.test(reasonOf(err)));
    assert.equal((await fetch(`http://127.0.0.1:${ctx.server.port}/health`)).status, 200, 'the process still serves');

    await ctx.redis.restart();
    // The same client, the same table, no rejoin: the purchase retried with its request id.
    const bought = await eventually(
      () => table.request('buy', { stake: 50, requestId: 'during_outage', picks: [{ kind: 'colour', choice: 'gold' }] }).catch((err: unknown) => reasonOf(err)),
      (reply) => typeof reply === 'object',
      'a purchase once Redis is back',
      15_000,
    ) as { unitIds: string[]; wallet: { balance: number; held: number } };
    assert.deepEqual(bought.wallet, { balance: 5000 - 50, held: 50 }, 'charged once');
    await table.request('act', { action: { type: 'rub', progress: 100 } });
    await until(table, () => decodedUnits(table)[0]?.status === 'finished', 'the lamp to open');
    await until(watcher, () => decodedUnits(watcher)[0]?.status === 'finished', 'the watcher to see it');
    const prize = decodedUnits(table)[0]!.prize;
    assert.deepEqual(await table.request('wallet'), { balance: 5000 - 50 + prize, held: 0 });
    assert.deepEqual(ctx.unhandled, [], 'no promise went unhandled');
    await watcher.leave();
    await feed.leave();
    await table.leave();
  });

  it('answers 503 server/unavailable, in the one error shape, on every route and at matchmaking while Redis is gone', async () => {
    const player = await devLogin(ctx.server, 'Outaged');
    const base = `http://127.0.0.1:${ctx.server.port}`;
    const bearer = { authorization: `Bearer ${player.token}` };
    const json = { 'content-type': 'application/json' };
    await ctx.redis.kill();
    try {
      const answers = {
        'GET /tables': await fetch(`${base}/tables`),
        'GET /history': await fetch(`${base}/history`, { headers: bearer }),
        'POST /auth/dev-login': await fetch(`${base}/auth/dev-login`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Late' }) }),
        'creating a table': await fetch(`${base}/matchmake/create/table`, { method: 'POST', headers: { ...json, ...bearer }, body: JSON.stringify({ game: 'rain-diamonds' }) }),
        'joining the feed': await fetch(`${base}/matchmake/joinOrCreate/feed`, { method: 'POST', headers: json, body: '{}' }),
      };
      for (const [what, res] of Object.entries(answers)) {
        const raw = await res.text();
        assert.equal(res.status, 503, `${what}: ${raw}`);
        const body = JSON.parse(raw) as { error: { code: string; message: string } };
        assert.equal(body.error.code, 'server/unavailable', `${what}: ${raw}`);
        assert.doesNotMatch(body.error.message, /retries|ioredis|Command|Connection/i, `${what}: the Redis client's own words`);
      }
      // What the SDK makes of it: the page reads `<code>: <sentence>`.
      await assert.rejects(player.client.create('table', { game: 'rain-diamonds' }), (err: Error & { code?: unknown }) => err.code === 503 && /^server\/unavailable: /.test(err.message));
    } finally {
      await ctx.redis.restart();
    }
    // (Not /tables: its answer is cached a moment, and the next test needs it to fail.)
    await eventually(async () => (await fetch(`${base}/history`, { headers: bearer })).status, (status) => status === 200, 'GET /history answered', 15_000);
  });

  it('lists tables and lets spectators join the feed again once Redis is back, after failing during the outage', async () => {
    const tables = () => fetch(`http://127.0.0.1:${ctx.server.port}/tables`);
    await ctx.redis.kill();
    // Reads during the outage fail (after REDIS_COMMAND_TIMEOUT_MS): one of each path a client uses.
    assert.notEqual((await tables()).status, 200);
    await assert.rejects(anonymous(ctx.server).joinOrCreate('feed'));
    await ctx.redis.restart();
    await eventually(async () => (await tables()).status, (status) => status === 200, 'GET /tables answered', 15_000);
    // Each failed join's reason is kept: a run that times out says why the last one failed.
    let lastFailure: unknown;
    const join = () => anonymous(ctx.server).joinOrCreate('feed').catch((err: unknown) => void (lastFailure = err));
    const feed = await eventually(join, (room) => room !== undefined, 'a feed joined', 15_000).catch((err: Error) => {
      throw new Error(`${err.message}; the last join failed with: ${String(lastFailure)}`);
    });
    await feed!.leave();
  });
});

describe('the join-or-create lock of Colyseus when Redis drops its reply', function () {
  this.timeout(60_000);
  const ctx = serverOnItsRedis();

  /**
   * The server's presence, under the view Colyseus is given, answers the lock's increments by
   * `delta` (+1 takes it, -1 releases it) as a connection Redis dropped does. Returns the undo.
   */
  function failing(delta: 1 | -1): () => void {
    const own = Object.getPrototypeOf(matchMaker.presence) as Presence;
    const original = own.hincrbyex;
    own.hincrbyex = (key, field, value, expireInSeconds) =>
      value === delta ? Promise.reject(new Error('Connection is closed.')) : original.call(own, key, field, value, expireInSeconds);
    return () => void delete (own as Partial<Presence>).hincrbyex;
  }

  /** A spectator joins a feed room that is created for it (the lock is taken only then), or the reason it did not within 5 s. */
  async function joinNewFeed(): Promise<Room | string> {
    await eventually(() => matchMaker.query({ name: 'feed' }), (rooms) => rooms.length === 0, 'no feed room left');
    const deadline = new Promise<string>((resolve) => setTimeout(() => resolve('no answer within 5 s'), 5000).unref());
    return Promise.race([anonymous(ctx.server).joinOrCreate('feed').catch((err: unknown) => reasonOf(err)), deadline]);
  }

  for (const [delta, what] of [[-1, 'releasing'], [1, 'taking']] as const) {
    it(`seats the spectator, and leaves no promise unhandled, when ${what} the lock fails`, async () => {
      const earlier = ctx.unhandled.length;
      const restore = failing(delta);
      let feed: Room | string;
      try {
        feed = await joinNewFeed();
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        restore();
      }
      if (typeof feed === 'object') await feed.leave();
      assert.equal(typeof feed, 'object', `joined: ${String(feed)}`);
      assert.deepEqual(ctx.unhandled.slice(earlier), [], 'no promise went unhandled');
    });
  }
});

describe('a server started while Redis is down', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  beforeEach(async () => {
    redis = await RedisServer.start();
    await redis.kill();
  });
  afterEach(() => redis.stop());

  /** A start-up on the dead Redis, its log lines kept. */
  function start(signal?: AbortSignal) {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const started = startTestServer({ ...ENV, REDIS_URL: redis.url }, { logger, ...(signal ? { signal } : {}) });
    return { started, lines };
  }

  it('waits for Redis, says so, and serves once Redis is back', async () => {
    const { started, lines } = start();
    let done = false;
    void started.then(() => (done = true), () => (done = true));
    await eventually(() => lines.join(''), (log) => log.includes('waiting for Redis at redis://127.0.0.1'), 'the waiting line', 10_000);
    assert.equal(done, false, 'still waiting, not exited');
    await redis.restart();
    const server = await started;
    try {
      const player = await devLogin(server, 'Early');
      const table: Room = await player.client.create('table', { game: 'mysteres-de-la-lampe' });
      await record(table).next('wallet');
      const bought = await table.request('buy', { stake: 50, requestId: 'after_wait', picks: [{ kind: 'colour', choice: 'gold' }] }) as { unitIds: string[] };
      assert.equal(bought.unitIds.length, 1);
      await table.leave();
    } finally {
      await server.stop();
    }
  });

  it('gives up waiting when told to stop', async () => {
    const aborting = new AbortController();
    const { started, lines } = start(aborting.signal);
    await eventually(() => lines.join(''), (log) => log.includes('waiting for Redis'), 'the waiting line', 10_000);
    aborting.abort();
    await assert.rejects(started, { name: 'AbortError' });
  });

  it('does not wait on a Redis that answers with an error: a wrong password is no outage', async () => {
    await redis.stop();
    redis = await RedisServer.start({ args: ['--requirepass', 'not-the-one-in-the-url'] });
    const { started } = start();
    await assert.rejects(started, /NOAUTH|WRONGPASS/);
  });
});
