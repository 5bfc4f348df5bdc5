import { Redis } from 'ioredis';
import { RedisServer } from '../test/support/redis-server';
const server = await RedisServer.start({});
const redis = new Redis(server.url, { enableAutoPipelining: true });
const scripts: Record<string, string> = {
  empty: `return 1`,
  equivalent: `local position = redis.call('INCR', KEYS[1])
local balance = redis.call('HINCRBY', KEYS[2], 'balance', -tonumber(ARGV[1]))
redis.call('RPUSH', KEYS[3], 'stake|-' .. ARGV[1] .. '|' .. balance .. '|' .. ARGV[2] .. '|unit:' .. position)
return position`,
  tenGets: `for i=1,10 do redis.call('GET', KEYS[1]) end return 1`,
  twentyGets: `for i=1,20 do redis.call('GET', KEYS[1]) end return 1`,
  fmt: `local x = 0 for i=1,6 do x = x + #string.format('%d', 12345678) end return x`,
};
for (const [name, lua] of Object.entries(scripts)) {
  const sha = String(await redis.script('LOAD', lua));
  await redis.config('RESETSTAT');
  const N = 20000; let i = 0;
  await Promise.all(Array.from({ length: 50 }, async () => { while (i < N) { const j = i++; await redis.evalsha(sha, 3, 'c', `w${j % 1000}`, `j${j % 1000}`, 50, Date.now()); } }));
  const info = await redis.info('commandstats');
  console.log(name, /cmdstat_evalsha:.*usec_per_call=([\d.]+)/.exec(info)?.[1]);
}
redis.disconnect(); await server.stop();
