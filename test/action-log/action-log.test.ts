import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import { MemoryActionLog } from '../../src/action-log/action-log';
import { RedisActionLog } from '../../src/action-log/redis-action-log';
import { RedisServer } from '../../tools/redis-server';
import { actionLogConformance } from './action-log-conformance';

actionLogConformance('memory', async () => ({ log: new MemoryActionLog(), done: async () => undefined }));

let redis: RedisServer | undefined;
let prefixes = 0;
after(async () => {
  await redis?.stop();
});
actionLogConformance('redis', async () => {
  redis ??= await RedisServer.start();
  const client = new Redis(redis.url);
  return {
    log: new RedisActionLog(client, `test-actions-${++prefixes}`),
    done: async () => {
      client.disconnect();
    },
  };
});

describe('memory action log', () => {
  it('forgets the logs of the units the embedded dealer forgot, and only those', async () => {
    const log = new MemoryActionLog();
    for (const unitId of ['u1', 'u2']) assert.equal(await log.append(unitId, 0, { action: { type: 'auto' }, at: 1, by: 'player' }), true);
    log.forget(['u1']);
    assert.deepEqual(await log.read('u1'), []);
    assert.deepEqual(await log.read('u2'), [{ action: { type: 'auto' }, at: 1, by: 'player' }]);
  });
});
