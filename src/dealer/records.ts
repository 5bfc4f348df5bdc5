import type { GameId } from '../games/types';
import type { Cents } from '../money';
import { unitIdOf } from './identifiers';
import type { JournalEntry, JournalKind, Sale } from './types';

/**
 * The dealer's record formats, in one place: the `Sale` builder both stores use, and the
 * decoders of what the Lua scripts write (their one writer each is an include of
 * src/dealer/lua/includes: saleRecord.lua, journalLine.lua).
 */

/** What is recorded with a sale, beside where it was dealt. */
export interface SaleRecord {
  readonly playerId: string;
  readonly requestId: string;
  readonly tierId: number;
  readonly prize: Cents;
  readonly soldAt: number;
  readonly balanceBefore: Cents;
  readonly balanceAfter: Cents;
  readonly picks: string;
}

/** The one builder of a `Sale`: the unit at `position` of `blockId`, sold as `record` says. */
export function buildSale(
  sequence: { readonly game: GameId; readonly stake: Cents },
  blockId: string,
  position: number,
  record: SaleRecord,
  settledAt?: number,
): Sale {
  return {
    unitId: unitIdOf(blockId, position),
    playerId: record.playerId,
    requestId: record.requestId,
    game: sequence.game,
    stake: sequence.stake,
    blockId,
    position,
    tierId: record.tierId,
    prize: record.prize,
    soldAt: record.soldAt,
    balanceBefore: record.balanceBefore,
    balanceAfter: record.balanceAfter,
    picks: record.picks,
    ...(settledAt !== undefined ? { settledAt } : {}),
  };
}

/**
 * A sale record as saleRecord.lua writes it, at field <position> of a block's sales hash:
 * `playerId|requestId|tierId|prize|soldAt|balanceBefore|balanceAfter|picks`. Player and request
 * ids cannot hold `|` (identifiers.ts); picks come last as they may.
 */
export function decodeSale(record: string): SaleRecord {
  const parts = record.split('|');
  return {
    playerId: parts[0]!,
    requestId: parts[1]!,
    tierId: Number(parts[2]),
    prize: Number(parts[3]),
    soldAt: Number(parts[4]),
    balanceBefore: Number(parts[5]),
    balanceAfter: Number(parts[6]),
    picks: parts.slice(7).join('|'),
  };
}

/** A journal line as journalLine.lua writes it: `kind|amount|balance|at|ref`. */
export function decodeJournalLine(line: string): Omit<JournalEntry, 'seq'> {
  const [kind, amount, balance, at, ref] = line.split('|');
  return { kind: kind as JournalKind, amount: Number(amount), balance: Number(balance), ref: ref!, at: Number(at) };
}
