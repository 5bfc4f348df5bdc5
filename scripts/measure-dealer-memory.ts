/**
 * `npm run measure:dealer-memory [-- --units 100000 --players 1000]`: Redis memory per unit
 * sold, measured with `INFO memory` (used_memory) and `MEMORY USAGE` on a private redis-server:
 * Le Noël de la chance at 0.50 € scaled to `--units` (one block), every unit bought, played
 * (two action log entries, as a reveal and its end), settled, then offloaded. Prints a table and,
 * last, the same as JSON. docs/dealer-redis.md ("Memory") holds the figures and the sizing rule.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RedisStore } from '../src/dealer/redis/store';
import { NOEL_TABLES } from '../src/games/noel-de-la-chance/prize-table';
import type { PrizeTable } from '../src/games/types';
import { offloadClosedBlocks } from '../src/offload/offload-blocks';
import { RedisActionLog } from '../src/action-log/redis-action-log';
import { optionsOrExit, whole } from '../tools/command-line';
import { RedisServer } from '../tools/redis-server';

const { units: UNITS, players: PLAYERS } = optionsOrExit<{ units: number; players: number }>({
  synopsis: 'npm run measure:dealer-memory -- [--units 100000] [--players 1000]',
  defaults: { units: 100_000, players: 1000 },
  flags: [
    { name: '--units', value: 'N', help: 'units of the one block, all bought, played, settled, offloaded (default 100000)', set: (o, v) => (o.units = whole(v, 100, 100_000_000)) },
    { name: '--players', value: 'N', help: 'players they are bought by (default 1000)', set: (o, v) => (o.players = whole(v, 1, 10_000_000)) },
  ],
});
const NOEL_50 = NOEL_TABLES[0]!;
const TABLE: PrizeTable = {
  ...NOEL_50,
  blockSize: UNITS,
  tiers: NOEL_50.tiers.map((t) => ({ prize: t.prize, count: Math.max(1, Math.round((t.count * UNITS) / NOEL_50.blockSize)) })),
};
const PREFIX = 'lottery';
/** Purchases (then settlements, then log appends) in flight at once. */
const IN_FLIGHT = 200;
const T0 = Date.now();

async function usedMemory(redis: Redis): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))![1]);
}

async function inParallel(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < count) await work(next++);
  }));
}

const player = (i: number) => `player-${String(i % PLAYERS).padStart(6, '0')}`;

/** Redis's used memory after each stage: players funded, block printed, units bought, played, settled. */
async function sellPlayAndSettle(redis: Redis, store: RedisStore, log: RedisActionLog): Promise<Record<string, number>> {
  await inParallel(PLAYERS, (p) => store.wallets.deposit(player(p), UNITS * TABLE.stake, 'start', T0).then(() => undefined));
  const memory: Record<string, number> = { funded: await usedMemory(redis) };

  await store.emissions.openEmission({ emissionId: 'noel-de-la-chance-50', table: TABLE, blockCount: 1, now: T0 });
  memory['printed'] = await usedMemory(redis);

  const unitIds: string[] = new Array<string>(UNITS);
  await inParallel(UNITS, async (i) => {
    // Request ids as the play service makes them: the client's id (here 22 characters).
    const result = await store.sales.purchase({ playerId: player(i), requestId: `r${String(i).padStart(21, '0')}`, game: TABLE.game, stake: TABLE.stake, now: T0 + i, picks: 'null' });
    if (!result.ok) throw new Error(`purchase ${i}: ${result.code}`);
    unitIds[i] = result.sale.unitId;
  });
  memory['bought'] = await usedMemory(redis);

  await inParallel(UNITS, async (i) => {
    const at = T0 + i;
    await log.append(unitIds[i]!, 0, { action: { type: 'reveal', index: 3 }, at, by: 'player' });
    await log.append(unitIds[i]!, 1, { action: { type: 'auto' }, at: at + 4_000, by: 'player' });
  });
  memory['played'] = await usedMemory(redis);

  await inParallel(UNITS, async (i) => {
    const settled = await store.sales.settle(unitIds[i]!, T0 + i + 5_000);
    if (!settled.ok) throw new Error(`settle ${unitIds[i]}: ${settled.code}`);
  });
  memory['settled'] = await usedMemory(redis);
  return memory;
}

