import { prizeOfTier } from '../../games/prize-tables';
import type { PrizeTable } from '../../games/types';
import { gameClosed, insufficientFunds, unfinishedUnit, unknownSequence } from '../identifiers';
import { blockIdOf } from '../../ids';
import { buildSale, type Reservation } from '../records';
import type { LaneKeysForPurchase, PurchaseUnitResult, PurchaseUnitsResult } from '../scripts/purchase-units';
import type { PurchaseRequest, PurchaseResult } from '../types';
import type { EmissionCatalog } from './catalog';
import type { RedisContext } from './context';
import type { RedisEmissions } from './emissions';
import { firstLane, laneName } from './keys';
import type { RedisPages } from './pages';
import { protectionAnswer, type RedisProtections } from '../../protection/redis';
import type { BlockPrinter } from './printer';
import type { SaleReader } from './sale-reader';

/** Purchases per script call at most: bounds the script's run time and its reply. */
const MAX_BATCH = 64;

/** What a batch answered one purchase. */
export interface Dealt {
  readonly result: PurchaseUnitResult;
  /** The lane that answered. */
  readonly lane: number;
  readonly emissionId: string;
  readonly table: PrizeTable | undefined;
}

/** A purchase waiting for its batch. */
export interface QueuedPurchase {
  readonly request: PurchaseRequest;
  readonly lane: number;
  /** Per-slot protocol: whether a lane that passed the request on before answers so (the first walk). */
  readonly passMarked: boolean;
  /** Per-slot protocol only: what the player's step recorded. */
  readonly reservation: Reservation | undefined;
  resolve(dealt: Dealt): void;
  reject(err: unknown): void;
}

/** The script that deals a batch of one lane (the purchase protocol's), and its time to live of request ids. */
export type BatchScript = (keys: LaneKeysForPurchase, requestsTtlMs: number, batch: readonly QueuedPurchase[]) => Promise<PurchaseUnitsResult>;

/**
 * Dealing on the lanes of a game and price: purchases issued in one event-loop turn for one
 * lane share one script call (the protocol's batch script), each still its own atomic step;
 * a purchase walks the lanes of the current emission; a block found not printed is printed
 * and the purchase goes again; the pages are published ahead of the batch.
 */
export class LaneDealing {
  /** `<game>:<stake>:<lane>` → purchases of this event-loop turn, sent together. */
  private readonly batches = new Map<string, QueuedPurchase[]>();

  constructor(
    private readonly ctx: RedisContext,
    private readonly catalog: EmissionCatalog,
    private readonly emissions: RedisEmissions,
    private readonly printer: BlockPrinter,
    private readonly pages: RedisPages,
    private readonly sales: SaleReader,
    private readonly protections: RedisProtections,
    private readonly batchScript: BatchScript,
  ) {}

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
  async deal(request: PurchaseRequest, reservation: Reservation | undefined): Promise<Dealt> {
    const { game, stake, playerId, requestId, now } = request;
    for (let refreshed = false; ; refreshed = true) {
      const current = this.emissions.current(game, stake, now);
      const meta = await current;
      const lanes = meta?.lanes ?? 1;
      const first = firstLane(playerId, requestId, lanes);
      let dealt: Dealt | undefined;
      for (const passMarked of [true, false]) {
        let passed = false;
        for (let k = 0; k < lanes; k++) {
          dealt = await this.dealOnLane(request, reservation, (first + k) % lanes, passMarked);
          if (dealt.emissionId !== (meta?.emissionId ?? '')) this.emissions.forgetCurrent(game, stake, current);
          const code = dealt.result.kind === 'refused' ? dealt.result.error.code : undefined;
          passed ||= code === 'dealer/lane_passed';
          if (code !== 'purchase/game_closed' && code !== 'purchase/unknown_game' && code !== 'dealer/lane_passed') return dealt;
        }
        if (!passed) break;
      }
      // Every lane refused: read the current emission again, once, in case it changed.
      this.emissions.forgetCurrent(game, stake, current);
      if (refreshed || (await this.emissions.current(game, stake, now))?.emissionId === meta?.emissionId) return dealt!;
    }
  }

  /** The answer to a purchase from what its batch said; `soldAt` is the sale's time. */
  async answer(request: PurchaseRequest, dealt: Dealt, soldAt: number): Promise<PurchaseResult> {
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
      return { ok: true, sale, repeated: false };
    }
    if (result.kind === 'repeated') return this.repeat(request, result.unitId);
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
        if (error.detail.protection) return protectionAnswer(error.detail.protection, (since) => this.protections.sessionMoney(request.playerId, since));
        throw error;
    }
  }

  /** The answer to a retry of a request already sold: its sale, `repeated`. */
  async repeat(request: PurchaseRequest, unitId: string): Promise<PurchaseResult> {
    const sale = await this.sales.sale(unitId);
    if (!sale) throw new Error(`request ${request.requestId} names unit ${unitId}, which has no sale`);
    return { ok: true, sale, repeated: true };
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
      const meta = await this.catalog.metaOn(request.game, request.stake, emissionId!);
      if (!meta) throw result.error;
      await this.printer.ensurePrinted(meta, index!, request.now);
    }
  }

  private enqueue(queued: QueuedPurchase): void {
    const lane = laneName(queued.request.game, queued.request.stake, queued.lane);
    let batch = this.batches.get(lane);
    if (!batch) {
      batch = [];
      this.batches.set(lane, batch);
      process.nextTick(() => void this.sendBatch(lane));
    }
    batch.push(queued);
    if (batch.length >= MAX_BATCH) void this.sendBatch(lane);
  }

  /**
   * One script call for the lane's batch. A failed call (Redis unreachable, say) fails every
   * purchase of the batch: each caller may retry with the same request id.
   */
  private async sendBatch(name: string): Promise<void> {
    const batch = this.batches.get(name);
    if (!batch) return;
    this.batches.delete(name);
    try {
      const { request: { game, stake, now }, lane } = batch[0]!;
      const laneKeys = this.ctx.keys.lane(game, stake, lane);
      const window = this.ctx.window(now);
      const keys = {
        current: laneKeys.current,
        base: laneKeys.base,
        laneUnsettled: laneKeys.unsettled,
        requests: laneKeys.requests(window),
        previousRequests: laneKeys.requests(window - 1),
        archive: this.ctx.keys.outbox('money'),
      };
      await this.pages.publishAhead(game, stake, lane, now);
      const { emissionId, openedIndex, results } = await this.batchScript(keys, this.ctx.requestsTtl(now), batch);
      const meta = emissionId === '' ? undefined : await this.catalog.metaOn(game, stake, emissionId);
      if (meta) {
        if (openedIndex !== undefined) this.printer.printAhead(meta, openedIndex + meta.lanes, now);
        this.pages.noteSold(meta, lane, results, now);
      }
      batch.forEach((queued, i) => queued.resolve({ result: results[i]!, lane, emissionId, table: meta?.table }));
    } catch (err) {
      for (const queued of batch) queued.reject(err);
    }
  }
}
