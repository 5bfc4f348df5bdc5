import { prizeOfTier } from '../games/prize-tables';
import type { GameId, PrizeTable } from '../games/types';
import type { Cents } from '../money';
import {
  assertDeposit,
  assertOpenEmission,
  assertTime,
  blockIdOf,
  canonicalTable,
  checkPurchaseRequest,
  gameClosed,
  idempotencyWindow,
  insufficientFunds,
  isPlayerId,
  parseBlockId,
  parseUnitId,
  salesPage,
  sameTable,
  unfinishedUnit,
  unitIdOf,
  unknownSequence,
  unsettledLimit,
  type UnitRef,
} from './identifiers';
import { readArchivedTiers, readArchivedUnit } from './archive';
import { DealerKeys, firstLane, indexedEmission, laneOfBlock, MAX_LANES, parseIndexedEmission, PENDING_SHARDS, type BlockKeys, type IndexedEmission } from './keys';
import { pageCount, pageOf, pageRange, PageTreeCache, pageTree, pageTreeOfPrint, proveUnit, rootOfPage, type PageTree, type UnitProof } from './merkle';
import { printBlock, printNewBlock, UNSOLD, type PrintedBlock } from './printing';
import { buildSale, decodeJournalLine, decodeSale } from './records';
import { archiveBlock } from './scripts/archive-block';
import { defineDealerScripts, type DealerRunScript, type RedisClient } from './scripts/commands';
import { creditPrize } from './scripts/credit-prize';
import { dealUnits } from './scripts/deal-units';
import { finishPurchase } from './scripts/finish-purchase';
import { forgetPending } from './scripts/forget-pending';
import { refundPurchase } from './scripts/refund-purchase';
import { reservePurchase } from './scripts/reserve-purchase';
import { settleSale } from './scripts/settle-sale';
import { deposit } from './scripts/deposit';
import { withdraw } from './scripts/withdraw';
import { DealerScriptError, scriptError } from './scripts/errors';
import { openEmission, type PrintedForRedis } from './scripts/open-emission';
import { decodePage, publishPage } from './scripts/publish-page';
import { purchaseUnits, type BatchedPurchase, type PurchaseUnitResult } from './scripts/purchase-units';
import { settleUnit } from './scripts/settle-unit';
import { storeBlock } from './scripts/store-block';
import type {
  BlockInfo,
  BlockState,
  DealerStore,
  EmissionInfo,
  JournalEntry,
  OpenEmissionRequest,
  PageCommitment,
  PlayerId,
  PurchaseRequest,
  PurchaseResult,
  Sale,
  SettleResult,
  Wallet,
  WithdrawResult,
} from './types';

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
   * How a purchase and a settlement change the sequence and the wallet (docs/dealer.md):
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
}

/** A write the replicas did not acknowledge in time: it may be lost if its master fails now. */
export class ReplicaAckError extends Error {
  constructor(wanted: number, acknowledged: number, timeoutMs: number) {
    super(`NOREPLICAS ${acknowledged} of ${wanted} replicas acknowledged the write within ${timeoutMs} ms`);
    this.name = 'ReplicaAckError';
  }
}


/** What never changes about an emission once opened: read once, then cached. */
interface EmissionMeta {
  readonly emissionId: string;
  readonly game: GameId;
  readonly stake: Cents;
  readonly table: PrizeTable;
  readonly blockCount: number;
  /** Lanes the emission deals on (1 for emissions opened before lanes). */
  readonly lanes: number;
}

const SCAN_BATCH = 10_000;
/** Journal lines read at least per round trip when paging through a player's history. */
const HISTORY_CHUNK = 64;
/** Players per shard of the pending index read at once by the recovery. */
const RECOVERY_BATCH = 1_000;
/** Purchases per script call at most: bounds the script's run time and its reply. */
const MAX_BATCH = 64;

/** What the player's step recorded of a purchase (per-slot protocol): the sequence's step deals with it. */
interface Reservation {
  readonly balanceBefore: number;
  /** The purchase's time: the first call's, on a retry. */
  readonly now: number;
  readonly picks: string;
}

/** A new print as stored: its block, and its page 0's tree and root (scheme 2). */
interface FirstPagePrint extends PrintedForRedis {
  readonly blockId: string;
  readonly tree: PageTree;
}

/** What a batch answered one purchase. */
interface Dealt {
  readonly result: PurchaseUnitResult;
  /** The lane that answered. */
  readonly lane: number;
  readonly emissionId: string;
  readonly table: PrizeTable | undefined;
}

/** A purchase waiting for its batch. */
interface QueuedPurchase {
  readonly request: PurchaseRequest;
  readonly lane: number;
  /** Per-slot protocol: whether a lane that passed the request on before answers so (the first walk). */
  readonly passMarked: boolean;
  /** Per-slot protocol only. */
  readonly reservation: Reservation | undefined;
  resolve(dealt: Dealt): void;
  reject(err: unknown): void;
}

/**
 * The dealer on Redis: every change is one Lua script (src/dealer/lua), so any number of
 * processes can deal the same blocks; on a Redis Cluster (`protocol: 'per-slot'`) a purchase or
 * a settlement is a chain of single-slot scripts, each idempotent (docs/dealer.md). Blocks are printed here, in Node, and stored by the
 * scripts; a block is printed ahead as soon as the one before it opens, and printed on the spot
 * when a purchase finds it missing (its printer died), so printing never refuses a purchase.
 *
 * The client is the caller's: `close()` leaves it open. Purchases are batched here; let the
 * other calls in flight share writes too (the server's `writeOncePerTurn`, or ioredis's
 * `enableAutoPipelining`).
 */
export class RedisStore implements DealerStore {
  readonly keys: DealerKeys;
  private readonly run: DealerRunScript;
  private readonly windowMs: number;
  private readonly metas = new Map<string, EmissionMeta>();
  /** blockId → its printing in progress in this process, so it happens once here. */
  private readonly printing = new Map<string, Promise<void>>();
  /** `<game>:<stake>:<lane>` → purchases of this event-loop turn, sent together. */
  private readonly batches = new Map<string, QueuedPurchase[]>();
  private readonly perSlot: boolean;
  private readonly waitReplicas: number;
  private readonly replicaTimeoutMs: number;
  /** `<game>:<stake>:<lane>` → where this process last saw a unit sold: the pages to publish ahead start there. */
  private readonly lastSold = new Map<string, { emissionId: string; index: number; position: number }>();
  /** `<blockId>:<page>` → the pages hashed last: publishing one and proving in it share the hashing. */
  private readonly pageTrees = new PageTreeCache();
  /** `<blockId>:<page>` → its published root (pages never change once published). */
  private readonly pages = new Map<string, Promise<PageCommitment | undefined>>();
  private readonly lanes: number;
  /** `<game>:<stake>` → the emission its lane 0 sells, every lane of it opened: the lanes purchases walk. */
  private readonly currents = new Map<string, Promise<EmissionMeta | undefined>>();

