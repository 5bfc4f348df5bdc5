/**
 * A dealer process that buys one unit on Redis, says `bought <unitId>`, then waits to be killed:
 * its archive writer never runs (there is none in it).
 *
 * Run: node --import tsx buyer-process.ts '<json {url, prefix}>'
 */
import { Redis } from 'ioredis';
import { RedisStore } from '../../../src/dealer/redis/store';
import { TEN_UNIT_TABLE } from '../../dealer/support/test-tables';

const { url, prefix } = JSON.parse(process.argv[2]!) as { url: string; prefix: string };
const store = new RedisStore(new Redis(url), { prefix });
const now = Date.now();
await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 2, now });
await store.wallets.deposit('p1', 1000, 'd1', now);
const bought = await store.sales.purchase({ playerId: 'p1', requestId: 'r1', game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now });
if (!bought.ok) throw new Error(bought.code);
process.stdout.write(`bought ${bought.sale.unitId}\n`);
setInterval(() => {}, 60_000);
