import { protectionArg, purchaseUnits, type BatchedPurchase } from '../scripts/purchase-units';
import { settleUnit } from '../scripts/settle-unit';
import type { PurchaseRequest, PurchaseResult, SettleResult } from '../types';
import { LaneDealing, type QueuedPurchase } from './dealing';
import { laneOfBlock } from './keys';
import type { ProtocolParts, PurchaseProtocol } from './purchase-protocol';
import type { FoundSale } from './sale-reader';

/**
 * The purchase on one Redis: purchaseUnits.lua checks, debits, deals and journals a batch of
 * purchases of one lane, each atomically; settleUnit-7.lua marks and credits a unit at once
 * (and adds its withdrawal threshold event, if any).
 */
export class OneScriptPurchase implements PurchaseProtocol {
  private readonly dealing: LaneDealing;

  constructor(private readonly parts: ProtocolParts) {
    const { ctx, catalog, emissions, printer, pages, sales, protections } = parts;
    this.dealing = new LaneDealing(ctx, catalog, emissions, printer, pages, sales, protections, (keys, requestsTtlMs, batch) => {
      const { game, stake } = batch[0]!.request;
      return purchaseUnits(ctx.run, keys, { stake, game, requestsTtlMs }, batch.map(({ request }) => this.batched(request)));
    });
  }

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const dealt = await this.dealing.deal(request, undefined);
    await this.parts.ctx.replicated(this.parts.ctx.keys.lane(request.game, request.stake, dealt.lane).current);
    return this.dealing.answer(request, dealt, request.now);
  }

  async settle({ meta, ref, sale }: FoundSale, now: number): Promise<SettleResult> {
    const { ctx, catalog } = this.parts;
    const block = catalog.blockKeysOf(meta, ref.blockId);
    const player = ctx.keys.player(sale.playerId);
    const laneUnsettled = ctx.keys.lane(meta.game, meta.stake, laneOfBlock(ref.index, meta.lanes)).unsettled;
    const result = await settleUnit(
      ctx.run,
      { sales: block.sales, settled: block.settled, laneUnsettled, wallet: player.wallet, journal: player.journal, events: ctx.keys.events, archive: ctx.keys.outbox('money') },
      { position: ref.position, unitId: sale.unitId, playerId: sale.playerId, now, game: meta.game, stake: meta.stake, withdrawalThreshold: this.parts.withdrawalThreshold },
    );
    await ctx.replicated(block.sales);
    return { ok: true, ...result };
  }

  async recoverPurchases(): Promise<number> {
    return 0;
  }

  /** A purchase as purchaseUnits.lua takes it, with its player's keys. */
  private batched(request: QueuedPurchase['request']): BatchedPurchase {
    const player = this.parts.ctx.keys.player(request.playerId);
    return {
      wallet: player.wallet,
      journal: player.journal,
      playerId: request.playerId,
      requestId: request.requestId,
      now: request.now,
      picks: request.picks ?? '',
      boughtTogether: request.boughtTogether ?? [],
      protection: protectionArg(request.protection),
    };
  }
}
