import { Redis } from 'ioredis';
import { readFileSync } from 'node:fs';
import { RedisStore } from '../src/dealer/redis-store';
import { NOEL_TABLES } from '../src/games/noel-de-la-chance/prize-table';
import { RedisServer } from '../test/support/redis-server';
const TABLE = NOEL_TABLES[0]!;
const batch = 50;
const base = readFileSync('/tmp/purchaseUnits.lua', 'utf8');
const drop = (re: RegExp) => (s: string) => s.replace(re, '');
const variants: Record<string, (s: string) => string> = {
  full: (s) => s,
  noSet: drop(/redis.call\('SET', request[^\n]*\n/),
  noWallet: drop(/redis.call\('HSET', wallet[^\n]*\n/),
  noRpush: drop(/redis.call\('RPUSH'[^\n]*\n/),
  noLpush: drop(/redis.call\('LPUSH'[^\n]*\n/),
  noSadd: drop(/redis.call\('SADD'[^\n]*\n/),
  noZadd: drop(/if #unsettled > 0 then redis.call\('ZADD'[^\n]*\n/),
  noSales: drop(/redis.call\('HSET', block .. ':sales'[^\n]*\n/),
  noGetReq: (s) => s.replace("local unitId = redis.call('GET', request)", "local unitId = nil"),
  noBalance: (s) => s.replace("tonumber(redis.call('HGET', wallet, 'balance') or '0')", "1000000"),
  onlyReads: (s) => s.replace(/      redis.call\('(SET|HSET|RPUSH|LPUSH|SADD)'[^\n]*\n/g, ''),
};
for (const [name, f] of Object.entries(variants)) {
  const server = await RedisServer.start({});
  const redis = new Redis(server.url, { enableAutoPipelining: true });
  const store = new RedisStore(redis, { prefix: 'bench' });
  await store.openEmission({ emissionId: 'bench', table: TABLE, blockCount: 3, now: Date.now() });
  await Promise.all(Array.from({ length: 1000 }, (_, p) => store.deposit(`p${p}`, 1e9, 'bench', Date.now())));
  const sha = String(await redis.script('LOAD', f(base)));
  await redis.config('RESETSTAT');
  const N = 50000; let j = 0;
  await Promise.all(Array.from({ length: 4 }, async () => { while (j < N) {
    const keys = ['bench:{seq:noel-de-la-chance:50}:current', 'bench:{seq:noel-de-la-chance:50}:', 'bench:{seq:noel-de-la-chance:50}:unsettled'];
    const args: (string|number)[] = [Date.now(), 50];
    for (let i = 0; i < batch; i++) { const k = j++; const p = `p${k % 1000}`; keys.push(`bench:{player:${p}}:wallet`, `bench:{player:${p}}:journal`, `bench:{player:${p}}:sales`, `bench:{player:${p}}:unsettled`, `bench:{player:${p}}:request:r${k}`); args.push(p, `r${k}`, ''); }
    await redis.evalsha(sha, keys.length, ...keys, ...args);
  } }));
  const info = await redis.info('commandstats');
  console.log(name, (Number(/cmdstat_evalsha:.*usec_per_call=([\d.]+)/.exec(info)?.[1]) / batch).toFixed(1));
  redis.disconnect(); await server.stop();
}
