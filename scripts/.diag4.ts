import { Redis } from 'ioredis';
import { readFileSync } from 'node:fs';
import { RedisStore } from '../src/dealer/redis-store';
import { NOEL_TABLES } from '../src/games/noel-de-la-chance/prize-table';
import { RedisServer } from '../test/support/redis-server';
const TABLE = NOEL_TABLES[0]!;
const base = readFileSync('src/dealer/lua/purchaseUnit-8.lua', 'utf8');
const drop = (pattern: RegExp) => (s: string) => s.replace(pattern, '');
const variants: Record<string, (s: string) => string> = {
  full: (s) => s,
  noSet: drop(/redis.call\('SET', KEYS\[8\][^\n]*\n/),
  noWallet: drop(/redis.call\('HSET', KEYS\[4\][^\n]*\n/),
  noRpush: drop(/redis.call\('RPUSH'[^\n]*\n/),
  noLpush: drop(/redis.call\('LPUSH'[^\n]*\n/),
  noSadd: drop(/redis.call\('SADD'[^\n]*\n/),
  noZadd: drop(/redis.call\('ZADD'[^\n]*\n/),
  noSales: drop(/redis.call\('HSET', block .. ':sales'[^\n]*\n[^\n]*\n/),
  noHincr: drop(/redis.call\('HINCRBY'[^\n]*\n/),
  noEmissionHset: drop(/redis.call\('HSET', emission, 'index'[^\n]*\n/),
  returnEarly: (s) => s.replace("local index, cursor, size, count", "if true then return {-1} end local index, cursor, size, count"),
};
const players = Number(process.argv[2] ?? 1000);
for (const [name, f] of Object.entries(variants)) {
  const server = await RedisServer.start({});
  const redis = new Redis(server.url, { enableAutoPipelining: true });
  const store = new RedisStore(redis, { prefix: 'bench' });
  await store.openEmission({ emissionId: 'bench', table: TABLE, blockCount: 3, now: Date.now() });
  await Promise.all(Array.from({ length: players }, (_, p) => store.deposit(`p${p}`, 1e9, 'bench', Date.now())));
  const sha = String(await redis.script('LOAD', f(base)));
  await redis.config('RESETSTAT');
  const keys = (p: string) => ['bench:{seq:noel-de-la-chance:50}:current', 'bench:{seq:noel-de-la-chance:50}:', 'bench:{seq:noel-de-la-chance:50}:unsettled', `bench:{player:${p}}:wallet`, `bench:{player:${p}}:journal`, `bench:{player:${p}}:sales`, `bench:{player:${p}}:unsettled`, `bench:{player:${p}}:request:r${p}-${Math.random()}`];
  const N = 50000; let i = 0;
  await Promise.all(Array.from({ length: 50 }, async () => { while (i < N) { const j = i++; const p = `p${j % players}`; await redis.evalsha(sha, 8, ...keys(p), p, `r${j}`, 50, Date.now(), ''); } }));
  const info = await redis.info('commandstats');
  console.log(name, /cmdstat_evalsha:.*usec_per_call=([\d.]+)/.exec(info)?.[1]);
  redis.disconnect(); await server.stop();
}
