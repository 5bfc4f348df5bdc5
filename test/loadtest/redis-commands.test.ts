import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import { RedisCommandCounter } from '../../loadtest/redis-commands';
import { RedisServer } from '../../tools/redis-server';

describe('redis command counter', function () {
  this.timeout(20_000);
  let redis: RedisServer;
  before(async () => {
    redis = await RedisServer.start();
  });
  after(() => redis.stop());

  it('counts the commands run between the opening and the closing of the window, those of scripts included', async () => {
    const client = new Redis(redis.url);
    try {
      await client.ping(); // its connection's own commands are done before the window opens
      const counter = new RedisCommandCounter(redis.url);
      await counter.open();
      await client.set('a', '1');
      await client.get('a');
      await client.eval("redis.call('SET', 'b', '2'); return redis.call('GET', 'b')", 0); // EVAL, SET and GET
      await counter.close();
      assert.equal(counter.count, 5);
    } finally {
      client.disconnect();
    }
  });

  it('has no count when Redis could not be read', async () => {
    const counter = new RedisCommandCounter('redis://127.0.0.1:1');
    await counter.open();
    await counter.close();
    assert.equal(counter.count, null);
  });
});
