import type { Cents } from '../../money';
import { assertDeposit, journalPage, requestMismatch } from '../identifiers';
import { isPlayerId } from '../../ids';
import type { DepositResult, JournalEntry, JournalPageRequest, PlayerId, Wallet, Wallets, WithdrawResult } from '../types';
import type { MemoryBooks } from './books';
import { depositRefusal } from '../../protection/memory';

export class MemoryWallets implements Wallets {
  constructor(private readonly books: MemoryBooks) {}

  async deposit(playerId: PlayerId, amount: Cents, ref: string, now: number, otherRef?: string): Promise<DepositResult> {
    assertDeposit(playerId, amount, ref, now, otherRef);
    const wallet = this.books.walletOf(playerId);
    const before = wallet.deposits.get(ref);
    if (before) return before.amount === amount ? { ok: true, balance: wallet.balance, repeated: true, entry: before } : requestMismatch(wallet.balance);
    if (otherRef !== undefined && wallet.deposits.has(otherRef)) return requestMismatch(wallet.balance);
    const refused = depositRefusal(wallet, amount, now);
    if (refused) return { ...refused, code: 'limit/deposit_week', details: refused.details ?? {} };
    const entry = this.books.post(playerId, wallet, 'deposit', amount, ref, now);
    wallet.deposits.set(ref, entry);
    return { ok: true, balance: wallet.balance, repeated: false, entry };
  }

  async withdraw(playerId: PlayerId, amount: Cents, ref: string, now: number, otherRef?: string): Promise<WithdrawResult> {
    assertDeposit(playerId, amount, ref, now, otherRef);
    const wallet = this.books.walletOf(playerId);
    const before = wallet.deposits.get(ref);
    if (before) return before.amount === -amount ? { ok: true, balance: wallet.balance, repeated: true, entry: before } : requestMismatch(wallet.balance);
    if (otherRef !== undefined && wallet.deposits.has(otherRef)) return requestMismatch(wallet.balance);
    if (wallet.balance < amount) return { ok: false, code: 'wallet/insufficient_funds', message: 'the balance is below the amount', balance: wallet.balance };
    const entry = this.books.post(playerId, wallet, 'withdrawal', -amount, ref, now);
    wallet.deposits.set(ref, entry);
    return { ok: true, balance: wallet.balance, repeated: false, entry };
  }

  async balance(playerId: PlayerId): Promise<Cents> {
    return isPlayerId(playerId) ? (this.books.wallets.get(playerId)?.balance ?? 0) : 0;
  }

  async wallet(playerId: PlayerId): Promise<Wallet> {
    const wallet = isPlayerId(playerId) ? this.books.wallets.get(playerId) : undefined;
    return { balance: wallet?.balance ?? 0, held: wallet?.staked ?? 0 };
  }

  async journal(playerId: PlayerId): Promise<JournalEntry[]> {
    return [...(this.books.wallets.get(playerId)?.journal ?? [])];
  }

  async journalPage(playerId: PlayerId, request: JournalPageRequest): Promise<JournalEntry[]> {
    const { before, offset, limit } = journalPage(request);
    const journal = this.books.wallets.get(playerId)?.journal ?? [];
    // Lines are in seq order, with gaps where forgotten units' lines were: the end is found by seq.
    let end = journal.length;
    if (before !== undefined) {
      let lo = 0;
      while (lo < end) {
        const mid = (lo + end) >>> 1;
        if (journal[mid]!.seq < before) lo = mid + 1;
        else end = mid;
      }
    }
    end -= offset;
    return journal.slice(Math.max(0, end - limit), Math.max(0, end)).reverse();
  }
}
