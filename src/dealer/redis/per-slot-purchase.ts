import type { Cents } from '../../money';
import { checkPurchaseRequest, gameClosed, insufficientFunds, unfinishedUnit, unknownSequence } from '../identifiers';
import { blockIdOf, gamePrice, unitIdOf } from '../../ids';
import { decodePending, decodeThresholdEvent, purchaseField, type Reservation } from '../records';
import { creditPrize } from '../scripts/credit-prize';
import { dealUnits } from '../scripts/deal-units';
import { finishPurchase } from '../scripts/finish-purchase';
import { forgetPending } from '../scripts/forget-pending';
import { refundPurchase } from '../scripts/refund-purchase';
import { protectionArg } from '../scripts/purchase-units';
import { relayEvent } from '../scripts/relay-event';
import { reservePurchase } from '../scripts/reserve-purchase';
import { protectionAnswer } from '../../protection/redis';
import { settleSale } from '../scripts/settle-sale';
import type { PurchaseRequest, PurchaseResult, SettleResult, Wallets } from '../types';
import { LaneDealing } from './dealing';
import { laneOfBlock, PENDING_SHARDS } from './keys';
import type { ProtocolParts } from './purchase-protocol';
import type { FoundSale } from './sale-reader';
import { RedisSales } from './sales';

/** Players per shard of the pending index read at once by the recovery. */
const RECOVERY_BATCH = 1_000;

/**
 * The purchase on a Redis Cluster (docs/dealer.md, "Purchases on Redis Cluster"): hold the
 * stake on the player's slot (reservePurchase-4.lua), deal on the lane's (dealUnits-5.lua),
 * then debit on the player's (finishPurchase-5.lua); a refusal of the lane releases the hold
 * (refundPurchase-2.lua). Every step is idempotent by request id, so a retry (or
 * `recoverPurchases`) drives a purchase cut anywhere to the same end.
 */
export class PerSlotPurchase extends RedisSales {
  private readonly dealing: LaneDealing;