/** The keys that hold the block's units and the players' lines, and their memory (MEMORY USAGE). */
function keyUsage(redis: Redis, store: RedisStore) {
  const lane = store.keys.lane(TABLE.game, TABLE.stake);
  const usage = async (keys: string[]) => {
    let total = 0;
    for (const key of keys) total += Number((await redis.memory('USAGE', key, 'SAMPLES', 0)) ?? 0);
    return total;
  };
  const requestKeys = () => redis.keys(`${lane.base.replace(/[{}]/g, '\\$&')}requests:*`);
  const journals = Array.from({ length: Math.min(PLAYERS, UNITS) }, (_, p) => store.keys.player(player(p)).journal);
  const block = store.keys.blockKeys(TABLE.game, TABLE.stake, 'noel-de-la-chance-50.0');
  return { usage, requestKeys, journals, block };
}

function printReport(version: string, memory: Record<string, number>, parts: Record<string, number>, after: { journals: number; requestIds: number; offloadBytes: number }): void {
  const perUnit = (bytes: number) => Math.round(bytes / UNITS);
  const rows: [string, number][] = [
    ['bought, not settled (in play), over the funded players', perUnit(memory['bought']! - memory['funded']!)],
    ['bought and played (2 action log entries), not settled', perUnit(memory['played']! - memory['funded']!)],
    ['settled, block kept (open, or closed within its retention)', perUnit(memory['settled']! - memory['funded']!)],
    ['  of which the sale records (block sales hash)', perUnit(parts['sales']!)],
    ['  of which the settlement times (block settled hash)', perUnit(parts['settlements']!)],
    ['  of which the printed byte (block units string)', perUnit(parts['printedUnits']!)],
    ['  of which the request ids (expire within 2 windows)', perUnit(parts['requestIds']!)],
    ['  of which the journal lines (stake + prize, kept)', perUnit(parts['journals']!)],
    ['  the action logs (the rest, one list key per unit)', perUnit(memory['settled']! - memory['funded']! - Object.values(parts).reduce((a, b) => a + b, 0))],
    ['after offloading the block', perUnit(memory['offloaded']! - memory['funded']!)],
    ['  of which the journal lines', perUnit(after.journals)],
    ['  of which the request ids (until they expire)', perUnit(after.requestIds)],
    ['offloaded files on disk', perUnit(after.offloadBytes)],
  ];
  console.log(`Redis memory per unit, ${UNITS} units (one block), ${PLAYERS} players, redis-server ${version}`);
  for (const [what, bytes] of rows) console.log(`${String(bytes).padStart(6)} B  ${what}`);
  console.log(JSON.stringify({ units: UNITS, players: PLAYERS, usedMemory: memory, parts, journalsAfter: after.journals, requestIdsAfter: after.requestIds, offloadBytes: after.offloadBytes, perUnit: Object.fromEntries(rows) }));
}

async function main(): Promise<void> {
  const server = await RedisServer.start();
  const redis = new Redis(server.url, { enableAutoPipelining: true });
  const dir = mkdtempSync(join(tmpdir(), 'dealer-memory-'));
  try {
    const store = new RedisStore(redis, { prefix: PREFIX });
    const log = new RedisActionLog(redis, PREFIX);
    const memory = await sellPlayAndSettle(redis, store, log);
    const { usage, requestKeys, journals, block } = keyUsage(redis, store);
    const requests = await requestKeys();
    const parts = {
      sales: await usage([block.sales]),
      settlements: await usage([block.settled]),
      printedUnits: await usage([block.units]),
      requestIds: await usage(requests),
      journals: await usage(journals),
    };
    const offloaded = await offloadClosedBlocks(store, log, { dir, retentionMs: 0, now: T0 + UNITS + 10_000 });
    memory['offloaded'] = await usedMemory(redis);
    const offloadBytes = statSync(offloaded[0]!.path).size + statSync(offloaded[0]!.path.replace(/\.ndjson$/, '.index')).size;
    const version = /redis_version:(\S+)/.exec(await redis.info('server'))![1]!;
    printReport(version, memory, parts, { journals: await usage(journals), requestIds: await usage(requests), offloadBytes });
  } finally {
    redis.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
