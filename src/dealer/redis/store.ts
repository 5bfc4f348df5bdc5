import { Cluster } from 'ioredis';
import { idempotencyWindow, withdrawalThreshold } from '../identifiers';
import type { DealerStore, Emissions, FairnessPages, Offloading, OperatorEvents, PageLog, Wallets } from '../types';
import type { Protections } from '../../protection/types';
import { defineDealerScripts } from '../scripts/commands';
import { type RedisClient } from '../../redis-scripts/loader';
import { ArchiveRelay } from './archive-relay';
import { RedisOffloading } from './offloading';
import { EmissionCatalog } from './catalog';
import { RedisContext } from './context';
import { RedisEmissions } from './emissions';
import { DealerKeys, MAX_LANES } from './keys';
import { OneScriptPurchase } from './one-script-purchase';
import { RedisProtections } from '../../protection/redis';
import { decodeJournalLine } from '../records';
import { RedisPageLog } from './page-log';
import { RedisPages } from './pages';
import { PerSlotPurchase } from './per-slot-purchase';
import { BlockPrinter } from './printer';
import { SaleReader } from './sale-reader';
import type { RedisSales } from './sales';
import { RedisOperatorEvents } from './operator-events';
import { RedisOutbox } from './outbox';
import { RedisWallets } from './wallets';

/** The key names and the lanes' bound, for the action log, the settings and the cluster migration: code outside this folder reaches it through this file. */
export { DealerKeys, MAX_LANES };

export interface RedisStoreOptions {
  /** Key prefix (`lottery` gives `lottery:…`); tests use a unique one each. Default: `lottery`. */
  readonly prefix?: string;
  /**
   * A retried request within this many ms of its purchase is answered with the same sale;
   * its record is dropped between one and two windows after (see purchaseUnits.lua).
   * Default: `IDEMPOTENCY_WINDOW_MS` (identifiers.ts: 24 h).
   */
  readonly idempotencyWindowMs?: number;
  /**
   * How a purchase and a settlement change the lane and the wallet (docs/dealer.md):
   * - `one-script` (default): one script over both (they must share a server: one Redis);
   * - `per-slot`: one idempotent script per slot, re-driven by request id (required on a
   *   Redis Cluster; runs on one Redis too).
   */
  readonly protocol?: 'one-script' | 'per-slot';
  /**
   * Replicas that must acknowledge a purchase's, settlement's, deposit's or withdrawal's writes
   * (`WAIT`) before it is answered; when fewer do within `replicaTimeoutMs`, the call fails as
   * an outage (the client gets `server/unavailable` and retries with the same request id).
   * Default 0: no wait.
   */
  readonly waitReplicas?: number;
  /** How long a `WAIT` may take, in ms. Default 1000. */
  readonly replicaTimeoutMs?: number;
  /**
   * Lanes of the emissions this store opens (1–64, clamped to the emission's block count): lane
   * l deals blocks l, l + L, … under its own hash tag, so one game and price deals on several
   * slots (docs/dealer.md, "Lanes"). An emission keeps the lanes it was opened with. Above 1
   * only with `protocol: 'per-slot'`. Default 1.
   */
  readonly sequenceLanes?: number;
  /**
   * The automatic withdrawal threshold, in cents: a prize credit that takes a balance from at
   * or below it to above it adds an event to the operator's events (`events`). Default: off.
   */
  readonly withdrawalThreshold?: number;
  /**
   * The operator's wallet holds the players' money (WALLET_MODE=seamless, src/wallet/seamless):
   * each stake is debited there before its purchase reaches this store, so a purchase is not
   * checked against the balance here, and that balance is the player's net with the operator's
   * wallet (prizes less stakes), below zero as often as not. Default false.
   */
  readonly fundedByOperator?: boolean;
  /**
   * How long a dealer's claim to hash a Merkle page lasts, in ms: the other dealers wait for its
   * root that long at most before hashing the page themselves (pages.ts; hashing takes about
   * 10 ms, so a dealer that dies while hashing holds the lane's purchases up to this long).
   * Default 1000.
   */
  readonly pageClaimMs?: number;
}

/**
 * The dealer on Redis: every change is one Lua script (src/dealer/lua), so any number of
 * processes can deal the same blocks; on a Redis Cluster (`protocol: 'per-slot'`) a purchase or
 * a settlement is a chain of single-slot scripts, each idempotent (docs/dealer.md). Blocks are
 * printed here, in Node, and stored by the scripts (printer.ts). Its parts: docs/dealer.md,
 * "The stores' files".
 *
 * The client is the caller's: `close()` leaves it open. Purchases are batched here; let the
 * other calls in flight share writes too (the server's `writeOncePerTurn`, or ioredis's
 * `enableAutoPipelining`).
 */
