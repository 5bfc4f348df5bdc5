import { checkPurchaseRequest } from '../identifiers';
import { protectionArg, purchaseUnits } from '../scripts/purchase-units';
import { settleUnit } from '../scripts/settle-unit';
import type { PurchaseRequest, PurchaseResult, SettleResult, Wallets } from '../types';
import { LaneDealing } from './dealing';
import { laneOfBlock } from './keys';
import type { ProtocolParts } from './purchase-protocol';
import type { FoundSale } from './sale-reader';
import { RedisSales } from './sales';

/**
 * The purchase on one Redis: purchaseUnits.lua checks, debits, deals and journals a batch of
 * purchases of one lane, each atomically; settleUnit-7.lua marks and credits a unit at once
 * (and adds its withdrawal threshold event, if any).
 */
export class OneScriptPurchase extends RedisSales {
  private readonly dealing: LaneDealing;

  constructor(parts: ProtocolParts, wallets: Pick<Wallets, 'balance'>) {
    super(parts, wallets);
    const { ctx, catalog, emissions, printer, pages, sales, protections } = parts;
    this.dealing = new LaneDealing(ctx, catalog, emissions, printer, pages, sales, protections, (keys, requestsTtlMs, batch) => {
      const { game, stake } = batch[0]!.request;
      // Each purchase as purchaseUnits.lua takes it, with its player's keys.
      const purchases = batch.map(({ request }) => {
        const player = ctx.keys.player(request.playerId);
        const { playerId, requestId, now, picks = '', boughtTogether = [] } = request;
        return { wallet: player.wallet, journal: player.journal, playerId, requestId, now, picks, boughtTogether, protection: protectionArg(request.protection) };
      });
      return purchaseUnits(ctx.run, keys, { stake, game, requestsTtlMs, fundedByOperator: parts.fundedByOperator }, purchases);
    });
  }

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const refused = checkPurchaseRequest(request);
    if (refused) return refused;
    const dealt = await this.dealing.deal(request, undefined);
    await this.parts.ctx.replicated(this.parts.ctx.keys.lane(request.game, request.stake, dealt.lane).current);
    return this.dealing.answer(request, dealt, request.now);
  }

  protected async settleFound({ meta, ref, sale }: FoundSale, now: number): Promise<SettleResult> {
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
}
