import type { Cents } from '../../money';
import { assertDeposit, isPlayerId } from '../identifiers';
import type { JournalEntry, PlayerId, Wallet, Wallets, WithdrawResult } from '../types';
import { DepositLimitError } from '../protection';
import type { MemoryBooks } from './books';
import { depositRefusal } from './protection';

export class MemoryWallets implements Wallets {
  constructor(private readonly books: MemoryBooks) {}

  async deposit(playerId: PlayerId, amount: Cents, ref: string, now: number): Promise<Cents> {
    assertDeposit(playerId, amount, ref, now);
    const wallet = this.books.walletOf(playerId);
    if (!wallet.deposits.has(ref)) {
      const refused = depositRefusal(wallet, amount, now);
      if (refused) throw new DepositLimitError(refused);
      wallet.deposits.add(ref);
      this.books.post(wallet, 'deposit', amount, ref, now);
    }
    return wallet.balance;
  }

  async withdraw(playerId: PlayerId, amount: Cents, ref: string, now: number): Promise<WithdrawResult> {
    assertDeposit(playerId, amount, ref, now);
    const wallet = this.books.walletOf(playerId);
    if (wallet.deposits.has(ref)) return { ok: true, balance: wallet.balance, replayed: true };
    if (wallet.balance < amount) return { ok: false, code: 'wallet/insufficient_funds', message: 'the balance is below the amount', balance: wallet.balance };
    wallet.deposits.add(ref);
    this.books.post(wallet, 'withdrawal', -amount, ref, now);
    return { ok: true, balance: wallet.balance, replayed: false };
  }

  async balance(playerId: PlayerId): Promise<Cents> {
    return isPlayerId(playerId) ? (this.books.wallets.get(playerId)?.balance ?? 0) : 0;
  }

  async wallet(playerId: PlayerId): Promise<Wallet> {
    const wallet = isPlayerId(playerId) ? this.books.wallets.get(playerId) : undefined;
    let held = 0;
    for (const unitId of wallet?.unsettled ?? []) held += this.books.sales.get(unitId)!.stake;
    return { balance: wallet?.balance ?? 0, held };
  }

  async journal(playerId: PlayerId): Promise<JournalEntry[]> {
    return [...(this.books.wallets.get(playerId)?.journal ?? [])];
  }
}
