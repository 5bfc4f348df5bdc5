import { decodeJournalLine } from '../records';
import type { JournalEntry } from '../types';
import { int } from '../../redis-scripts/reply';

/** The return code of deposit-4.lua and withdraw-4.lua for a reference used by another request. */
export const FUNDING_MISMATCH = -19;

export interface FundingKeys {
  readonly wallet: string;
  readonly deposits: string;
  readonly journal: string;
  /** The archive's money stream (DealerKeys.moneyStream). */
  readonly archive: string;
}

export interface FundingArgs {
  readonly playerId: string;
  readonly amount: number;
  readonly ref: string;
  readonly now: number;
  /** The reference the same request bears as the other operation (`Wallets.deposit`). */
  readonly otherRef?: string;
}

/** The journal line a funding script answered: its seq, then the line (includes/fundingRecord.lua). */
export function fundingEntry(reply: unknown[]): JournalEntry {
  return { seq: int(reply[2]), ...decodeJournalLine(String(reply[3])) };
}
