import { Redis } from 'ioredis';
import { readFileSync } from 'node:fs';
import { RedisStore } from '../src/dealer/redis-store';
import { NOEL_TABLES } from '../src/games/noel-de-la-chance/prize-table';
import { RedisServer } from '../test/support/redis-server';
const TABLE = NOEL_TABLES[0]!;
const server = await RedisServer.start({});
const redis = new Redis(server.url, { enableAutoPipelining: true });
const store = new RedisStore(redis, { prefix: 'bench' });
await store.openEmission({ emissionId: 'bench', table: TABLE, blockCount: 3, now: Date.now() });
await Promise.all(Array.from({ length: 1000 }, (_, p) => store.deposit(`p${p}`, 1e9, 'bench', Date.now())));
const base = readFileSync('src/dealer/lua/purchaseUnit-7.lua', 'utf8');
const variants: Record<string, (s: string) => string> = {
  full: (s) => s,
  reqKeys: (s) => s.replace("local unitId = redis.call('HGET', KEYS[4], 'r:' .. ARGV[2])", "local unitId = redis.call('GET', KEYS[4] .. ':r:' .. ARGV[2])").replace("redis.call('HSET', KEYS[4], 'balance', int(after), 'r:' .. ARGV[2], unitId)", "redis.call('HSET', KEYS[4], 'balance', int(after)) redis.call('SET', KEYS[4] .. ':r:' .. ARGV[2], unitId)"),
  noZadd: (s) => s.replace(/redis.call\('ZADD'[^\n]*\n/g, ''),
  noLpush: (s) => s.replace(/redis.call\('LPUSH'[^\n]*\n/, ''),
  noSalesHset: (s) => s.replace(/redis.call\('HSET', block .. ':sales'[^\n]*\n[^\n]*\n/, ''),
  noInfoIncr: (s) => s.replace(/redis.call\('HINCRBY'[^\n]*\n/g, ''),
  noJournal: (s) => s.replace(/redis.call\('RPUSH'[^\n]*\n/, ''),
};
const k = { n: 0 };
for (const order of [0, 1]) {
for (const [name, f] of Object.entries(variants).slice(0, 2)) {
  const sha = String(await redis.script('LOAD', f(base)));
  await redis.config('RESETSTAT');
  const keys = (p: string) => ['bench:{seq:noel-de-la-chance:50}:current', 'bench:{seq:noel-de-la-chance:50}:', 'bench:{seq:noel-de-la-chance:50}:unsettled', `bench:{player:${p}}:wallet`, `bench:{player:${p}}:journal`, `bench:{player:${p}}:sales`, `bench:{player:${p}}:unsettled`];
  const N = 20000; let i = 0;
  await Promise.all(Array.from({ length: 50 }, async () => { while (i < N) { i++; const j = k.n++; const p = `p${j % 1000}`; await redis.evalsha(sha, 7, ...keys(p), p, `r${j}`, 50, Date.now(), ''); } }));
  const info = await redis.info('commandstats');
  console.log(name, /cmdstat_evalsha:.*usec_per_call=([\d.]+)/.exec(info)?.[1]);
}
}
redis.disconnect(); await server.stop();
