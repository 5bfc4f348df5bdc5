import { Redis } from 'ioredis';
import { readFileSync } from 'node:fs';
import { RedisStore } from '../src/dealer/redis-store';
import { NOEL_TABLES } from '../src/games/noel-de-la-chance/prize-table';
import { RedisServer } from '../test/support/redis-server';
const TABLE = NOEL_TABLES[0]!;
const batch = 50;
for (const rep of [1, 2]) for (const variant of ['Hash', 'Keys']) {
  const lua = readFileSync(`/tmp/variant${variant}.lua`, 'utf8');
  const server = await RedisServer.start({});
  const redis = new Redis(server.url, { enableAutoPipelining: true });
  const store = new RedisStore(redis, { prefix: 'bench' });
  await store.openEmission({ emissionId: 'bench', table: TABLE, blockCount: 3, now: Date.now() });
  await Promise.all(Array.from({ length: 1000 }, (_, p) => store.deposit(`p${p}`, 1e9, 'bench', Date.now())));
  const sha = String(await redis.script('LOAD', lua));
  await redis.config('RESETSTAT');
  const N = 150000; let j = 0;
  await Promise.all(Array.from({ length: 2 }, async () => { while (j < N) {
    const keys = ['bench:{seq:noel-de-la-chance:50}:current', 'bench:{seq:noel-de-la-chance:50}:', 'bench:{seq:noel-de-la-chance:50}:unsettled'];
    const args: (string|number)[] = [50];
    for (let i = 0; i < batch; i++) { const k = j++; const p = `p${k % 1000}`; keys.push(`bench:{player:${p}}:wallet`, `bench:{player:${p}}:journal`, `bench:{player:${p}}:sales`, `bench:{player:${p}}:unsettled`); if (variant === 'Keys') keys.push(`bench:{player:${p}}:request:r${k}`); args.push(p, `r${k}`, Date.now(), ''); }
    await redis.evalsha(sha, keys.length, ...keys, ...args);
  } }));
  const info = await redis.info('commandstats');
  console.log(rep, variant, (Number(/cmdstat_evalsha:.*usec_per_call=([\d.]+)/.exec(info)?.[1]) / batch).toFixed(1), 'mem', (await redis.info('memory')).match(/used_memory_human:(\S+)/)?.[1]);
  redis.disconnect(); await server.stop();
}
