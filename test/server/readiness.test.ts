import { strict as assert } from 'node:assert';
import { createServer } from 'node:net';
import { matchMaker } from '@colyseus/core';
import { Redis } from 'ioredis';
import type { RedisClient } from '../../src/redis-scripts/loader';
import type { RunningServer } from '../../src/server/app';
import { ReadinessProbe, redisWarnings, untilRedisAnswers } from '../../src/server/readiness';
import { redisClient, type RedisTarget } from '../../src/server/redis-client';
import { freePort, RedisServer } from '../../tools/redis-server';
import { eventually } from '../rooms/helpers';
import { startTestServer } from '../support/game-server';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';

const ENV = { JWT_SECRET: 'readiness-secret-of-at-least-32-chars!', CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey() };

async function ready(server: RunningServer): Promise<{ status: number; body: { ready: boolean; reason?: string } }> {
  const res = await fetch(`http://127.0.0.1:${server.port}/ready`);
  return { status: res.status, body: (await res.json()) as { ready: boolean; reason?: string } };
}

/** Polls `/ready` until it answers `status`; the time it took, in ms. */
async function waitForReady(server: RunningServer, status: number, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if ((await ready(server)).status === status) return Date.now() - started;
    if (Date.now() - started > withinMs) assert.fail(`/ready did not answer ${status} within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('readiness', function () {
  this.timeout(60_000);

  it('is ready in the embedded default, and /health stays liveness', async () => {
    const server = await startTestServer(ENV);
    try {
      assert.deepEqual(await ready(server), { status: 200, body: { ready: true } });
      assert.equal((await fetch(`http://127.0.0.1:${server.port}/health`)).status, 200);
    } finally {
      await server.stop();
    }
  });

  it('is not ready while the room listing fails, though Redis answers, and ready again once it answers', async () => {
    const server = await startTestServer(ENV);
    const driver = matchMaker.driver;
    const query = driver.query.bind(driver);
    try {
      driver.query = () => Promise.reject(new Error('listing broken'));
      assert.deepEqual(await ready(server), { status: 503, body: { ready: false, reason: 'room listing: listing broken' } });
      driver.query = query;
      assert.equal((await ready(server)).status, 200);
    } finally {
      driver.query = query;
      await server.stop();
    }
  });

  it('answers 503 within 5 s of Redis going away, and 200 again once it is back', async () => {
    const redis = await RedisServer.start({ appendOnly: true });
    const server = await startTestServer({ ...ENV, REDIS_URL: redis.url, REDIS_PREFIX: 'readiness' });
    try {
      assert.equal((await ready(server)).status, 200);
      await redis.kill();
      await waitForReady(server, 503, 5000);
      const down = await ready(server);
      assert.match(down.body.reason ?? '', /redis/);
      assert.equal((await fetch(`http://127.0.0.1:${server.port}/health`)).status, 200, 'still alive');
      await redis.restart();
      await waitForReady(server, 200, 15_000);
    } finally {
      await server.stop();
      await redis.stop();
    }
  });

  it('answers 503 while Redis answers a PING but takes no write (CLIENT PAUSE WRITE), and 200 once it takes writes again', async () => {
    const redis = await RedisServer.start();
    const server = await startTestServer({ ...ENV, REDIS_URL: redis.url, REDIS_PREFIX: 'readiness-write' });
    const operator = new Redis(redis.url);
    try {
      assert.equal((await ready(server)).status, 200);
      assert.equal(await operator.get('readiness-write:ready') !== null, true, 'the probe wrote its key');
      await operator.client('PAUSE', 4000, 'WRITE');
      assert.equal(await operator.ping(), 'PONG', 'Redis answers a PING all the same');
      assert.deepEqual(await ready(server), { status: 503, body: { ready: false, reason: 'redis did not answer in time' } });
      await operator.client('UNPAUSE');
      await waitForReady(server, 200, 5000);
    } finally {
      operator.disconnect();
      await server.stop();
      await redis.stop();
    }
  });

  it('warns when Redis may evict keys or has no append-only file', async () => {
    const redis = await RedisServer.start();
    const client = new Redis(redis.url);
    try {
      assert.deepEqual(await redisWarnings(client), [
        'Redis append-only file (AOF) is off: a Redis crash loses acknowledged purchases (set appendonly yes, appendfsync always or everysec)',
      ]);
      await client.config('SET', 'maxmemory-policy', 'allkeys-lru');
      await client.config('SET', 'appendonly', 'yes');
      const warnings = await redisWarnings(client);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /maxmemory-policy is allkeys-lru/);
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });
});

