import type { Cents } from './money';

/** What a player is shown of their money (the table's `wallet` message and reply). */
export interface Wallet {
  readonly balance: Cents;
  /** Stakes of units bought and not yet settled (being played, or finished and not yet credited). */
  readonly held: Cents;
}

export type JournalKind = 'deposit' | 'withdrawal' | 'stake' | 'prize';

/** One line of a player's append-only journal: every debit and credit, in order. */
export interface JournalLine<Time = number> {
  readonly seq: number;
  readonly kind: JournalKind;
  /** Signed: stakes and withdrawals are negative. */
  readonly amount: Cents;
  readonly balance: Cents;
  /** The unit for stakes and prizes; the reference of deposits and withdrawals. */
  readonly ref: string;
  /** Ms since the epoch (wallet routes), or ISO text (a recall's ledger). */
  readonly at: Time;
}

/**
 * A prize credit took the player's balance from at or below the automatic withdrawal threshold
 * (WITHDRAWAL_THRESHOLD_CENTS) to above it: the operator pays the excess out.
 */
export interface WithdrawalThresholdEvent {
  /** Opaque, increasing: read on with `after` = the last id seen. */
  readonly id: string;
  /** When the prize was credited (ms since the epoch). */
  readonly at: number;
  readonly playerId: string;
  readonly kind: 'withdrawal_threshold';
  /** The balance after that credit. */
  readonly balance: Cents;
  readonly threshold: Cents;
}

/** What the operator's system reads from `GET /admin/events`. */
export type OperatorEvent = WithdrawalThresholdEvent;
