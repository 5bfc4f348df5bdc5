import type { JournalEntry, PlayerId, Wallets } from '../dealer/types';
import type { Cents } from '../money';

/**
 * How money enters and leaves a player's wallet from outside the games: the operator's
 * deposits and withdrawals. One small interface: today the dealer's own wallet keeps the money
 * (`DealerWalletFunding`); a seamless-wallet adapter (the operator's wallet over HTTP) would
 * implement the same calls.
 */
export type FundingResult =
  /** `entry`: the journal line of this request, the same on a retry (its amount, its time). */
  | { readonly ok: true; readonly balance: Cents; readonly entry: JournalEntry }
  | { readonly ok: false; readonly code: 'wallet/insufficient_funds'; readonly message: string; readonly balance: Cents };

export interface WalletFunding {
  /** Credits `amount` once per `requestId`. */
  deposit(playerId: PlayerId, amount: Cents, requestId: string, now: number): Promise<FundingResult>;
  /** Debits `amount` once per `requestId`, refused below zero. */
  withdraw(playerId: PlayerId, amount: Cents, requestId: string, now: number): Promise<FundingResult>;
  balance(playerId: PlayerId): Promise<Cents>;
  /** Every debit and credit, oldest first: deposits, withdrawals, stakes and prizes. */
  journal(playerId: PlayerId): Promise<JournalEntry[]>;
}

/** The dealer's wallet, funded by the operator; references name the operation and the request. */
export class DealerWalletFunding implements WalletFunding {
  constructor(private readonly dealer: Wallets) {}

  async deposit(playerId: PlayerId, amount: Cents, requestId: string, now: number): Promise<FundingResult> {
    const ref = `deposit:${requestId}`;
    const balance = await this.dealer.deposit(playerId, amount, ref, now);
    return { ok: true, balance, entry: await this.entryOf(playerId, ref) };
  }

  async withdraw(playerId: PlayerId, amount: Cents, requestId: string, now: number): Promise<FundingResult> {
    const ref = `withdraw:${requestId}`;
    const result = await this.dealer.withdraw(playerId, amount, ref, now);
    if (!result.ok) return result;
    return { ok: true, balance: result.balance, entry: await this.entryOf(playerId, ref) };
  }

  balance(playerId: PlayerId): Promise<Cents> {
    return this.dealer.balance(playerId);
  }

  journal(playerId: PlayerId): Promise<JournalEntry[]> {
    return this.dealer.journal(playerId);
  }

  /** Reads the journal whole: operator calls are rare beside purchases. */
  private async entryOf(playerId: PlayerId, ref: string): Promise<JournalEntry> {
    const entry = (await this.dealer.journal(playerId)).findLast((e) => e.ref === ref);
    if (!entry) throw new Error(`no journal line for ${ref}`);
    return entry;
  }
}
