import type { Cluster, Redis } from 'ioredis';
import { isPlayerId } from '../ids';
import { PASSED_ON, purchaseField } from '../dealer/records';
import { DealerKeys } from '../dealer/redis/store';
import { seatsKey } from '../rooms/seats';

/**
 * Moves a one-Redis deployment to a Redis Cluster, with the servers stopped (docs/operations.md,
 * "Moving from one Redis to a cluster"): every key under the prefix is copied (DUMP, then
 * RESTORE with its remaining time to live; the key names and hash tags stay), and each
 * lane's request ids are also written on their players' slots, where the per-slot purchase
 * looks them up first. Without that, a purchase made before the move and retried after it with
 * the same request id would be dealt its unit again by the lane and debited a second time.
 */

export interface MigrationOptions {
  /** The servers' REDIS_PREFIX: only keys under `<prefix>:` are copied. */
  readonly prefix: string;
  /** Count and check only: nothing is written to the cluster. */
  readonly dryRun?: boolean;
  /** Called every few seconds while copying, and once at the end of the copy. */
  readonly progress?: (copied: number, total: number) => void;
}

/** Keys per Redis type (`string`, `hash`, `list`, `set`, `zset`, `stream`). */
export type KeyCounts = Record<string, number>;

export interface MigrationReport {
  readonly dryRun: boolean;
  /** Keys under the prefix on the source, per type, the seats left out. */
  readonly source: KeyCounts;
  /** The same on the cluster after the migration (empty on a dry run). */
  readonly target: KeyCounts;
  /** Keys copied (on a dry run: to copy). */
  readonly copied: number;
  /** Keys gone between the scan and their copy (they expired). */
  readonly expired: number;
  /** Seats left out: they name rooms of the stopped servers. */
  readonly seatsLeftOut: boolean;
  /** Lane request-id records written on their players' slots (on a dry run: to write). */
  readonly requestIds: number;
  /** Of those, read back equal from the cluster. */
  readonly requestIdsVerified: number;
  /** Player request-id hashes the conversion made that the source did not have. */
  readonly playerRequestKeysMade: number;
  /** What differs after the migration; empty when every check holds. */
  readonly mismatches: readonly string[];
}

/** Keys per SCAN step and per batch of DUMP/RESTORE. */
const BATCH = 1_000;
const PROGRESS_EVERY_MS = 3_000;

/** Every key of `redis` matching `pattern` (glob), in SCAN batches. */
async function* scanKeys(redis: Redis, pattern: string): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', BATCH);
    cursor = next;
    if (keys.length > 0) yield keys;
  } while (cursor !== '0');
}

async function countByType(nodes: readonly Redis[], pattern: string, leftOut: string): Promise<KeyCounts> {
  const counts: KeyCounts = {};
  for (const node of nodes) {
    for await (const batch of scanKeys(node, pattern)) {
      const keys = batch.filter((k) => k !== leftOut);
      const types = await Promise.all(keys.map((k) => node.type(k)));
      for (const type of types) if (type !== 'none') counts[type] = (counts[type] ?? 0) + 1;
    }
  }
  return counts;
}

/** One lane request-id record, as the player's slot keeps it. */
interface PlayerRequest {
  readonly key: string;
  readonly field: string;
  readonly unitId: string;
}

/**
 * The player's records of one lane request-id hash: `<playerId>|<requestId>` → unitId
 * becomes `<game>:<stake>|<requestId>` → unitId on the player's hash of the same window
 * (keys.ts, LaneKeys.requests and PlayerKeys.requests).
 */
async function* playerRequestsOf(source: Redis, keys: DealerKeys, key: string, game: string, stake: number, window: number): AsyncGenerator<PlayerRequest[]> {
  let cursor = '0';
  do {
    const [next, entries] = await source.hscan(key, cursor, 'COUNT', BATCH);
    cursor = next;
    const records: PlayerRequest[] = [];
    for (let i = 0; i < entries.length; i += 2) {
      const bar = entries[i]!.indexOf('|');
      const playerId = entries[i]!.slice(0, bar);
      if (bar < 0 || !isPlayerId(playerId)) throw new Error(`${key}: field ${JSON.stringify(entries[i])} is not <playerId>|<requestId>`);
      // A sold-out lane's mark that it passed the request on (docs/dealer.md, "Lanes"): the
      // lane that dealt it holds its unit, which is converted from there.
      if (entries[i + 1] === PASSED_ON) continue;
      records.push({ key: keys.player(playerId).requests(window), field: purchaseField(game, stake, entries[i]!.slice(bar + 1)), unitId: entries[i + 1]! });
    }
    if (records.length > 0) yield records;
  } while (cursor !== '0');
}

