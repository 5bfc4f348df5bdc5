import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import type { RunningServer } from '../../src/server/app';
import { redisWarnings } from '../../src/server/readiness';
import { RedisServer } from '../../tools/redis-server';
import { startTestServer } from '../support/game-server';

const ENV = { JWT_SECRET: 'readiness-secret-of-at-least-32-chars!' };

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
