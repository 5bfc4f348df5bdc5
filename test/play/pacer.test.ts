import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import { MemoryPacer } from '../../src/play/pacing';
import { RedisPacer } from '../../src/play/redis-pacer';
import { RedisCluster } from '../../tools/redis-cluster';
import { RedisServer } from '../../tools/redis-server';
import { pacerConformance } from './pacer-conformance';

pacerConformance('memory', async (handles, settings, now) => {
  const pacer = new MemoryPacer(settings, now);
  return { pacers: Array.from({ length: handles }, () => pacer), close: async () => undefined };
});

let prefixes = 0;

describe('on Redis', () => {
  let redis: RedisServer | undefined;
  after(async () => {
    await redis?.stop();
  });
  it('keeps a player’s last start one key, under the prefix, for the longest pace and a second', async () => {
    redis ??= await RedisServer.start();
    const client = new Redis(redis.url);
    try {
      const pacer = new RedisPacer(client, 'test-pace-keys', { unitMs: 1000, stepMs: 100, byGame: { 'mine-d-or': { unitMs: 3000, stepMs: 100 } } }, () => 1_764_000_000_000);
      assert.ok((await pacer.start('p1', '500000-carats')).ok);
      assert.deepEqual(await client.keys('test-pace-keys:*'), ['test-pace-keys:pace:p1']);
      const ttl = await client.pttl('test-pace-keys:pace:p1');
      assert.ok(ttl > 3000 && ttl <= 4000, `kept ${ttl} ms`);
    } finally {
      client.disconnect();
    }
  });
  pacerConformance('redis', async (handles, settings, now) => {
    redis ??= await RedisServer.start();
    const prefix = `test-pace-${++prefixes}`;
    const clients = Array.from({ length: handles }, () => new Redis(redis!.url));
    return {
      pacers: clients.map((client) => new RedisPacer(client, prefix, settings, now)),
      close: async () => clients.forEach((client) => client.disconnect()),
    };
  });
});

describe('on a Redis Cluster', () => {
  let cluster: RedisCluster;
  before(async function () {
    this.timeout(60_000);
    cluster = await RedisCluster.start({ masters: 1 });
  });
  after(async () => {
    await cluster?.stop();
  });
  pacerConformance('redis cluster', async (handles, settings, now) => {
    const prefix = `test-pace-${++prefixes}`;
    const clients = Array.from({ length: handles }, () => cluster.client());
    return {
      pacers: clients.map((client) => new RedisPacer(client, prefix, settings, now)),
      close: async () => clients.forEach((client) => client.disconnect()),
    };
  });
});