/** Each lane request-id hash of the source, with what its key says. */
async function* laneRequestKeys(source: Redis, keys: DealerKeys): AsyncGenerator<{ key: string; game: string; stake: number; window: number }> {
  for await (const batch of scanKeys(source, keys.laneRequestsGlob)) {
    for (const key of batch) {
      const parsed = keys.parseLaneRequests(key);
      if (!parsed) throw new Error(`${key} is not a lane's request ids (<prefix>:{seq:<game>:<stake>}:requests:<window>)`);
      yield { key, ...parsed };
    }
  }
}

/** Refuses a cluster that already holds a key under the prefix (one found is enough). */
async function assertEmpty(masters: readonly Redis[], pattern: string): Promise<void> {
  for (const node of masters) {
    for await (const batch of scanKeys(node, pattern)) {
      throw new Error(
        `the cluster already holds keys under ${JSON.stringify(pattern.slice(0, -1))} (${batch[0]} on ${node.options.host}:${node.options.port}); ` +
          'the migration writes only to an empty prefix: use another prefix, or empty it first',
      );
    }
  }
}

/** What every step of the migration works on: both sides, the keys under the prefix, the seats left out. */
interface Migration {
  readonly source: Redis;
  readonly target: Cluster;
  readonly keys: DealerKeys;
  /** `<prefix>:*` */
  readonly pattern: string;
  /** The seats' key, left out of the copy. */
  readonly seats: string;
}

/** Keys under the prefix on the source, the seats left out, and whether they were there. */
async function countSource({ source, pattern, seats }: Migration): Promise<{ total: number; seatsLeftOut: boolean }> {
  let total = 0;
  let seatsLeftOut = false;
  for await (const batch of scanKeys(source, pattern)) {
    total += batch.length;
    if (batch.includes(seats)) seatsLeftOut = true;
  }
  return { total: seatsLeftOut ? total - 1 : total, seatsLeftOut };
}

/** The dry run's report: what would be copied and converted, nothing written. */
async function dryRunReport(m: Migration, total: number, seatsLeftOut: boolean): Promise<MigrationReport> {
  const sourceCounts = await countByType([m.source], m.pattern, m.seats);
  let requestIds = 0;
  for await (const s of laneRequestKeys(m.source, m.keys)) {
    for await (const records of playerRequestsOf(m.source, m.keys, s.key, s.game, s.stake, s.window)) requestIds += records.length;
  }
  return { dryRun: true, source: sourceCounts, target: {}, copied: total, expired: 0, seatsLeftOut, requestIds, requestIdsVerified: 0, playerRequestKeysMade: 0, mismatches: [] };
}

/**
 * The copy: DUMP and PTTL read together, then RESTORE with the time left (no REPLACE: a key
 * that appeared on the cluster meanwhile fails the copy rather than being overwritten).
 */
async function copyKeys({ source, target, pattern, seats }: Migration, total: number, progress: MigrationOptions['progress']): Promise<{ copied: number; expired: number }> {
  let copied = 0;
  let expired = 0;
  let reportedAt = Date.now();
  for await (const batch of scanKeys(source, pattern)) {
    const names = batch.filter((k) => k !== seats);
    const pipeline = source.pipeline();
    for (const key of names) pipeline.pttl(key).dumpBuffer(key);
    const replies = (await pipeline.exec())!;
    const failed = replies.find(([err]) => err);
    if (failed) throw failed[0];
    const restores: Promise<unknown>[] = [];
    names.forEach((key, i) => {
      const ttl = Number(replies[2 * i]![1]);
      const dump = replies[2 * i + 1]![1] as Buffer | null;
      if (dump === null || ttl === -2) {
        expired++;
        return;
      }
      restores.push(target.restore(key, Math.max(0, ttl), dump));
    });
    await Promise.all(restores);
    copied += restores.length;
    if (progress && Date.now() - reportedAt >= PROGRESS_EVERY_MS) {
      progress(copied, total);
      reportedAt = Date.now();
    }
  }
  progress?.(copied, total);
  return { copied, expired };
}