  constructor(parts: ProtocolParts, wallets: Pick<Wallets, 'balance'>) {
    super(parts, wallets);
    const { ctx, catalog, emissions, printer, pages, sales, protections } = parts;
    this.dealing = new LaneDealing(ctx, catalog, emissions, printer, pages, sales, protections, (keys, requestsTtlMs, batch) =>
      dealUnits(ctx.run, keys, { stake: batch[0]!.request.stake, requestsTtlMs }, batch.map(({ request, reservation, passMarked }) => ({
        playerId: request.playerId,
        requestId: request.requestId,
        now: reservation!.now,
        picks: reservation!.picks,
        balanceBefore: reservation!.balanceBefore,
        passMarked,
      }))),
    );
  }

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const refused = checkPurchaseRequest(request);
    if (refused) return refused;
    const { ctx } = this.parts;
    const { playerId, requestId, game, stake, now } = request;
    const player = ctx.keys.player(playerId);
    const window = ctx.window(now);
    // Before the reservation: whatever happens after, the recovery can find this player.
    await this.parts.relay.announce(playerId, now);
    const reserved = await reservePurchase(
      ctx.run,
      { wallet: player.wallet, pending: player.pending, requests: player.requests(window), previousRequests: player.requests(window - 1) },
      { gamePrice: gamePrice(game, stake), requestId, stake, game, now, picks: request.picks ?? '', boughtTogether: request.boughtTogether ?? [], protection: protectionArg(request.protection), fundedByOperator: this.parts.fundedByOperator },
    );
    // The hold must outlive its master too: a hold lost in a failover while its unit is dealt
    // would let a settlement of that unit find nothing to finish, and the retry debit it after.
    if (reserved.kind === 'held' || reserved.kind === 'pending') await ctx.replicated(player.wallet);
    switch (reserved.kind) {
      case 'sold':
        return this.dealing.repeat(request, reserved.unitId);
      case 'insufficient_funds':
        return (await this.emissionRefusal(game, stake, now)) ?? insufficientFunds(reserved.available, stake);
      case 'unfinished_unit':
        return (await this.emissionRefusal(game, stake, now)) ?? unfinishedUnit(game);
      case 'protected':
        return (await this.emissionRefusal(game, stake, now)) ?? protectionAnswer(reserved.reply, (since) => this.parts.protections.sessionMoney(playerId, since));
      case 'held':
        return this.completePurchase(request, { balanceBefore: reserved.balanceBefore, now, picks: request.picks ?? '' });
      case 'pending':
        return this.completePurchase(request, reserved);
    }
  }

  /**
   * The buyer's step first (credit once, the wallet's u:<unitId> being the token), then the
   * lane's: a unit marked settled has always been credited, and one credited but not marked
   * stays in the unsettled set, where the sweeper settles it again (a no-op credit, then the
   * mark). Between them the buyer's archive entries are relayed (archive-relay.ts).
   */
  protected async settleFound({ meta, ref, sale }: FoundSale, now: number): Promise<SettleResult> {
    const { ctx, catalog } = this.parts;
    const block = catalog.blockKeysOf(meta, ref.blockId);
    const player = ctx.keys.player(sale.playerId);
    const credit = await creditPrize(ctx.run, { ...player, requests: player.requests(ctx.window(sale.soldAt)), archive: ctx.keys.playerOutbox(sale.playerId) }, {
      field: purchaseField(meta.game, meta.stake, sale.requestId),
      unitId: sale.unitId,
      stake: meta.stake,
      soldAt: sale.soldAt,
      requestsTtlMs: ctx.requestsTtl(sale.soldAt),
      prize: sale.prize,
      now,
      game: meta.game,
      playerId: sale.playerId,
      withdrawalThreshold: this.parts.withdrawalThreshold,
    });
    await ctx.replicated(player.wallet);
    if (credit.event !== undefined) await this.relayEvent(sale.playerId, sale.unitId, credit.event);
    // The unit's stake and prize reach the archive's shard before it counts as settled: a cut
    // before leaves it unsettled, and the sweeper's settlement relays them.
    await this.parts.relay.relay(sale.playerId, now);
    const laneUnsettled = ctx.keys.lane(meta.game, meta.stake, laneOfBlock(ref.index, meta.lanes)).unsettled;
    await settleSale(ctx.run, { sales: block.sales, settled: block.settled, laneUnsettled }, {
      position: ref.position,
      unitId: sale.unitId,
      playerId: sale.playerId,
      now,
    });
    await ctx.replicated(block.sales);
    return { ok: true, credited: credit.credited, prize: sale.prize, balance: credit.balance };
  }

  /**
   * Moves a withdrawal threshold event from the buyer's wallet to the operator's events (once,
   * whatever the repeats), then drops it from the wallet; both before the unit is marked
   * settled, so that a cut here leaves the unit for the sweeper, whose settlement relays again.
   */
  private async relayEvent(playerId: string, unitId: string, event: string): Promise<void> {
    const { ctx } = this.parts;
    const at = decodeThresholdEvent('', event).at;
    await relayEvent(ctx.run, { events: ctx.keys.events, relayed: ctx.keys.relayedEvents(ctx.window(at)) }, {
      key: `${playerId}|${unitId}`,
      event,
      relayedTtlMs: ctx.requestsTtl(at),
    });
    await ctx.replicated(ctx.keys.events);
    const wallet = ctx.keys.player(playerId).wallet;
    await ctx.redis.hdel(wallet, `e:${unitId}`);
    await ctx.replicated(wallet);
  }

  /**
   * Drives to their end the purchases reserved at or before `olderThan` and still pending
   * (their process died between steps, and no retry came): each is dealt (or found dealt) and
   * debited, or refunded if the lane refuses it, exactly as its retry would; then relays the
   * player's archive entries a cut relay left behind (archive-relay.ts). The server runs it
   * with its sweeper.
   */
  async recoverPurchases(olderThan: number): Promise<number> {
    const { ctx } = this.parts;
    let driven = 0;
    for (let shard = 0; shard < PENDING_SHARDS; shard++) {
      const index = ctx.keys.pendingIndex(shard);
      const players = await ctx.redis.zrangebyscore(index, '-inf', olderThan, 'LIMIT', 0, RECOVERY_BATCH);
      for (const playerId of players) {
        const pending = await ctx.redis.hgetall(ctx.keys.player(playerId).pending);
        let left = 0;
        for (const [field, record] of Object.entries(pending)) {
          const found = decodePending(field, record);
          if (!found || found.reservation.now > olderThan) {
            left++;
            continue;
          }
          const { game, stake, requestId, reservation } = found;
          await this.completePurchase({ playerId, requestId, game, stake, now: reservation.now, picks: reservation.picks }, reservation);
          driven++;
        }
        await this.parts.relay.relay(playerId, olderThan);
        if (left === 0) await forgetPending(ctx.run, index, { playerId, upTo: olderThan });
      }
    }
    return driven;
  }

  /**
   * Unknown game or sold out, read from the lanes: these refusals come before the wallet's
   * (as in purchaseUnits.lua), though this protocol meets the wallet first.
   */
  private async emissionRefusal(game: string, stake: Cents, now: number): Promise<PurchaseResult | undefined> {
    const { emissions, catalog } = this.parts;
    // Read again: the game and price may sell another emission now.
    emissions.forgetCurrent(game, stake);
    const meta = await emissions.current(game, stake, now);
    if (!meta) return unknownSequence(game, stake);
    const states = await catalog.laneField(game, stake, meta.emissionId, meta.lanes, 'state');
    return states.every((state) => state === 'closed') ? gameClosed(game, stake) : undefined;
  }

  /** The lane's step and the player's last of a reserved purchase. */
  private async completePurchase(request: PurchaseRequest, reservation: Reservation): Promise<PurchaseResult> {
    const { ctx } = this.parts;
    const { playerId, requestId, game, stake } = request;
    const player = ctx.keys.player(playerId);
    const field = purchaseField(game, stake, requestId);
    const dealt = await this.dealing.deal(request, reservation);
    const { result } = dealt;
    if (result.kind === 'refused') {
      // Only a definite refusal releases the hold: an unknown outcome (an error) leaves it
      // pending, for the retry or the recovery to deal.
      await refundPurchase(ctx.run, player, { field, stake, game });
      await ctx.replicated(player.wallet);
      return this.dealing.answer(request, dealt, reservation.now);
    }
    const unitId = result.kind === 'repeated' ? result.unitId : unitIdOf(blockIdOf(dealt.emissionId, result.index), result.position);
    // The sale must outlive its master before the wallet names it.
    await ctx.replicated(ctx.keys.lane(game, stake, dealt.lane).current);
    await finishPurchase(ctx.run, { ...player, requests: player.requests(ctx.window(reservation.now)), archive: ctx.keys.playerOutbox(playerId) }, {
      field,
      unitId,
      stake,
      soldAt: reservation.now,
      requestsTtlMs: ctx.requestsTtl(reservation.now),
      playerId,
    });
    await ctx.replicated(player.wallet);
    return this.dealing.answer({ ...request, now: reservation.now, picks: reservation.picks }, dealt, reservation.now);
  }
}