  constructor(
    private readonly redis: RedisClient,
    options: RedisStoreOptions = {},
  ) {
    this.keys = new DealerKeys(options.prefix ?? 'lottery');
    this.run = defineDealerScripts(redis);
    this.windowMs = idempotencyWindow(options.idempotencyWindowMs);
    this.perSlot = options.protocol === 'per-slot';
    this.waitReplicas = options.waitReplicas ?? 0;
    this.replicaTimeoutMs = options.replicaTimeoutMs ?? 1000;
    this.lanes = options.sequenceLanes ?? 1;
    if (!Number.isInteger(this.lanes) || this.lanes < 1 || this.lanes > MAX_LANES) {
      throw new RangeError(`sequenceLanes must be a whole number from 1 to ${MAX_LANES}: ${this.lanes}`);
    }
    // The one-script purchase finds the units bought together by their request ids, which
    // lanes keep apart; the per-slot protocol finds them in the player's records.
    if (this.lanes > 1 && !this.perSlot) throw new RangeError('sequenceLanes above 1 needs the per-slot protocol');
  }

  async openEmission(request: OpenEmissionRequest): Promise<EmissionInfo> {
    assertOpenEmission(request);
    const existing = await this.existingEmission(request);
    if (existing) return existing;
    const { table, emissionId, blockCount, now } = request;
    await this.refuseWhileSelling(table.game, table.stake, emissionId);
    const meta: EmissionMeta = { emissionId, game: table.game, stake: table.stake, table, blockCount, lanes: Math.min(this.lanes, blockCount) };
    try {
      // Lane 0 first: of two emissions opened at once, the one that wins lane 0 wins them all.
      await this.openLane(meta, 0, now);
    } catch (err) {
      // Another process opened the same emission between our check and our script (or one
      // died before indexing it): index it, then it is the existing one (its lanes completed).
      if (!(err instanceof DealerScriptError && err.code === 'dealer/emission_exists')) throw err;
      const lanes = await this.redis.hget(this.keys.emissionKey(table.game, table.stake, emissionId), 'lanes');
      await this.indexEmission(emissionId, indexedEmission(table.game, table.stake, Number(lanes ?? 1)));
      const opened = await this.existingEmission(request);
      if (opened) return opened;
      throw err;
    }
    await this.completeLanes(meta, now);
    // The index is another key (another slot on a cluster): written after the lanes, so
    // that every emission it names exists.
    await this.indexEmission(emissionId, indexedEmission(table.game, table.stake, meta.lanes));
    return (await this.emissionInfo((await this.meta(emissionId))!))!;
  }

  /**
   * Refuses (`dealer/sequence_busy`) while another emission of the game and price sells on any
   * of its lanes (this one: its opener died before indexing it, and lane 0 says so).
   */
  private async refuseWhileSelling(game: string, stake: Cents, emissionId: string): Promise<void> {
    const current = await this.redis.get(this.keys.sequence(game, stake).current);
    if (!current || current === emissionId) return;
    const lanes = Number((await this.redis.hget(this.keys.emissionKey(game, stake, current), 'lanes')) ?? 1);
    const states = await this.laneField(game, stake, current, lanes, 'state');
    // A lane never opened (its opener died) sells nothing.
    if (states.some((state) => state !== null && state !== 'closed')) throw scriptError('openEmission', -7);
  }

  /** Opens lane `lane` of an emission: its first block open, its next printed, each with its page 0's root. */
  private async openLane(meta: EmissionMeta, lane: number, now: number): Promise<void> {
    const { table, emissionId, blockCount, lanes } = meta;
    const sequence = this.keys.sequence(table.game, table.stake, lane);
    const first = this.withFirstPage(blockIdOf(emissionId, lane), printNewBlock(table));
    const second = lane + lanes < blockCount ? this.withFirstPage(blockIdOf(emissionId, lane + lanes), printNewBlock(table)) : undefined;
    await openEmission(this.run, { current: sequence.current, base: sequence.base }, {
      emissionId,
      sequence: `${table.game}:${table.stake}`,
      tableJson: JSON.stringify(canonicalTable(table)),
      blockSize: table.blockSize,
      blockCount,
      prizes: table.tiers.map((t) => t.prize),
      now,
      lanes,
      lane,
      first,
      ...(second ? { second } : {}),
    });
    this.keepFirstPage(first, now);
    if (second) this.keepFirstPage(second, now);
  }

  /**
   * Opens the lanes 1..L-1 of an emission that are not open yet (their opener died half way),
   * while lane 0 still sells it: so every process deals an emission only with all its lanes,
   * and a purchase's walk over them is the same every time.
   */
  private async completeLanes(meta: EmissionMeta, now: number): Promise<void> {
    const { game, stake, emissionId } = meta;
    if (meta.lanes === 1 || (await this.redis.get(this.keys.sequence(game, stake).current)) !== emissionId) return;
    for (let lane = 1; lane < meta.lanes; lane++) {
      if (await this.redis.exists(this.keys.emissionKey(game, stake, emissionId, lane))) continue;
      try {
        await this.openLane(meta, lane, now);
      } catch (err) {
        // Opened meanwhile by another process: as wanted.
        if (!(err instanceof DealerScriptError && err.code === 'dealer/emission_exists')) throw err;
      }
    }
  }

  /** One field of an emission's hash on each of its lanes (null for a lane not opened). */
  private laneField(game: string, stake: Cents, emissionId: string, lanes: number, field: 'state' | 'index'): Promise<(string | null)[]> {
    return Promise.all(Array.from({ length: lanes }, (_, lane) => this.redis.hget(this.keys.emissionKey(game, stake, emissionId, lane), field)));
  }

  /** Adds an emission to the index; throws if the id names another sequence's emission. */
  private async indexEmission(emissionId: string, sequence: string): Promise<void> {
    if ((await this.redis.hsetnx(this.keys.emissions, emissionId, sequence)) === 1) return;
    const indexed = await this.redis.hget(this.keys.emissions, emissionId);
    if (indexed !== sequence) throw new Error(`emission ${emissionId} already exists on ${indexed}`);
  }

  async listEmissions(): Promise<EmissionInfo[]> {
    const ids = Object.keys(await this.redis.hgetall(this.keys.emissions)).sort();
    const infos = await Promise.all(ids.map(async (id) => this.emissionInfo((await this.meta(id))!)));
    return infos.filter((info): info is EmissionInfo => info !== undefined);
  }

  async block(blockId: string): Promise<BlockInfo | undefined> {
    const ref = parseBlockId(blockId);
    const meta = ref && (await this.meta(ref.emissionId));
    return meta && (await this.emissionInfo(meta))?.blocks.find((b) => b.index === ref.index);
  }

