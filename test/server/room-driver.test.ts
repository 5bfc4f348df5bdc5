import { strict as assert } from 'node:assert';
import { RedisDriver } from '@colyseus/redis-driver';
import { Redis } from 'ioredis';
import { roomDriver } from '../../src/server/room-driver';
import { RedisServer } from '../../tools/redis-server';

describe('room driver', () => {
  let redis: RedisServer;
  let client: Redis;

  beforeEach(async () => {
    redis = await RedisServer.start();
    // As the server's clients fail during an outage: a command gives up after a short while.
    client = new Redis({ port: redis.port, maxRetriesPerRequest: 0, commandTimeout: 300, retryStrategy: () => 50, lazyConnect: true });
    client.on('error', () => undefined);
    await client.connect();
  });

  afterEach(async () => {
    client.disconnect();
    await redis.stop();
  });

  /** A query during an outage, then the same query once Redis is back. */
  async function queryAcrossOutage(driver: RedisDriver): Promise<unknown> {
    await redis.kill();
    await assert.rejects(driver.query({ name: 'feed' }));
    await redis.restart();
    await client.ping();
    return driver.query({ name: 'feed' });
  }

  it('reads the room list again after a read failed during an outage', async () => {
    const rooms = await queryAcrossOutage(roomDriver(client));
    assert.deepEqual(rooms, []);
  });

  it('shows why: the driver alone keeps answering the outage\'s failed read', async () => {
    await assert.rejects(queryAcrossOutage(new RedisDriver(client)));
  });

  it('shares one read between concurrent queries, as the driver does', async () => {
    const driver = roomDriver(client);
    let reads = 0;
    const hgetall = client.hgetall.bind(client);
    client.hgetall = ((...args: Parameters<typeof hgetall>) => { reads++; return hgetall(...args); }) as typeof client.hgetall;
    await Promise.all([driver.query({ name: 'feed' }), driver.query({ name: 'feed' }), driver.query({ name: 'table' })]);
    assert.equal(reads, 1);
  });
});
