import { prizeOfTier } from '../../games/prize-tables';
import { assertTime, checkPurchaseRequest, gameClosed, insufficientFunds, salesPage, unfinishedUnit, unknownSequence, unsettledLimit } from '../identifiers';
import { gamePrice } from '../../ids';
import { pageOf } from '../../fairness/merkle';
import { buildSale, purchaseField } from '../records';
import type { PlayerId, PurchaseRequest, PurchaseResult, Sale, Sales, SettleResult } from '../types';
import type { MemoryBooks, MemoryWallet } from './books';
import type { MemoryEmissions } from './emissions';
import { countStake, stakeRefusal } from '../../protection/memory';

/** How many settled units the store keeps: per player, and in all. */
export interface KeepSettled {
  readonly perPlayer: number;
  readonly total: number;
}

/**
 * Sales in memory: each purchase and settlement made whole before its promise resolves, so
 * atomic by construction; with `keepSettled`, the oldest settled units forgotten past the bounds.
 */
export class MemorySales implements Sales {
  constructor(
    private readonly books: MemoryBooks,
    private readonly emissions: MemoryEmissions,
    private readonly windowMs: number,
    private readonly keep: KeepSettled | undefined,
    private readonly onForgotten: ((unitIds: readonly string[]) => void) | undefined,
    /** The automatic withdrawal threshold in cents (MemoryStoreOptions); undefined: off. */
    private readonly withdrawalThreshold: number | undefined,
    /** MemoryStoreOptions.fundedByOperator. */
    private readonly fundedByOperator: boolean,
  ) {}

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const refused = checkPurchaseRequest(request);
    if (refused) return refused;
    const { books } = this;
    const wallet = books.wallets.get(request.playerId);
    const window = Math.floor(request.now / this.windowMs);
    const served = (requestId: string) => wallet && this.served(wallet, purchaseField(request.game, request.stake, requestId), window);
    const previous = served(request.requestId);
    if (previous !== undefined) return { ok: true, sale: (await this.getSale(previous))!, repeated: true };
    const emission = books.selling.get(gamePrice(request.game, request.stake));
    if (!emission) return unknownSequence(request.game, request.stake);
    if (emission.closed) return gameClosed(request.game, request.stake);
    if (wallet && request.boughtTogether) {
      const boughtWith = new Set(request.boughtTogether.map(served));
      const unfinished = [...wallet.unsettled].some((id) => books.sales.get(id)!.game === request.game && !boughtWith.has(id));
      if (unfinished) return unfinishedUnit(request.game);
    }
    const protectionRefused = stakeRefusal(books.walletOf(request.playerId), request);
    if (protectionRefused) return protectionRefused;
    const balance = wallet?.balance ?? 0;
    if (balance < request.stake && !this.fundedByOperator) return insufficientFunds(balance, request.stake);

