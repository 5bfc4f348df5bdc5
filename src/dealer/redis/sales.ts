import { assertTime, salesPage, unsettledLimit } from '../identifiers';
import { isPlayerId } from '../../ids';
import { decodeJournalLine } from '../records';
import { DealerScriptError } from '../../redis-scripts/errors';
import type { PlayerId, PurchaseRequest, PurchaseResult, Sale, Sales, SettleResult, Wallets } from '../types';
import type { RedisContext } from './context';
import { parseIndexedEmission, type IndexedEmission } from './keys';
import type { ProtocolParts } from './purchase-protocol';
import type { FoundSale } from './sale-reader';

/** Journal lines read at least per round trip when paging through a player's history. */
const HISTORY_CHUNK = 64;

/**
 * Sales on Redis: the reads of sales, and purchases and settlements by one of two protocols,
 * chosen once when the store is made (docs/dealer.md): `OneScriptPurchase` (one script over the
 * lane and the wallet: they share one Redis) or `PerSlotPurchase` (one idempotent script per
 * slot, re-driven by request id: a Redis Cluster). A protocol's `purchase` is where a request
 * enters the dealer: it checks it (`checkPurchaseRequest`), once.
 */
export abstract class RedisSales implements Sales {
  protected readonly ctx: RedisContext;

  constructor(
    protected readonly parts: ProtocolParts,
    private readonly wallets: Pick<Wallets, 'balance'>,
  ) {
    this.ctx = parts.ctx;
  }

  abstract purchase(request: PurchaseRequest): Promise<PurchaseResult>;

  /** Settles a sale found in Redis (not offloaded); throws `settle/unknown_unit` from the scripts. */
  protected abstract settleFound(found: FoundSale, now: number): Promise<SettleResult>;

  /**
   * Drives to their end the purchases reserved at or before `olderThan` and still pending
   * (their process died between steps); how many it drove. Nothing to do for one script.
   */
  abstract recoverPurchases(olderThan: number): Promise<number>;

  async settle(unitId: string, now: number): Promise<SettleResult> {
    assertTime(now);
    const unknown: SettleResult = { ok: false, code: 'settle/unknown_unit', message: `no sale of unit ${unitId}` };
    const found = await this.parts.sales.find(unitId, false);
    if (!found) return unknown;
    // Only blocks whose every unit is settled are offloaded.
    if (found.offloaded) return { ok: true, credited: false, prize: found.sale.prize, balance: await this.wallets.balance(found.sale.playerId) };
    try {
      return await this.settleFound(found, now);
    } catch (err) {
      if (err instanceof DealerScriptError && err.code === 'settle/unknown_unit') return unknown;
      throw err;
    }
  }

  getSale(unitId: string): Promise<Sale | undefined> {
    return this.parts.sales.sale(unitId);
  }

  /**
   * The history is the journal's `stake` lines, read from its end in growing chunks. Positions
   * count from the head (read once with LLEN): lines appended meanwhile do not shift them.
   */
  async listSales(playerId: PlayerId, offset: number, limit: number): Promise<Sale[]> {
    const page = salesPage(offset, limit);
    if (!isPlayerId(playerId) || page.limit === 0) return [];
    const journal = this.ctx.keys.player(playerId).journal;
    const wanted = page.offset + page.limit;
    const newestFirst: string[] = [];
    let end = (await this.ctx.redis.llen(journal)) - 1;
    for (let chunk = Math.max(HISTORY_CHUNK, 2 * wanted); end >= 0 && newestFirst.length < wanted; chunk *= 2) {
      const lines = await this.ctx.redis.lrange(journal, Math.max(0, end - chunk + 1), end);
      for (let i = lines.length - 1; i >= 0 && newestFirst.length < wanted; i--) {
        const entry = decodeJournalLine(lines[i]!);
        if (entry.kind === 'stake') newestFirst.push(entry.ref);
      }
      end -= chunk;
    }
    return this.parts.sales.sales(newestFirst.slice(page.offset));
  }

  async unsettledSales(soldBefore: number, limit: number, playerId?: PlayerId): Promise<Sale[]> {
    limit = unsettledLimit(limit);
    if (limit === 0) return [];
    if (playerId !== undefined) {
      if (!isPlayerId(playerId)) return [];
      // A player has few unsettled units (the ones being played): their wallet lists them.
      const wallet = await this.ctx.redis.hgetall(this.ctx.keys.player(playerId).wallet);
      const due = Object.entries(wallet).flatMap(([field, soldAt]) =>
        field.startsWith('u:') && Number(soldAt) <= soldBefore ? [{ unitId: field.slice(2), soldAt: Number(soldAt) }] : [],
      );
      return this.parts.sales.sales(oldestFirst(due).slice(0, limit).map((d) => d.unitId));
    }
    // One sorted set per lane of each game and price (each in its own slot): merge their oldest.
    const lanesOf = new Map<string, IndexedEmission>();
    for (const value of Object.values(await this.ctx.redis.hgetall(this.ctx.keys.emissions))) {
      const indexed = parseIndexedEmission(value);
      const seen = lanesOf.get(indexed.gamePrice);
      if (!seen || seen.lanes < indexed.lanes) lanesOf.set(indexed.gamePrice, indexed);
    }
    const perLane = await Promise.all(
      [...lanesOf.values()].flatMap(({ game, stake, lanes }) =>
        Array.from({ length: lanes }, (_, lane) =>
          this.ctx.redis.zrangebyscore(this.ctx.keys.lane(game, stake, lane).unsettled, '-inf', soldBefore, 'WITHSCORES', 'LIMIT', 0, limit),
        ),
      ),
    );
    const due: { unitId: string; soldAt: number }[] = [];
    for (const flat of perLane) {
      for (let i = 0; i < flat.length; i += 2) due.push({ unitId: flat[i]!, soldAt: Number(flat[i + 1]) });
    }
    return this.parts.sales.sales(oldestFirst(due).slice(0, limit).map((d) => d.unitId));
  }
}

/** Unsettled units by sale time, then unit id (processes' clocks may give equal times). */
function oldestFirst<T extends { readonly unitId: string; readonly soldAt: number }>(units: T[]): T[] {
  return units.sort((a, b) => a.soldAt - b.soldAt || (a.unitId < b.unitId ? -1 : 1));
}
