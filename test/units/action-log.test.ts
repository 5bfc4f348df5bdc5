import { Redis } from 'ioredis';
import { MemoryActionLog } from '../../src/units/action-log';
import { RedisActionLog } from '../../src/units/redis-action-log';
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