    const block = emission.blocks[emission.openIndex]!;
    const position = block.sold;
    // The page's root is published before its first sale, and the next page's one page ahead.
    const page = pageOf(emission.table.blockSize, position);
    books.publishPage(emission.table, block, page, request.now);
    books.publishPage(emission.table, block, page + 1, request.now);
    const tierId = block.printed.units[position]!;
    const sale = buildSale(emission.table, block.blockId, position, {
      playerId: request.playerId,
      requestId: request.requestId,
      tierId,
      prize: prizeOfTier(emission.table, tierId),
      soldAt: request.now,
      balanceBefore: balance,
      balanceAfter: balance - request.stake,
      picks: request.picks ?? '',
    });
    const { unitId } = sale;
    const debited = books.walletOf(request.playerId);
    books.post(request.playerId, debited, 'stake', -request.stake, unitId, request.now, request.game);
    countStake(debited, request);
    this.remember(debited, purchaseField(request.game, request.stake, request.requestId), unitId, window);
    debited.sales.push(unitId);
    debited.unsettled.add(unitId);
    debited.staked += request.stake;
    books.sales.set(unitId, sale);
    books.unsettled.add(unitId);
    block.recorded![position] = tierId;
    block.soldPerTier[tierId]!++;
    block.sold++;
    if (block.sold === emission.table.blockSize) this.emissions.closeBlock(emission, block, request.now);
    return { ok: true, sale, repeated: false };
  }

  async settle(unitId: string, now: number): Promise<SettleResult> {
    assertTime(now);
    const { books } = this;
    const sale = books.sales.get(unitId);
    if (!sale) {
      // Only blocks whose every unit is settled are offloaded.
      const offloaded = await books.offloadedSale(unitId);
      if (!offloaded) return { ok: false, code: 'settle/unknown_unit', message: `no sale of unit ${unitId}` };
      return { ok: true, credited: false, prize: offloaded.prize, balance: books.wallets.get(offloaded.playerId)?.balance ?? 0 };
    }
    const wallet = books.walletOf(sale.playerId);
    if (sale.settledAt !== undefined) return { ok: true, credited: false, prize: sale.prize, balance: wallet.balance };
    books.sales.set(unitId, { ...sale, settledAt: now });
    books.findBlock(sale.blockId)!.settled++;
    books.unsettled.delete(unitId);
    if (wallet.unsettled.delete(unitId)) wallet.staked -= sale.stake;
    if (sale.prize > 0) {
      const before = wallet.balance;
      books.post(sale.playerId, wallet, 'prize', sale.prize, unitId, now, sale.game);
      const threshold = this.withdrawalThreshold;
      if (threshold !== undefined && before <= threshold && wallet.balance > threshold) {
        books.events.push({ id: `0-${books.events.length + 1}`, at: now, playerId: sale.playerId, kind: 'withdrawal_threshold', balance: wallet.balance, threshold });
      }
    }
    if (this.keep) this.keepBounded(wallet, unitId, this.keep);
    return { ok: true, credited: true, prize: sale.prize, balance: wallet.balance };
  }

  async getSale(unitId: string): Promise<Sale | undefined> {
    return this.books.sales.get(unitId) ?? this.books.offloadedSale(unitId);
  }

  async listSales(playerId: PlayerId, offset: number, limit: number): Promise<Sale[]> {
    const page = salesPage(offset, limit);
    const ids = this.books.wallets.get(playerId)?.sales ?? [];
    const newestFirst = ids.slice(Math.max(0, ids.length - page.offset - page.limit), Math.max(0, ids.length - page.offset));
    return Promise.all(newestFirst.reverse().map(async (id) => (await this.getSale(id))!));
  }

  async unsettledSales(soldBefore: number, limit: number, playerId?: PlayerId): Promise<Sale[]> {
    const { books } = this;
    const ids = playerId === undefined ? books.unsettled : (books.wallets.get(playerId)?.unsettled ?? new Set<string>());
    const due = [...ids].map((id) => books.sales.get(id)!).filter((s) => s.soldAt <= soldBefore);
    // Sets keep the order of sale; the sort (stable) only matters when callers' clocks disagree.
    return due.sort((a, b) => a.soldAt - b.soldAt).slice(0, unsettledLimit(limit));
  }

  /** Remembers a newly settled unit, then forgets the oldest settled past either bound. */
  private keepBounded(wallet: MemoryWallet, unitId: string, keep: KeepSettled): void {
    wallet.settled.add(unitId);
    this.books.settledKept.add(unitId);
    const forgotten: string[] = [];
    while (wallet.settled.size > keep.perPlayer) forgotten.push(this.forget(wallet.settled.values().next().value!));
    while (this.books.settledKept.size > keep.total) forgotten.push(this.forget(this.books.settledKept.values().next().value!));
    if (forgotten.length > 0) this.onForgotten?.(forgotten);
  }

  /** Drops a settled unit's own records; its block's counts and recorded tier stay. */
  private forget(unitId: string): string {
    const { books } = this;
    const sale = books.sales.get(unitId)!;
    const wallet = books.wallets.get(sale.playerId)!;
    books.sales.delete(unitId);
    books.settledKept.delete(unitId);
    wallet.settled.delete(unitId);
    wallet.sales.splice(wallet.sales.indexOf(unitId), 1);
    for (const records of wallet.requests.values()) records.delete(purchaseField(sale.game, sale.stake, sale.requestId));
    // Its stake and prize lines, among the oldest: the scan starts at its stake line.
    const { journal } = wallet;
    for (let line = journal.findIndex((e) => e.ref === unitId); line >= 0 && line < journal.length; ) {
      if (journal[line]!.ref === unitId) journal.splice(line, 1);
      else line++;
    }
    books.findBlock(sale.blockId)!.forgotten++;
    return unitId;
  }

  /** The unit a request was served within this window or the one before, if any. */
  private served(wallet: MemoryWallet, request: string, window: number): string | undefined {
    return wallet.requests.get(window)?.get(request) ?? wallet.requests.get(window - 1)?.get(request);
  }

  /** Records a served request in its window and drops the windows no lookup reads any more. */
  private remember(wallet: MemoryWallet, request: string, unitId: string, window: number): void {
    let records = wallet.requests.get(window);
    if (!records) {
      records = new Map();
      wallet.requests.set(window, records);
      for (const old of wallet.requests.keys()) if (old < window - 1) wallet.requests.delete(old);
    }
    records.set(request, unitId);
  }
}
