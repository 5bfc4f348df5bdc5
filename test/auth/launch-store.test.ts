import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import { MemoryLaunchStore } from '../../src/auth/launch-store';
import { RedisLaunchStore } from '../../src/auth/redis-launch-store';
import { RedisServer } from '../../tools/redis-server';
import { launchStoreConformance } from './launch-store-conformance';

launchStoreConformance('memory', async () => {
  let now = 1_000_000;
  return { store: new MemoryLaunchStore(() => now), pass: async (ms) => void (now += ms), done: async () => undefined };
});

let redis: RedisServer | undefined;
let prefixes = 0;
after(async () => {
  await redis?.stop();
});
launchStoreConformance('redis', async () => {
  redis ??= await RedisServer.start();
  const client = new Redis(redis.url);
  return {
    store: new RedisLaunchStore(client, `test-launch-${++prefixes}`),
    pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    done: async () => void client.disconnect(),
  };
});

describe('memory launch store', () => {
  it('stays bounded: past its size the oldest entries go first', async () => {
    const store = new MemoryLaunchStore(() => 0);
    for (let i = 0; i <= 100_000; i++) await store.put(`code:${i}`, 'v', 60_000);
    assert.equal(await store.take('code:0'), undefined, 'the oldest went');
    assert.equal(await store.take('code:100000'), 'v');
  });
});