export class RedisStore implements DealerStore {
  readonly emissions: Emissions;
  readonly sales: RedisSales;
  readonly wallets: Wallets;
  readonly pages: FairnessPages;
  readonly log: PageLog;
  readonly offloading: Offloading;
  readonly protections: Protections;
  readonly events: OperatorEvents;
  readonly keys: DealerKeys;
  /** The regulator's archive's outbox (src/dealer/outbox.ts): what the archive writer drains. */
  readonly outbox: RedisOutbox;
  private readonly ctx: RedisContext;
  private readonly printer: BlockPrinter;
  private readonly publisher: RedisPages;

  constructor(redis: RedisClient, options: RedisStoreOptions = {}) {
    const lanes = options.sequenceLanes ?? 1;
    if (!Number.isInteger(lanes) || lanes < 1 || lanes > MAX_LANES) {
      throw new RangeError(`sequenceLanes must be a whole number from 1 to ${MAX_LANES}: ${lanes}`);
    }
    // The one-script purchase finds the units bought together by their request ids, which
    // lanes keep apart; the per-slot protocol finds them in the player's records.
    const perSlot = options.protocol === 'per-slot';
    if (lanes > 1 && !perSlot) throw new RangeError('sequenceLanes above 1 needs the per-slot protocol');
    const keys = new DealerKeys(options.prefix ?? 'lottery');
    const ctx = new RedisContext(redis, defineDealerScripts(redis), keys, idempotencyWindow(options.idempotencyWindowMs), options.waitReplicas ?? 0, options.replicaTimeoutMs ?? 1000, perSlot);
    const catalog = new EmissionCatalog(ctx);
    const sales = new SaleReader(ctx, catalog);
    const log = new RedisPageLog(ctx);
    const pageClaimMs = options.pageClaimMs ?? 1_000;
    if (!Number.isSafeInteger(pageClaimMs) || pageClaimMs < 1) throw new RangeError(`pageClaimMs must be a whole number of ms ≥ 1, got ${pageClaimMs}`);
    const pages = new RedisPages(ctx, catalog, sales, log, pageClaimMs);
    const printer = new BlockPrinter(ctx, catalog, pages);
    const emissions = new RedisEmissions(ctx, catalog, printer, pages, lanes);
    // On one script the money scripts write the archive's money stream itself: nothing to relay.
    const relay = new ArchiveRelay(ctx);
    const protections = new RedisProtections(ctx, perSlot ? relay : undefined, decodeJournalLine);
    const parts = { ctx, catalog, emissions, printer, pages, sales, protections, relay, withdrawalThreshold: withdrawalThreshold(options.withdrawalThreshold), fundedByOperator: options.fundedByOperator ?? false };
    const wallets = new RedisWallets(ctx, perSlot ? relay : undefined);
    this.emissions = emissions;
    this.sales = perSlot ? new PerSlotPurchase(parts, wallets) : new OneScriptPurchase(parts, wallets);
    this.wallets = wallets;
    this.pages = pages;
    this.log = log;
    this.offloading = new RedisOffloading(ctx, catalog);
    this.events = new RedisOperatorEvents(ctx);
    this.protections = protections;
    this.keys = keys;
    this.outbox = new RedisOutbox(ctx);
    this.ctx = ctx;
    this.printer = printer;
    this.publisher = pages;
  }

  /**
   * Per-slot protocol: drives to their end the purchases left pending at or before
   * `olderThan` (their process died between steps); 0 with one script. Returns how many it drove.
   */
  recoverPurchases(olderThan: number): Promise<number> {
    return this.sales.recoverPurchases(olderThan);
  }

  /**
   * The players with a journal (SCAN of `{player:*}:journal` on the Redis, or on each master of
   * a Redis Cluster), for the archive's reconciliation.
   */
  async journaledPlayers(): Promise<string[]> {
    const match = this.keys.player('*').journal;
    const players = new Set<string>();
    const prefix = this.keys.player('').journal.split('{player:}')[0]!;
    const redis = this.ctx.redis;
    for (const node of redis instanceof Cluster ? redis.nodes('master') : [redis]) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', match, 'COUNT', 1000);
        for (const key of keys) players.add(key.slice(`${prefix}{player:`.length, -'}:journal'.length));
        cursor = next;
      } while (cursor !== '0');
    }
    return [...players];
  }

  /** Waits for the blocks this process is printing ahead and the pages it is publishing; the Redis client stays open. */
  async close(): Promise<void> {
    await Promise.all([this.printer.printed(), this.publisher.published()]);
  }
}
