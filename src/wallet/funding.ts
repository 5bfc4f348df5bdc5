import type { DepositLimitRefusal, FundingMismatch, JournalEntry, JournalPageRequest, PlayerId, Wallet, Wallets } from '../dealer/types';
import type { Cents } from '../money';

/**
 * How money enters and leaves a player's wallet from outside the games: the operator's
 * deposits and withdrawals, and what the operator and the player read of it. One small
 * interface: today the dealer's own wallet keeps the money (`DealerWalletFunding`); a
 * seamless-wallet adapter (the operator's wallet over HTTP) would implement the same calls.
 */
export type FundingResult =
  /** `entry`: the journal line of this request, the same on a retry (its amount, its time). */
  | { readonly ok: true; readonly balance: Cents; readonly entry: JournalEntry }
  | { readonly ok: false; readonly code: 'wallet/insufficient_funds'; readonly message: string; readonly balance: Cents }
  | FundingMismatch
  | DepositLimitRefusal;

export interface WalletFunding {
  /**
   * Credits `amount` once per `requestId`; the same id with another amount is refused
   * (`request/mismatch`), and so is a deposit over the player's weekly deposit limit (`limit/deposit_week`).
   */
  deposit(playerId: PlayerId, amount: Cents, requestId: string, now: number): Promise<FundingResult>;
  /** Debits `amount` once per `requestId`, refused below zero, and as deposits are with another amount. */
  withdraw(playerId: PlayerId, amount: Cents, requestId: string, now: number): Promise<FundingResult>;
  /** The balance and the stakes held, without reading the journal. */
  wallet(playerId: PlayerId): Promise<Wallet>;
  /** A page of the journal, newest first: deposits, withdrawals, stakes and prizes. */
  journalPage(playerId: PlayerId, page: JournalPageRequest): Promise<JournalEntry[]>;
}

/**
 * The dealer's wallet, funded by the operator; references name the operation and the request,
 * and each operation is given the other's: a request id is one request, a withdrawal reusing a
 * deposit's id (or the reverse) is refused `request/mismatch`.
 */
export class DealerWalletFunding implements WalletFunding {
  constructor(private readonly dealer: Wallets) {}

  async deposit(playerId: PlayerId, amount: Cents, requestId: string, now: number): Promise<FundingResult> {
    return this.dealer.deposit(playerId, amount, `deposit:${requestId}`, now, `withdraw:${requestId}`);
  }

  async withdraw(playerId: PlayerId, amount: Cents, requestId: string, now: number): Promise<FundingResult> {
    return this.dealer.withdraw(playerId, amount, `withdraw:${requestId}`, now, `deposit:${requestId}`);
  }

  wallet(playerId: PlayerId): Promise<Wallet> {
    return this.dealer.wallet(playerId);
  }

  journalPage(playerId: PlayerId, page: JournalPageRequest): Promise<JournalEntry[]> {
    return this.dealer.journalPage(playerId, page);
  }
}