describe('readiness probe', () => {
  it('is not ready while the start-up is under way', async () => {
    assert.deepEqual(await new ReadinessProbe(undefined, 'ready').check(), { ready: false, reason: 'starting' });
  });
});

describe('waiting for Redis at start-up', function () {
  this.timeout(30_000);
  // The server's own client options (src/server/app.ts, connectRedis).
  const OPTIONS = { commandTimeout: 5000, maxRetriesPerRequest: 1, retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000) };
  const clients: RedisClient[] = [];
  afterEach(() => clients.splice(0).forEach((c) => c.disconnect()));

  function client(target: RedisTarget): RedisClient {
    const c = redisClient(target, OPTIONS);
    c.on('error', () => undefined);
    clients.push(c);
    return c;
  }
  const one = (port: number): RedisTarget => ({ redisUrl: `redis://127.0.0.1:${port}`, redisClusterNodes: undefined });
  const cluster = (port: number): RedisTarget => ({ redisUrl: undefined, redisClusterNodes: [{ host: '127.0.0.1', port }] });

  /** Waits on `target` until told to stop: what it said meanwhile, and how long the stop took. */
  async function waitThenAbort(target: RedisTarget): Promise<{ said: string[]; stopMs: number }> {
    const said: string[] = [];
    const aborting = new AbortController();
    const waited = untilRedisAnswers(client(target), (reason) => said.push(reason), aborting.signal);
    await eventually(() => said.length, (n) => n > 0, 'the waiting line', 10_000);
    const abortedAt = Date.now();
    aborting.abort();
    await assert.rejects(waited, { name: 'AbortError' });
    return { said, stopMs: Date.now() - abortedAt };
  }

  for (const [name, target] of [['one Redis', one], ['a Redis Cluster', cluster]] as const) {
    it(`says it waits for ${name} that is down, and stops waiting when told to`, async () => {
      const { said, stopMs } = await waitThenAbort(target(await freePort()));
      assert.equal(said.length, 1, 'said once, after a second, not at every try');
      assert.match(said[0]!, /^redis (connecting|reconnecting|connect)/);
      assert.ok(stopMs < 1500, `stopped ${stopMs} ms after being told, not after a command timeout`);
    });

    it(`fails at once on ${name} that refuses its password`, async () => {
      const redis = await RedisServer.start({ args: ['--requirepass', 'not-the-one-given'] });
      try {
        await assert.rejects(untilRedisAnswers(client(target(redis.port)), () => assert.fail('no waiting')), /NOAUTH/);
      } finally {
        await redis.stop();
      }
    });
  }

  it('waits for a Redis that answers LOADING (reading its file after a restart): an error, not a refusal', async () => {
    // Passes the client's ready check (INFO), then answers the PING as a restarted Redis does
    // while it loads its append-only file.
    const info = '# Persistence\r\nloading:0\r\n';
    const loading = createServer((socket) => socket.on('data', (data) => {
      for (const command of data.toString().split(/(?=\*\d+\r\n\$)/)) {
        socket.write(/^\*1\r\n\$4\r\ninfo\r\n/i.test(command) ? `$${info.length}\r\n${info}\r\n`
          : /SETINFO/.test(command) ? '+OK\r\n' : '-LOADING Redis is loading the dataset in memory\r\n');
      }
    })).listen(0, '127.0.0.1');
    await new Promise((resolve) => loading.once('listening', resolve));
    try {
      const { said } = await waitThenAbort(one((loading.address() as { port: number }).port));
      assert.deepEqual(said, ['redis: LOADING Redis is loading the dataset in memory'], 'it waits and says why');
    } finally {
      loading.close();
    }
  });

  it('stops waiting for a Redis that accepts connections and never answers (frozen) when told to', async () => {
    const frozen = createServer(() => undefined).listen(0, '127.0.0.1');
    await new Promise((resolve) => frozen.once('listening', resolve));
    try {
      const { stopMs } = await waitThenAbort(one((frozen.address() as { port: number }).port));
      assert.ok(stopMs < 1500, `stopped ${stopMs} ms after being told`);
    } finally {
      frozen.close();
    }
  });
});