  async blockSeed(blockId: string): Promise<Uint8Array> {
    const ref = parseBlockId(blockId);
    const meta = ref && (await this.meta(ref.emissionId));
    const seed = meta && (await this.redis.hget(this.blockKeysOf(meta, blockId).info, 'seed'));
    if (!seed) throw new RangeError(`unknown block ${blockId}`);
    return new Uint8Array(Buffer.from(seed, 'hex'));
  }

  /**
   * Purchases go out in batches: those issued in one event-loop turn for one lane of a game
   * and price share one script call (purchaseUnits.lua, or dealUnits-5.lua per slot), each
   * still its own atomic step.
   */
  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const refused = checkPurchaseRequest(request);
    if (refused) return refused;
    if (this.perSlot) return this.purchasePerSlot(request);
    const dealt = await this.deal(request, undefined);
    await this.replicated(this.keys.sequence(request.game, request.stake, dealt.lane).current);
    return this.answer(request, dealt, request.now);
  }

  /**
   * The per-slot purchase (docs/dealer.md, "Purchases on Redis Cluster"): hold the stake on the
   * player's slot, deal on the sequence's, then debit on the player's; a refusal of the
   * sequence releases the hold. Every step is idempotent by request id, so a retry (or
   * `recoverPurchases`) drives a purchase cut anywhere to the same end.
   */
  private async purchasePerSlot(request: PurchaseRequest): Promise<PurchaseResult> {
    const { playerId, requestId, game, stake, now } = request;
    const player = this.keys.player(playerId);
    const window = Math.floor(now / this.windowMs);
    // Before the reservation: whatever happens after, the recovery can find this player.
    await this.redis.zadd(this.keys.pendingIndex(this.keys.pendingShard(playerId)), 'GT', now, playerId);
    const reserved = await reservePurchase(
      this.run,
      { wallet: player.wallet, pending: player.pending, requests: player.requests(window), previousRequests: player.requests(window - 1) },
      { sequence: `${game}:${stake}`, requestId, stake, game, now, picks: request.picks ?? '', boughtTogether: request.boughtTogether ?? [] },
    );
    // The hold must outlive its master too: a hold lost in a failover while its unit is dealt
    // would let a settlement of that unit find nothing to finish, and the retry debit it after.
    if (reserved.kind === 'held' || reserved.kind === 'pending') await this.replicated(player.wallet);
    switch (reserved.kind) {
      case 'sold':
        return this.replay(request, reserved.unitId);
      case 'insufficient_funds':
        return (await this.sequenceRefusal(game, stake, now)) ?? insufficientFunds(reserved.available, stake);
      case 'unfinished_unit':
        return (await this.sequenceRefusal(game, stake, now)) ?? unfinishedUnit(game);
      case 'held':
        return this.completePurchase(request, { balanceBefore: reserved.balanceBefore, now, picks: request.picks ?? '' });
      case 'pending':
        return this.completePurchase(request, reserved);
    }
  }

  /**
   * Per-slot protocol: drives to their end the purchases reserved at or before `olderThan` and
   * still pending (their process died between steps, and no retry came): each is dealt (or
   * found dealt) and debited, or refunded if the sequence refuses it, exactly as its retry
   * would. Returns how many it drove. The server runs it with its sweeper.
   */
  async recoverPurchases(olderThan: number): Promise<number> {
    if (!this.perSlot) return 0;
    let driven = 0;
    for (let shard = 0; shard < PENDING_SHARDS; shard++) {
      const index = this.keys.pendingIndex(shard);
      const players = await this.redis.zrangebyscore(index, '-inf', olderThan, 'LIMIT', 0, RECOVERY_BATCH);
      for (const playerId of players) {
        const pending = await this.redis.hgetall(this.keys.player(playerId).pending);
        let left = 0;
        for (const [field, record] of Object.entries(pending)) {
          const parsed = parsePending(playerId, field, record);
          if (!parsed || parsed.reservation.now > olderThan) {
            left++;
            continue;
          }
          await this.completePurchase(parsed.request, parsed.reservation);
          driven++;
        }
        if (left === 0) await forgetPending(this.run, index, { playerId, upTo: olderThan });
      }
    }
    return driven;
  }

  /**
   * Unknown game or sold out, read from the sequence: these refusals come before the wallet's
   * (as in purchaseUnits.lua), though the per-slot protocol meets the wallet first.
   */
  private async sequenceRefusal(game: string, stake: Cents, now: number): Promise<PurchaseResult | undefined> {
    // Read again: the sequence may have moved on to another emission.
    this.currents.delete(`${game}:${stake}`);
    const meta = await this.current(game, stake, now);
    if (!meta) return unknownSequence(game, stake);
    const states = await this.laneField(game, stake, meta.emissionId, meta.lanes, 'state');
    return states.every((state) => state === 'closed') ? gameClosed(game, stake) : undefined;
  }

  /** The sequence's step and the player's last of a reserved purchase. */
  private async completePurchase(request: PurchaseRequest, reservation: Reservation): Promise<PurchaseResult> {
    const { playerId, requestId, game, stake } = request;
    const player = this.keys.player(playerId);
    const field = `${game}:${stake}|${requestId}`;
    const dealt = await this.deal(request, reservation);
    const { result } = dealt;
    if (result.kind === 'refused') {
      // Only a definite refusal releases the hold: an unknown outcome (an error) leaves it
      // pending, for the retry or the recovery to deal.
      await refundPurchase(this.run, player, { field, stake, game });
      await this.replicated(player.wallet);
      return this.answer(request, dealt, reservation.now);
    }
    const unitId = result.kind === 'replayed' ? result.unitId : unitIdOf(blockIdOf(dealt.emissionId, result.index), result.position);
    // The sale must outlive its master before the wallet names it.
    await this.replicated(this.keys.sequence(game, stake, dealt.lane).current);
    const window = Math.floor(reservation.now / this.windowMs);
    await finishPurchase(this.run, { ...player, requests: player.requests(window) }, {
      field,
      unitId,
      stake,
      soldAt: reservation.now,
      requestsTtlMs: this.requestsTtl(reservation.now),
    });
    await this.replicated(player.wallet);
    return this.answer({ ...request, now: reservation.now, picks: reservation.picks }, dealt, reservation.now);
  }

  /** Time to live of the request ids of the window of `now`: to the end of the next window. */
  private requestsTtl(now: number): number {
    return (Math.floor(now / this.windowMs) + 2) * this.windowMs - now;
  }

  /**
   * Waits until `waitReplicas` replicas of the server holding `key` have this connection's
   * writes (WAIT on that server: a pipeline goes to the key's node); throws ReplicaAckError
   * when fewer did in time.
   */
  private async replicated(key: string): Promise<void> {
    if (this.waitReplicas === 0) return;
    const replies = await this.redis.pipeline().exists(key).wait(this.waitReplicas, this.replicaTimeoutMs).exec();
    const [err, acknowledged] = replies?.[1] ?? [new Error('WAIT got no reply'), 0];
    if (err) throw err;
    if (Number(acknowledged) < this.waitReplicas) throw new ReplicaAckError(this.waitReplicas, Number(acknowledged), this.replicaTimeoutMs);
  }

  /**
   * The emission lane 0 of a game and price sells, once every lane of it is open; read once
   * and kept until a purchase meets another emission.
   */
  private current(game: string, stake: Cents, now: number): Promise<EmissionMeta | undefined> {
    const sequence = `${game}:${stake}`;
    let found = this.currents.get(sequence);
    if (!found) {
      found = (async () => {
        const emissionId = await this.redis.get(this.keys.sequence(game, stake).current);
        const meta = emissionId ? await this.metaOn(game, stake, emissionId) : undefined;
        if (meta) await this.completeLanes(meta, now);
        return meta;
      })();
      const kept = found;
      this.currents.set(sequence, kept);
      kept.then((meta) => meta ?? this.forgetCurrent(sequence, kept), () => this.forgetCurrent(sequence, kept));
    }
    return found;
  }

  private forgetCurrent(sequence: string, current: Promise<EmissionMeta | undefined>): void {
    if (this.currents.get(sequence) === current) this.currents.delete(sequence);
  }

  /**
   * A purchase on the lanes of the current emission: first the lane its request names
   * (`firstLane`), then the next ones, wrapping, while they answer sold out (or sell no
   * emission); `purchase/game_closed` when all do. A lane once sold out stays so within an
   * emission and the walk is the same every time, so a retry meets the lane that dealt it,
   * which answers its unit (a lane checks request ids before its state). A lane of several that
   * turns a request away records it as passed, and answers so to the request's later walks:
   * so a retry still reaches the lane that dealt it once another emission sells on the lanes
   * before. When every lane passed it (it was never dealt), it walks again, dealt anywhere.
   */
  private async deal(request: PurchaseRequest, reservation: Reservation | undefined): Promise<Dealt> {
    const { game, stake, playerId, requestId, now } = request;
    const sequence = `${game}:${stake}`;
    for (let refreshed = false; ; refreshed = true) {
      const current = this.current(game, stake, now);
      const meta = await current;
      const lanes = meta?.lanes ?? 1;
      const first = firstLane(playerId, requestId, lanes);
      let dealt: Dealt | undefined;
      for (const passMarked of [true, false]) {
        let passed = false;
        for (let k = 0; k < lanes; k++) {
          dealt = await this.dealOnLane(request, reservation, (first + k) % lanes, passMarked);
          if (dealt.emissionId !== (meta?.emissionId ?? '')) this.forgetCurrent(sequence, current);
          const code = dealt.result.kind === 'refused' ? dealt.result.error.code : undefined;
          passed ||= code === 'dealer/lane_passed';
          if (code !== 'purchase/game_closed' && code !== 'purchase/unknown_game' && code !== 'dealer/lane_passed') return dealt;
        }
        if (!passed) break;
      }
      // Every lane refused: read the current emission again, once, in case it changed.
      this.forgetCurrent(sequence, current);
      if (refreshed || (await this.current(game, stake, now))?.emissionId === meta?.emissionId) return dealt!;
    }
  }

  /** A purchase through its lane's batch; a block found not printed yet is printed and the purchase goes again. */
  private async dealOnLane(request: PurchaseRequest, reservation: Reservation | undefined, lane: number, passMarked: boolean): Promise<Dealt> {
    let missing: string | undefined;
    for (;;) {
      const dealt = await new Promise<Dealt>((resolve, reject) => this.enqueue({ request, lane, passMarked, reservation, resolve, reject }));
      const { result } = dealt;
      if (result.kind !== 'refused' || result.error.code !== 'dealer/next_block_not_printed') return dealt;
      // Under load the block printed may sell out before the retry runs, so the next ask
      // names a later block; the same block twice is an error.
      const { emissionId, index } = result.error.detail;
      const blockId = blockIdOf(emissionId!, index!);
      if (blockId === missing) throw result.error;
      missing = blockId;
      const meta = await this.metaOn(request.game, request.stake, emissionId!);
      if (!meta) throw result.error;
      await this.ensurePrinted(meta, index!, request.now);
    }
  }

  private enqueue(queued: QueuedPurchase): void {
    const sequence = `${queued.request.game}:${queued.request.stake}:${queued.lane}`;
    let batch = this.batches.get(sequence);
    if (!batch) {
      batch = [];
      this.batches.set(sequence, batch);
      process.nextTick(() => this.sendBatch(sequence));
    }
    batch.push(queued);
    if (batch.length >= MAX_BATCH) this.sendBatch(sequence);
  }

  private sendBatch(sequence: string): void {
    const batch = this.batches.get(sequence);
    if (!batch) return;
    this.batches.delete(sequence);
    // A failed call (Redis unreachable, say) fails every purchase of the batch: each caller
    // may retry with the same request id.
    this.dealBatch(batch).catch((err: unknown) => {
      for (const queued of batch) queued.reject(err);
    });
  }

  private async dealBatch(batch: readonly QueuedPurchase[]): Promise<void> {
    const { request: { game, stake, now }, lane } = batch[0]!;
    const sequence = this.keys.sequence(game, stake, lane);
    const window = Math.floor(now / this.windowMs);
    const keys = {
      current: sequence.current,
      base: sequence.base,
      sequenceUnsettled: sequence.unsettled,
      requests: sequence.requests(window),
      previousRequests: sequence.requests(window - 1),
    };
    await this.publishAhead(game, stake, lane, now);
    const { emissionId, openedIndex, results } = this.perSlot
      ? await dealUnits(this.run, keys, { stake, requestsTtlMs: this.requestsTtl(now) }, batch.map(({ request, reservation, passMarked }) => ({
          playerId: request.playerId,
          requestId: request.requestId,
          now: reservation!.now,
          picks: reservation!.picks,
          balanceBefore: reservation!.balanceBefore,
          passMarked,
        })))
      : await purchaseUnits(this.run, keys, { stake, game, requestsTtlMs: this.requestsTtl(now) }, batch.map(({ request }): BatchedPurchase => {
          const player = this.keys.player(request.playerId);
          return {
            wallet: player.wallet,
            journal: player.journal,
            playerId: request.playerId,
            requestId: request.requestId,
            now: request.now,
            picks: request.picks ?? '',
            boughtTogether: request.boughtTogether ?? [],
          };
        }));
    const meta = emissionId === '' ? undefined : await this.metaOn(game, stake, emissionId);
    if (openedIndex !== undefined && meta) this.printAhead(meta, openedIndex + meta.lanes, now);
    this.noteSold(game, stake, lane, emissionId, results, now);
    batch.forEach((queued, i) => queued.resolve({ result: results[i]!, lane, emissionId, table: meta?.table }));
  }

  /** The answer to a purchase from what its batch said; `soldAt` is the sale's time. */
  private async answer(request: PurchaseRequest, dealt: Dealt, soldAt: number): Promise<PurchaseResult> {
    const { result, emissionId, table } = dealt;
    if (result.kind === 'sold') {
      if (!table) throw new Error(`emission ${emissionId} sold a unit but has no table`);
      const sale = buildSale(table, blockIdOf(emissionId, result.index), result.position, {
        playerId: request.playerId,
        requestId: request.requestId,
        tierId: result.tierId,
        prize: prizeOfTier(table, result.tierId),
        soldAt,
        balanceBefore: result.balanceBefore,
        balanceAfter: result.balanceBefore - request.stake,
        picks: request.picks ?? '',
      });
      return { ok: true, sale, replayed: false };
    }
    if (result.kind === 'replayed') return this.replay(request, result.unitId);
    const { error } = result;
    switch (error.code) {
      case 'purchase/unknown_game':
        return unknownSequence(request.game, request.stake);
      case 'purchase/game_closed':
        return gameClosed(request.game, request.stake);
      case 'purchase/insufficient_funds':
        return insufficientFunds(error.detail.balance!, request.stake);
      case 'purchase/unfinished_unit':
        return unfinishedUnit(request.game);
      default:
        throw error;
    }
  }

  private async replay(request: PurchaseRequest, unitId: string): Promise<PurchaseResult> {
    const sale = await this.getSale(unitId);
    if (!sale) throw new Error(`request ${request.requestId} names unit ${unitId}, which has no sale`);
    return { ok: true, sale, replayed: true };
  }

  async settle(unitId: string, now: number): Promise<SettleResult> {
    assertTime(now);
    const unknown: SettleResult = { ok: false, code: 'settle/unknown_unit', message: `no sale of unit ${unitId}` };
    const found = await this.findSale(unitId, false);
    if (!found) return unknown;
    const { meta, ref, sale } = found;
    // Only blocks whose every unit is settled are archived.
    if (found.archived) return { ok: true, credited: false, prize: sale.prize, balance: await this.balance(sale.playerId) };
    const block = this.blockKeysOf(meta, ref.blockId);
    const player = this.keys.player(sale.playerId);
    const sequenceUnsettled = this.keys.sequence(meta.game, meta.stake, laneOfBlock(ref.index, meta.lanes)).unsettled;
    try {
      if (this.perSlot) {
        // The buyer's step first (credit once, the wallet's u:<unitId> being the token), then
        // the sequence's: a unit marked settled has always been credited, and one credited but
        // not marked stays in the unsettled set, where the sweeper settles it again (a no-op
        // credit, then the mark).
        const credit = await creditPrize(this.run, { ...player, requests: player.requests(Math.floor(sale.soldAt / this.windowMs)) }, {
          field: `${meta.game}:${meta.stake}|${sale.requestId}`,
          unitId,
          stake: meta.stake,
          soldAt: sale.soldAt,
          requestsTtlMs: this.requestsTtl(sale.soldAt),
          prize: sale.prize,
          now,
          game: meta.game,
        });
        await this.replicated(player.wallet);
        await settleSale(this.run, { sales: block.sales, settled: block.settled, sequenceUnsettled }, {
          position: ref.position,
          unitId,
          playerId: sale.playerId,
          now,
        });
        await this.replicated(block.sales);
        return { ok: true, credited: credit.credited, prize: sale.prize, balance: credit.balance };
      }
      const result = await settleUnit(
        this.run,
        { sales: block.sales, settled: block.settled, sequenceUnsettled, wallet: player.wallet, journal: player.journal },
        { position: ref.position, unitId, playerId: sale.playerId, now, game: meta.game },
      );
      await this.replicated(block.sales);
      return { ok: true, ...result };
    } catch (err) {
      if (err instanceof DealerScriptError && err.code === 'settle/unknown_unit') return unknown;
      throw err;
    }
  }

  async getSale(unitId: string): Promise<Sale | undefined> {
    return (await this.findSale(unitId))?.sale;
  }

  async recordedTiers(blockId: string): Promise<Uint8Array | undefined> {
    const ref = parseBlockId(blockId);
    const meta = ref && (await this.meta(ref.emissionId));
    if (!meta) return undefined;
    const keys = this.blockKeysOf(meta, blockId);
    const [state, archive] = await this.redis.hmget(keys.info, 'state', 'archive');
    if (!state) return undefined;
    if (archive) return readArchivedTiers(archive, blockId, meta.table.blockSize);
    const tiers = new Uint8Array(meta.table.blockSize).fill(UNSOLD);
    let cursor = '0';
    do {
      const [next, entries] = await this.redis.hscan(keys.sales, cursor, 'COUNT', SCAN_BATCH);
      for (let i = 0; i < entries.length; i += 2) tiers[Number(entries[i])] = decodeSale(entries[i + 1]!).tierId;
      cursor = next;
    } while (cursor !== '0');
    return tiers;
  }

  /**
   * The history is the journal's `stake` lines, read from its end in growing chunks. Positions
   * count from the head (read once with LLEN): lines appended meanwhile do not shift them.
   */
  async listSales(playerId: PlayerId, offset: number, limit: number): Promise<Sale[]> {
    const page = salesPage(offset, limit);
    if (!isPlayerId(playerId) || page.limit === 0) return [];
    const journal = this.keys.player(playerId).journal;
    const wanted = page.offset + page.limit;
    const newestFirst: string[] = [];
    let end = (await this.redis.llen(journal)) - 1;
    for (let chunk = Math.max(HISTORY_CHUNK, 2 * wanted); end >= 0 && newestFirst.length < wanted; chunk *= 2) {
      const lines = await this.redis.lrange(journal, Math.max(0, end - chunk + 1), end);
      for (let i = lines.length - 1; i >= 0 && newestFirst.length < wanted; i--) {
        const entry = decodeJournalLine(lines[i]!);
        if (entry.kind === 'stake') newestFirst.push(entry.ref);
      }
      end -= chunk;
    }
    return this.salesOf(newestFirst.slice(page.offset));
  }

  async unsettledSales(soldBefore: number, limit: number, playerId?: PlayerId): Promise<Sale[]> {
    limit = unsettledLimit(limit);
    if (limit === 0) return [];
    if (playerId !== undefined) {
      if (!isPlayerId(playerId)) return [];
      // A player has few unsettled units (the ones being played): their wallet lists them.
      const wallet = await this.redis.hgetall(this.keys.player(playerId).wallet);
      const due = Object.entries(wallet).flatMap(([field, soldAt]) =>
        field.startsWith('u:') && Number(soldAt) <= soldBefore ? [{ unitId: field.slice(2), soldAt: Number(soldAt) }] : [],
      );
      return this.salesOf(oldestFirst(due).slice(0, limit).map((d) => d.unitId));
    }
    // One sorted set per lane of each game and price (each in its own slot): merge their oldest.
    const lanesOf = new Map<string, IndexedEmission>();
    for (const value of Object.values(await this.redis.hgetall(this.keys.emissions))) {
      const { game, stake, lanes } = parseIndexedEmission(value);
      const seen = lanesOf.get(`${game}:${stake}`);
      if (!seen || seen.lanes < lanes) lanesOf.set(`${game}:${stake}`, { game, stake, lanes });
    }
    const perSequence = await Promise.all(
      [...lanesOf.values()].flatMap(({ game, stake, lanes }) =>
        Array.from({ length: lanes }, (_, lane) =>
          this.redis.zrangebyscore(this.keys.sequence(game, stake, lane).unsettled, '-inf', soldBefore, 'WITHSCORES', 'LIMIT', 0, limit),
        ),
      ),
    );
    const due: { unitId: string; soldAt: number }[] = [];
    for (const flat of perSequence) {
      for (let i = 0; i < flat.length; i += 2) due.push({ unitId: flat[i]!, soldAt: Number(flat[i + 1]) });
    }
    return this.salesOf(oldestFirst(due).slice(0, limit).map((d) => d.unitId));
  }

  async archivableBlocks(closedBefore: number): Promise<string[]> {
    const metas = await Promise.all(Object.keys(await this.redis.hgetall(this.keys.emissions)).map((id) => this.meta(id)));
    const candidates = await Promise.all(
      metas.flatMap((meta) =>
        meta
          ? Array.from({ length: meta.blockCount }, async (_, i) => {
              const blockId = blockIdOf(meta.emissionId, i);
              const keys = this.blockKeysOf(meta, blockId);
              const [[state, size, closedAt, archive], settled] = await Promise.all([
                this.redis.hmget(keys.info, 'state', 'size', 'closedAt', 'archive'),
                this.redis.hlen(keys.settled),
              ]);
              const archivable = state === 'closed' && archive === null && Number(closedAt) <= closedBefore && settled === Number(size);
              return archivable ? [blockId] : [];
            })
          : [],
      ),
    );
    return candidates.flat().sort();
  }

  async blockSales(blockId: string, from: number, limit: number): Promise<Sale[]> {
    const ref = parseBlockId(blockId);
    const meta = ref && (await this.meta(ref.emissionId));
    if (!meta || limit < 1) return [];
    const keys = this.blockKeysOf(meta, blockId);
    const positions = Array.from({ length: Math.max(0, Math.min(limit, meta.table.blockSize - from)) }, (_, i) => String(from + i));
    if (positions.length === 0) return [];
    const [records, settled] = await Promise.all([this.redis.hmget(keys.sales, ...positions), this.redis.hmget(keys.settled, ...positions)]);
    const sales: Sale[] = [];
    for (let i = 0; i < positions.length && records[i] !== null; i++) {
      sales.push(buildSale(meta, blockId, from + i, decodeSale(records[i]!), settled[i] === null ? undefined : Number(settled[i])));
    }
    return sales;
  }

  async markArchived(blockId: string, path: string, now: number): Promise<boolean> {
    assertTime(now);
    const ref = parseBlockId(blockId);
    const meta = ref && (await this.meta(ref.emissionId));
    if (!meta) throw new RangeError(`unknown block ${blockId}`);
    return archiveBlock(this.run, this.blockKeysOf(meta, blockId), { path, now });
  }

  async deposit(playerId: PlayerId, amount: Cents, ref: string, now: number): Promise<Cents> {
    assertDeposit(playerId, amount, ref, now);
    const keys = this.keys.player(playerId);
    const balance = await deposit(this.run, keys, { amount, ref, now });
    await this.replicated(keys.wallet);
    return balance;
  }

  async withdraw(playerId: PlayerId, amount: Cents, ref: string, now: number): Promise<WithdrawResult> {
    assertDeposit(playerId, amount, ref, now);
    const keys = this.keys.player(playerId);
    const result = await withdraw(this.run, keys, { amount, ref, now });
    await this.replicated(keys.wallet);
    return result;
  }

  async balance(playerId: PlayerId): Promise<Cents> {
    if (!isPlayerId(playerId)) return 0;
    return Number((await this.redis.hget(this.keys.player(playerId).wallet, 'balance')) ?? 0);
  }

  async wallet(playerId: PlayerId): Promise<Wallet> {
    if (!isPlayerId(playerId)) return { balance: 0, held: 0 };
    // One read: the wallet holds the balance and a `u:<unitId>` field per unsettled unit, whose
    // stake its emission gives (the ids name it; emissions are cached once read).
    const fields = await this.redis.hgetall(this.keys.player(playerId).wallet);
    let held = 0;
    for (const field of Object.keys(fields)) {
      const ref = field.startsWith('u:') ? parseUnitId(field.slice(2)) : undefined;
      const meta = ref && (await this.meta(ref.emissionId));
      if (meta) held += meta.stake;
    }
    return { balance: Number(fields.balance ?? 0), held };
  }

  async journal(playerId: PlayerId): Promise<JournalEntry[]> {
    if (!isPlayerId(playerId)) return [];
    const lines = await this.redis.lrange(this.keys.player(playerId).journal, 0, -1);
    return lines.map((line, i) => ({ seq: i + 1, ...decodeJournalLine(line) }));
  }

  async pageCommitments(blockId: string): Promise<PageCommitment[] | undefined> {
    const ref = parseBlockId(blockId);
    const meta = ref && (await this.meta(ref.emissionId));
    if (!meta) return undefined;
    const keys = this.blockKeysOf(meta, blockId);
    const [exists, records] = await Promise.all([this.redis.exists(keys.info), this.redis.hgetall(keys.pages)]);
    if (!exists) return undefined;
    return Object.entries(records)
      .map(([page, record]) => decodePage(Number(page), record))
      .sort((a, b) => a.page - b.page);
  }

  async unitProof(unitId: string): Promise<UnitProof | undefined> {
    const found = await this.findSale(unitId, false);
    if (!found) return undefined;
    const { meta, ref } = found;
    const keys = this.blockKeysOf(meta, ref.blockId);
    if (!(await this.redis.hexists(keys.pages, '0'))) return undefined; // printed under scheme 1
    return proveUnit(await this.pageTreeOf(meta, ref.blockId, pageOf(meta.table.blockSize, ref.position)), ref.position);
  }

  /** A page's tree, hashed from its printed units (one GETRANGE) and the seed, or kept from before. */
  private async pageTreeOf(meta: EmissionMeta, blockId: string, page: number): Promise<PageTree> {
    const key = `${blockId}:${page}`;
    const kept = this.pageTrees.get(key);
    if (kept) return kept;
    const size = meta.table.blockSize;
    const { from, count } = pageRange(size, page);
    const units = this.blockKeysOf(meta, blockId).units;
    const [seed, read] = await Promise.all([this.blockSeed(blockId), this.redis.getrangeBuffer(units, from, from + count - 1)]);
    // An archived block's units are gone from Redis; it is closed, so its seed re-prints them.
    const pageUnits = read.length === count ? new Uint8Array(read) : printBlock(meta.table, seed).subarray(from, from + count);
    return this.pageTrees.set(key, pageTree(seed, size, page, pageUnits));
  }

  /** A new print with the tree of its page 0, whose root is stored with the block (scheme 2). */
  private withFirstPage(blockId: string, block: PrintedBlock): FirstPagePrint {
    const tree = pageTreeOfPrint(block, 0);
    return { ...block, blockId, tree, firstPageRoot: Buffer.from(rootOfPage(tree)).toString('hex') };
  }

  /** Keeps the page 0 of a print once stored (a print that lost to another dealer's is dropped, its tree with it). */
  private keepFirstPage(print: FirstPagePrint, now: number): void {
    this.pageTrees.set(`${print.blockId}:0`, print.tree);
    this.pages.set(`${print.blockId}:0`, Promise.resolve({ page: 0, root: print.firstPageRoot, publishedAt: now }));
  }

  /**
   * Before a batch: the page of the next position this process knows of, and the page after,
   * are published (a page's root before its first sale). The purchase script picks the
   * position, so the next one is known from this process's last sale, or read once.
   */
  private async publishAhead(game: string, stake: Cents, lane: number, now: number): Promise<void> {
    const sequence = `${game}:${stake}:${lane}`;
    let last = this.lastSold.get(sequence);
    if (!last) {
      const emissionId = await this.redis.get(this.keys.sequence(game, stake, lane).current);
      const meta = emissionId ? await this.metaOn(game, stake, emissionId) : undefined;
      if (!meta) return;
      const [index, cursor] = await this.redis.hmget(this.keys.emissionKey(game, stake, meta.emissionId, lane), 'index', 'cursor');
      last = { emissionId: meta.emissionId, index: Number(index), position: Number(cursor) - 1 };
    }
    const meta = await this.metaOn(game, stake, last.emissionId);
    if (!meta) return;
    const size = meta.table.blockSize;
    const next = last.position + 1;
    // Past the open block's end, the lane's next block.
    const blockId = blockIdOf(last.emissionId, next < size ? last.index : last.index + meta.lanes);
    const page = next < size ? pageOf(size, next) : 0;
    await Promise.all([this.ensurePage(meta, blockId, page, now), this.ensurePage(meta, blockId, page + 1, now)]);
  }

  /** Remembers the last unit sold, and publishes (late: it shows) any page a sale found unpublished. */
  private noteSold(game: string, stake: Cents, lane: number, emissionId: string, results: readonly PurchaseUnitResult[], now: number): void {
    let last: { emissionId: string; index: number; position: number } | undefined;
    for (const result of results) {
      if (result.kind === 'sold') last = { emissionId, index: result.index, position: result.position };
    }
    if (!last) return;
    this.lastSold.set(`${game}:${stake}:${lane}`, last);
    const sold = last;
    void this.metaOn(game, stake, emissionId).then((meta) => {
      if (meta) return this.ensurePage(meta, blockIdOf(emissionId, sold.index), pageOf(meta.table.blockSize, sold.position), now);
    }).catch(() => undefined);
  }

  /**
   * A page's published root, publishing it first if needed. Only for blocks of scheme 2 (page 0
   * stored with the block); undefined for others, not remembered (the block may not be printed yet).
   */
  private ensurePage(meta: EmissionMeta, blockId: string, page: number, now: number): Promise<PageCommitment | undefined> {
    const size = meta.table.blockSize;
    if (page >= pageCount(size)) return Promise.resolve(undefined);
    const key = `${blockId}:${page}`;
    let published = this.pages.get(key);
    if (!published) {
      published = (async () => {
        const keys = this.blockKeysOf(meta, blockId);
        const [first, stored] = await this.redis.hmget(keys.pages, '0', String(page));
        if (stored) return decodePage(page, stored);
        if (!first) return undefined;
        const root = Buffer.from(rootOfPage(await this.pageTreeOf(meta, blockId, page))).toString('hex');
        return publishPage(this.run, { pages: keys.pages }, { page, root, now });
      })();
      this.pages.set(key, published);
      published.then((p) => p ?? this.pages.delete(key), () => this.pages.delete(key));
    }
    return published;
  }

  /** Waits for the blocks this process is printing ahead and the pages it is publishing; the Redis client stays open. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.printing.values(), ...this.pages.values()]);
  }

  /** Prints the block after a newly opened one in the background (if the emission has it). */
  private printAhead(meta: EmissionMeta, index: number, now: number): void {
    // A failure here is harmless: the purchase that needs the block prints it (ensurePrinted).
    this.ensurePrinted(meta, index, now).catch(() => undefined);
  }

  private ensurePrinted(meta: EmissionMeta, index: number, now: number): Promise<void> {
    const { emissionId } = meta;
    const blockId = blockIdOf(emissionId, index);
    let printing = this.printing.get(blockId);
    if (!printing) {
      printing = (async () => {
        if (index >= meta.blockCount) return;
        const keys = this.blockKeysOf(meta, blockId);
        if (await this.redis.exists(keys.info)) return; // another dealer printed it
        const block = this.withFirstPage(blockId, printNewBlock(meta.table));
        const lane = laneOfBlock(index, meta.lanes);
        const stored = await storeBlock(
          this.run,
          { emission: this.keys.emissionKey(meta.game, meta.stake, emissionId, lane), base: this.keys.sequence(meta.game, meta.stake, lane).base },
          { emissionId, index, block, now },
        );
        if (stored) this.keepFirstPage(block, now);
      })().finally(() => this.printing.delete(blockId));
      this.printing.set(blockId, printing);
    }
    return printing;
  }

  /** The existing emission of that id if its table matches; throws if it does not. */
  private async existingEmission(request: OpenEmissionRequest): Promise<EmissionInfo | undefined> {
    const meta = await this.meta(request.emissionId);
    if (!meta) return undefined;
    if (!sameTable(meta.table, request.table) || meta.blockCount !== request.blockCount) {
      throw new Error(`emission ${request.emissionId} already exists with another table or block count`);
    }
    // A dealer may have died half way through opening the lanes, or between opening a block
    // and printing the next: finish that now.
    await this.completeLanes(meta, request.now);
    const info = await this.emissionInfo(meta);
    const open = info?.blocks.filter((b) => b.state === 'open') ?? [];
    await Promise.all(open.map((b) => this.ensurePrinted(meta, b.index + meta.lanes, request.now)));
    return this.emissionInfo(meta);
  }

  /** An emission's meta, found from its id alone through the emissions' index. */
  private async meta(emissionId: string): Promise<EmissionMeta | undefined> {
    const cached = this.metas.get(emissionId);
    if (cached) return cached;
    const indexed = await this.redis.hget(this.keys.emissions, emissionId);
    if (!indexed) return undefined;
    const { game, stake } = parseIndexedEmission(indexed);
    return this.metaOn(game, stake, emissionId);
  }

  /**
   * An emission's meta from its lane 0 (written when that lane opened, before the emission is
   * indexed: a purchase may meet an emission whose opener has not indexed it yet).
   */
  private async metaOn(game: string, stake: Cents, emissionId: string): Promise<EmissionMeta | undefined> {
    const cached = this.metas.get(emissionId);
    if (cached) return cached;
    const [tableJson, blockCount, lanes] = await this.redis.hmget(this.keys.emissionKey(game, stake, emissionId), 'table', 'blockCount', 'lanes');
    if (!tableJson) return undefined;
    const meta: EmissionMeta = {
      emissionId,
      game: game as GameId,
      stake,
      table: JSON.parse(tableJson) as PrizeTable,
      blockCount: Number(blockCount),
      // Emissions opened before lanes have no field: one lane.
      lanes: Number(lanes ?? 1),
    };
    this.metas.set(emissionId, meta);
    return meta;
  }

  /** The keys of a block of an emission, on the lane that deals it: every read or write of a block goes through here. */
  private blockKeysOf(meta: EmissionMeta, blockId: string): BlockKeys {
    const ref = parseBlockId(blockId);
    if (!ref || ref.emissionId !== meta.emissionId) throw new RangeError(`block ${blockId} is not of emission ${meta.emissionId}`);
    return this.keys.blockKeys(meta.game, meta.stake, blockId, laneOfBlock(ref.index, meta.lanes));
  }

  private async emissionInfo(meta: EmissionMeta): Promise<EmissionInfo | undefined> {
    const { game, stake, emissionId, lanes } = meta;
    const laneIndexes = await this.laneField(game, stake, emissionId, lanes, 'index');
    if (laneIndexes[0] === null) return undefined;
    // The printed blocks of lane l run from l to one step past its open one.
    const indexes = laneIndexes
      .flatMap((index, lane) => {
        if (index === null) return [];
        const last = Math.min(Number(index) + lanes, meta.blockCount - 1);
        return Array.from({ length: Math.floor((last - lane) / lanes) + 1 }, (_, k) => lane + k * lanes);
      })
      .sort((a, b) => a - b);
    const blockIds = indexes.map((i) => blockIdOf(emissionId, i));
    const infos = await Promise.all(blockIds.map((blockId) => this.redis.hgetall(this.blockKeysOf(meta, blockId).info)));
    // Scheme 2 blocks have their page 0 root from the moment they are stored.
    const schemes = await Promise.all(blockIds.map((blockId) => this.redis.hexists(this.blockKeysOf(meta, blockId).pages, '0')));
    const tiers = meta.table.tiers.length;
    const blocks = infos.flatMap((fields, i): BlockInfo[] => {
      if (!fields['state']) return [];
      const state = fields['state'] as BlockState;
      const soldPerTier = Array.from({ length: tiers + 1 }, (_, t) => Number(fields[`t${t}`] ?? 0));
      return [
        {
          blockId: blockIds[i]!,
          emissionId,
          game,
          stake,
          index: indexes[i]!,
          size: Number(fields['size']),
          state,
          commitment: fields['commitment']!,
          scheme: schemes[i] ? 2 : 1,
          ...(state === 'closed' ? { seed: fields['seed']! } : {}),
          sold: soldPerTier.reduce((n, s) => n + s, 0),
          soldPerTier,
          ...(fields['archive'] ? { archive: fields['archive'] } : {}),
        },
      ];
    });
    return { emissionId, game, stake, table: meta.table, blockCount: meta.blockCount, blocks };
  }

  /**
   * The sale of a unit, with its settlement time when `withSettlement` (one read more); from
   * the block's archive once it is archived.
   */
  private async findSale(
    unitId: string,
    withSettlement = true,
  ): Promise<{ meta: EmissionMeta; ref: UnitRef; sale: Sale; archived: boolean } | undefined> {
    const ref = parseUnitId(unitId);
    const meta = ref && (await this.meta(ref.emissionId));
    if (!meta) return undefined;
    const keys = this.blockKeysOf(meta, ref.blockId);
    const [record, settledAt] = await Promise.all([
      this.redis.hget(keys.sales, String(ref.position)),
      withSettlement ? this.redis.hget(keys.settled, String(ref.position)) : null,
    ]);
    if (record === null) {
      const archive = await this.redis.hget(keys.info, 'archive');
      const archived = archive === null ? undefined : await readArchivedUnit(archive, unitId, ref.position);
      return archived && { meta, ref, sale: archived.sale, archived: true };
    }
    const sale = buildSale(meta, ref.blockId, ref.position, decodeSale(record), settledAt === null ? undefined : Number(settledAt));
    return { meta, ref, sale, archived: false };
  }

  private async salesOf(unitIds: readonly string[]): Promise<Sale[]> {
    const sales = await Promise.all(unitIds.map((id) => this.getSale(id)));
    return sales.filter((s): s is Sale => s !== undefined);
  }
}

/** A pending purchase as the recovery drives it, from its field and record (reservePurchase-4.lua). */
function parsePending(playerId: string, field: string, record: string): { request: PurchaseRequest; reservation: Reservation } | undefined {
  const f = /^([^:|]+):(\d+)\|(.+)$/.exec(field);
  const r = /^(-?\d+)\|(\d+)\|(.*)$/s.exec(record);
  if (!f || !r) return undefined;
  const reservation: Reservation = { balanceBefore: Number(r[1]), now: Number(r[2]), picks: r[3]! };
  const request: PurchaseRequest = { playerId, requestId: f[3]!, game: f[1] as GameId, stake: Number(f[2]), now: reservation.now, picks: reservation.picks };
  return { request, reservation };
}

/** Unsettled units by sale time, then unit id (processes' clocks may give equal times). */
function oldestFirst<T extends { readonly unitId: string; readonly soldAt: number }>(units: T[]): T[] {
  return units.sort((a, b) => a.soldAt - b.soldAt || (a.unitId < b.unitId ? -1 : 1));
}