/** The conversion: each lane request id also on its player's slot, expiring with it. */
async function convertRequestIds({ source, target, keys }: Migration): Promise<{ requestIds: number; playerKeys: Set<string> }> {
  let requestIds = 0;
  const playerKeys = new Set<string>();
  for await (const lane of laneRequestKeys(source, keys)) {
    const ttl = await source.pttl(lane.key);
    const touched = new Set<string>();
    for await (const records of playerRequestsOf(source, keys, lane.key, lane.game, lane.stake, lane.window)) {
      await Promise.all(records.map((r) => target.hset(r.key, r.field, r.unitId)));
      for (const r of records) touched.add(r.key);
      requestIds += records.length;
    }
    if (ttl > 0) await Promise.all([...touched].map((key) => target.pexpire(key, ttl)));
    for (const key of touched) playerKeys.add(key);
  }
  return { requestIds, playerKeys };
}

/** The request ids read back from the cluster: how many are there, and the first few that are not. */
async function verifyRequestIds({ source, target, keys }: Migration, requestIds: number, mismatches: string[]): Promise<number> {
  let requestIdsVerified = 0;
  for await (const lane of laneRequestKeys(source, keys)) {
    for await (const records of playerRequestsOf(source, keys, lane.key, lane.game, lane.stake, lane.window)) {
      const found = await Promise.all(records.map((r) => target.hget(r.key, r.field)));
      records.forEach((r, i) => {
        if (found[i] === r.unitId) requestIdsVerified++;
        else if (mismatches.length < 10) mismatches.push(`request id ${r.field} of ${r.key}: ${JSON.stringify(found[i])} on the cluster, ${r.unitId} expected`);
      });
    }
  }
  if (requestIdsVerified !== requestIds) mismatches.push(`${requestIds - requestIdsVerified} of ${requestIds} request ids not found on the players' slots`);
  return requestIdsVerified;
}

/**
 * The keys counted per type on both sides: the cluster has the player request-id hashes the
 * conversion made besides (those of `playerKeys` the source did not have).
 */
async function compareKeyCounts({ source, target, pattern, seats }: Migration, playerKeys: ReadonlySet<string>, mismatches: string[]) {
  const made = [...playerKeys];
  let playerRequestKeysMade = 0;
  for (let i = 0; i < made.length; i += BATCH) {
    const exists = await Promise.all(made.slice(i, i + BATCH).map((key) => source.exists(key)));
    playerRequestKeysMade += exists.filter((e) => e === 0).length;
  }
  const sourceCounts = await countByType([source], pattern, seats);
  const targetCounts = await countByType(target.nodes('master'), pattern, seats);
  const expected: KeyCounts = { ...sourceCounts, hash: (sourceCounts['hash'] ?? 0) + playerRequestKeysMade };
  for (const type of new Set([...Object.keys(expected), ...Object.keys(targetCounts)])) {
    const [want, got] = [expected[type] ?? 0, targetCounts[type] ?? 0];
    if (want !== got) mismatches.push(`${type} keys: ${got} on the cluster, ${want} expected (${sourceCounts[type] ?? 0} on the source${type === 'hash' ? ` + ${playerRequestKeysMade} player request-id hashes made` : ''})`);
  }
  return { sourceCounts, targetCounts, playerRequestKeysMade };
}

/**
 * Copies the source's keys under the prefix to the cluster, converts the request ids, and
 * checks the result. Throws before writing anything if the cluster holds keys under the prefix. The servers must be stopped: a write during the copy may be missed.
 */
export async function migrateToCluster(source: Redis, target: Cluster, options: MigrationOptions): Promise<MigrationReport> {
  if (options.prefix === '') throw new RangeError('the prefix must not be empty: every key of the source would be taken');
  const keys = new DealerKeys(options.prefix);
  const migration: Migration = { source, target, keys, pattern: `${keys.prefix}*`, seats: seatsKey(options.prefix) };
  await assertEmpty(target.nodes('master'), migration.pattern);
  const { total, seatsLeftOut } = await countSource(migration);
  if (options.dryRun) return dryRunReport(migration, total, seatsLeftOut);
  const { copied, expired } = await copyKeys(migration, total, options.progress);
  const { requestIds, playerKeys } = await convertRequestIds(migration);
  const mismatches: string[] = [];
  const requestIdsVerified = await verifyRequestIds(migration, requestIds, mismatches);
  const { sourceCounts, targetCounts, playerRequestKeysMade } = await compareKeyCounts(migration, playerKeys, mismatches);
  return { dryRun: false, source: sourceCounts, target: targetCounts, copied, expired, seatsLeftOut, requestIds, requestIdsVerified, playerRequestKeysMade, mismatches };
}
