import { Redis } from 'ioredis';
import { RedisStore } from '../src/dealer/redis-store';
import { NOEL_TABLES } from '../src/games/noel-de-la-chance/prize-table';
import { RedisServer } from '../test/support/redis-server';
const TABLE = NOEL_TABLES[0]!;
const appendOnly = process.argv[2] === 'aof';
const conns = Number(process.argv[3] ?? 1);
const inflight = Number(process.argv[4] ?? 50);
const server = await RedisServer.start({ appendOnly });
const clients = Array.from({ length: conns }, () => new Redis(server.url, { enableAutoPipelining: true }));
const stores = clients.map((c) => new RedisStore(c, { prefix: 'bench' }));
const store = stores[0]!;
await store.openEmission({ emissionId: 'bench', table: TABLE, blockCount: 3, now: Date.now() });
await Promise.all(Array.from({ length: 1000 }, (_, p) => store.deposit(`p${p}`, 1e9, 'bench', Date.now())));
for (const round of [1, 2, 3]) {
await clients[0]!.config('RESETSTAT');
const N = 50000; let issued = 0;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await Promise.all(Array.from({ length: inflight }, async (_, lane) => { while (issued < N) { const k = issued++; const r = await stores[lane % conns]!.purchase({ playerId: `p${k % 1000}`, requestId: `b${round}-${k}`, game: TABLE.game, stake: 50, now: Date.now() }); if (!r.ok) throw new Error(r.code); } }));
const s = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const info = await clients[0]!.info('commandstats'); 
const cpuInfo = await clients[0]!.info('cpu');
console.log(`aof=${appendOnly} conns=${conns} inflight=${inflight}`, 'rate', Math.round(N / s), 'node cpu %', Math.round((cpu.user + cpu.system) / 1e4 / s), 'usec/call', /cmdstat_evalsha:.*usec_per_call=([\d.]+)/.exec(info)?.[1], 'redis cpu s', /used_cpu_user:([\d.]+)/.exec(cpuInfo)?.[1]);
}
for (const c of clients) c.disconnect(); await server.stop();
