import type { GameId } from '../games/types';
import type { Cents } from '../money';
import { gamePrice, unitIdOf } from '../ids';
import type { JournalEntry, JournalKind, PageCommitment, Sale, WithdrawalThresholdEvent } from './types';

/**
 * The dealer's record formats, in one place: the `Sale` builder both stores use, and the
 * decoders of what the Lua scripts write (sales and journal lines have one writer each, an
 * include of src/dealer/lua/includes: saleRecord.lua, journalLine.lua; pages are written by
 * publishPage-1.lua and storeBlock-2.lua, pending purchases by reservePurchase-4.lua).
 */

/** What is recorded with a sale, beside where it was dealt. */
export type SaleRecord = Pick<Sale, 'playerId' | 'requestId' | 'tierId' | 'prize' | 'soldAt' | 'balanceBefore' | 'balanceAfter' | 'picks'>;

/** The one builder of a `Sale`: the unit at `position` of `blockId`, sold as `record` says. */
export function buildSale(
  emission: { readonly game: GameId; readonly stake: Cents },
  blockId: string,
  position: number,
  record: SaleRecord,
  settledAt?: number,
): Sale {
  return {
    unitId: unitIdOf(blockId, position),
    playerId: record.playerId,
    requestId: record.requestId,
    game: emission.game,
    stake: emission.stake,
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
 * ids cannot hold `|` (src/ids.ts); picks come last as they may.
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

/**
 * A withdrawal threshold event as thresholdEvent.lua records it,
 * `<playerId>|<balance after>|<threshold>|<at>`, with the id its stream gave it.
 */
export function decodeThresholdEvent(id: string, record: string): WithdrawalThresholdEvent {
  const [playerId, balance, threshold, at] = record.split('|');
  return { id, at: Number(at), playerId: playerId!, kind: 'withdrawal_threshold', balance: Number(balance), threshold: Number(threshold) };
}

/** A page record as publishPage-1.lua stores it: `<root hex>|<publishedAt>`. */
export function decodePage(page: number, record: string): PageCommitment {
  const [root, publishedAt] = record.split('|');
  return { page, root: root!, publishedAt: Number(publishedAt) };
}

/** The value of a request id a sold-out lane of several turned away (lua/includes/sequenceDealing.lua). */
export const PASSED_ON = '>';

/**
 * The field of a player's purchase in their per-slot records (pending purchases, request ids,
 * and the memory store's request ids): `<game>:<stake>|<requestId>`.
 */
export function purchaseField(game: string, stake: Cents, requestId: string): string {
  return `${gamePrice(game, stake)}|${requestId}`;
}

/** What the player's step recorded of a purchase (per-slot protocol): the lane's step deals with it. */
export interface Reservation {
  readonly balanceBefore: Cents;
  /** The purchase's time: the first call's, on a retry. */
  readonly now: number;
  readonly picks: string;
}

/** A pending purchase as reservePurchase-4.lua records it: its field (`purchaseField`) and `<balance before>|<time>|<picks>`. */
export interface PendingPurchase {
  readonly game: GameId;
  readonly stake: Cents;
  readonly requestId: string;
  readonly reservation: Reservation;
}

export function decodePending(field: string, record: string): PendingPurchase | undefined {
  const f = /^([^:|]+):(\d+)\|(.+)$/.exec(field);
  const r = /^(-?\d+)\|(\d+)\|(.*)$/s.exec(record);
  if (!f || !r) return undefined;
  return { game: f[1] as GameId, stake: Number(f[2]), requestId: f[3]!, reservation: { balanceBefore: Number(r[1]), now: Number(r[2]), picks: r[3]! } };
}
