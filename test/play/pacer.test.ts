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
