import { findPrizeTable } from '../games/prize-tables';
import { DEPOSIT_REF, EMISSION_ID, isGameId, isPlayerId, REQUEST_ID } from '../ids';
import type { FundingMismatch, JournalPageRequest, OpenEmissionRequest, PurchaseRefusalCode, PurchaseRequest, PurchaseResult } from './types';
import { assertPrintable } from '../fairness/printing';

/**
 * The request checks shared by both stores, so that they accept and refuse exactly the same
 * things (the names they check: src/ids.ts).
 */

/** Purchase-time picks are opaque JSON text kept with the sale. */
const MAX_PICKS_LENGTH = 512;
const MAX_SALES_PAGE = 100;
/** Units one purchase may buy together (the lamp's pair; a little room). */
const MAX_BOUGHT_TOGETHER = 8;

function refusal(code: PurchaseRefusalCode, message: string): PurchaseResult {
  return { ok: false, code, message };
}

/** The refusal for a request no store could accept (malformed, or a game never sold), if any. */
export function checkPurchaseRequest(request: PurchaseRequest): PurchaseResult | undefined {
  if (!isPlayerId(request.playerId)) return refusal('purchase/malformed', 'playerId must be 1–64 of [A-Za-z0-9_.:-]');
  if (typeof request.requestId !== 'string' || !REQUEST_ID.test(request.requestId)) {
    return refusal('purchase/malformed', 'requestId must be 1–64 of [A-Za-z0-9_-]');
  }
  if (!Number.isSafeInteger(request.stake) || request.stake < 1) {
    return refusal('purchase/malformed', 'stake must be a positive whole number of cents');
  }
  if (typeof request.game !== 'string') return refusal('purchase/malformed', 'game must be a game id');
  if (request.picks !== undefined && (typeof request.picks !== 'string' || request.picks.length > MAX_PICKS_LENGTH)) {
    return refusal('purchase/malformed', `picks must be text of at most ${MAX_PICKS_LENGTH} characters`);
  }
  const together = request.boughtTogether;
  if (
    together !== undefined &&
    (!Array.isArray(together) ||
      together.length > MAX_BOUGHT_TOGETHER ||
      !together.includes(request.requestId) ||
      !together.every((id) => typeof id === 'string' && REQUEST_ID.test(id)))
  ) {
    return refusal('purchase/malformed', `boughtTogether must list 1–${MAX_BOUGHT_TOGETHER} request ids, this request's among them`);
  }
  assertTime(request.now);
  if (!isGameId(request.game)) return refusal('purchase/unknown_game', `no game ${JSON.stringify(request.game)}`);
  // A price the rules do not sell is refused here, before any step touches the player (on a
  // cluster the stake's hold would come first), even where an emission of it is still open.
  if (!findPrizeTable(request.game, request.stake)) return unknownSequence(request.game, request.stake);
  return undefined;
}

export function unknownSequence(game: string, stake: number): PurchaseResult {
  return refusal('purchase/unknown_game', `${game} is not sold at ${stake} cents`);
}

export function gameClosed(game: string, stake: number): PurchaseResult {
  return refusal('purchase/game_closed', `${game} at ${stake} cents: the emission is sold out`);
}

export function unfinishedUnit(game: string): PurchaseResult {
  return refusal('purchase/unfinished_unit', `finish your unit of ${game} before buying another`);
}

export function insufficientFunds(balance: number, stake: number): PurchaseResult {
  return refusal('purchase/insufficient_funds', `balance ${balance} cents is below the stake of ${stake} cents`);
}

/** Opening an emission is an operator action: bad input is a programmer error, so it throws. */
export function assertOpenEmission(request: OpenEmissionRequest): void {
  if (!EMISSION_ID.test(request.emissionId)) throw new RangeError(`emissionId must be 1–64 of [A-Za-z0-9_-]: ${request.emissionId}`);
  if (!isGameId(request.table.game)) throw new RangeError(`unknown game ${request.table.game}`);
  if (!Number.isSafeInteger(request.table.stake) || request.table.stake < 1) throw new RangeError(`stake ${request.table.stake}`);
  if (!Number.isSafeInteger(request.blockCount) || request.blockCount < 1) throw new RangeError(`blockCount ${request.blockCount}`);
  assertPrintable(request.table);
  assertTime(request.now);
}

export function assertDeposit(playerId: string, amount: number, ref: string, now: number, otherRef?: string): void {
  if (!isPlayerId(playerId)) throw new RangeError(`playerId must be 1–64 of [A-Za-z0-9_.:-]: ${playerId}`);
  if (!Number.isSafeInteger(amount) || amount < 1) throw new RangeError(`deposit must be a positive whole number of cents: ${amount}`);
  for (const r of otherRef === undefined ? [ref] : [ref, otherRef]) {
    if (!DEPOSIT_REF.test(r)) throw new RangeError(`deposit ref must be 1–128 of [A-Za-z0-9_.:-]: ${r}`);
  }
  assertTime(now);
}

export function assertTime(now: number): void {
  if (!Number.isSafeInteger(now) || now < 0) throw new RangeError(`now must be ms since the epoch: ${now}`);
}

/** Two tables are the same emission's table when every printed figure agrees. */
export function sameTable(a: OpenEmissionRequest['table'], b: OpenEmissionRequest['table']): boolean {
  return JSON.stringify(canonicalTable(a)) === JSON.stringify(canonicalTable(b));
}

export function canonicalTable(table: OpenEmissionRequest['table']) {
  return {
    game: table.game,
    stake: table.stake,
    blockSize: table.blockSize,
    tiers: table.tiers.map((t) => ({ prize: t.prize, count: t.count })),
  };
}

/** A page of a player's history: offset ≥ 0, limit clamped to 0–100. */
export function salesPage(offset: number, limit: number): { offset: number; limit: number } {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(limit)) throw new RangeError(`page ${offset}, ${limit}`);
  return { offset: Math.max(0, offset), limit: Math.min(MAX_SALES_PAGE, Math.max(0, limit)) };
}

/** A deposit's or withdrawal's ref met again with another amount or for the other operation. */
export function requestMismatch(balance: number): FundingMismatch {
  return { ok: false, code: 'request/mismatch', message: 'this reference was used before for another amount or operation', balance };
}

/** The most journal lines, or operator events, one page gives. */
export const MAX_PAGE = 500;

/**
 * A page of a journal, checked: `before` a seq ≥ 1 when given, `offset` ≥ 0, `limit` clamped to
 * 0–500.
 */
export function journalPage(page: JournalPageRequest): { before: number | undefined; offset: number; limit: number } {
  const { before, offset = 0, limit } = page;
  if ((before !== undefined && (!Number.isSafeInteger(before) || before < 1)) || !Number.isSafeInteger(offset) || !Number.isSafeInteger(limit)) {
    throw new RangeError(`journal page ${JSON.stringify(page)}`);
  }
  return { before, offset: Math.max(0, offset), limit: Math.min(MAX_PAGE, Math.max(0, limit)) };
}

/** An operator event id as a store gives it: a Redis stream id, `<ms>-<n>` (or one number). */
const EVENT_ID = /^\d{1,20}(?:-\d{1,20})?$/;

export function isEventId(id: string): boolean {
  return EVENT_ID.test(id);
}

/** Whether event id `a` comes after `b` in a stream's order (`<ms>-<n>`; `<ms>` alone is `<ms>-0`). */
export function eventIdAfter(a: string, b: string): boolean {
  const [am = 0n, an = 0n] = a.split('-').map(BigInt);
  const [bm = 0n, bn = 0n] = b.split('-').map(BigInt);
  return am > bm || (am === bm && an > bn);
}

/** A page of operator events, checked: `after` an event id when given, `limit` clamped to 0–500. */
export function eventsPage(after: string | undefined, limit: number): { after: string | undefined; limit: number } {
  if ((after !== undefined && !isEventId(after)) || !Number.isSafeInteger(limit)) throw new RangeError(`events page ${after}, ${limit}`);
  return { after, limit: Math.min(MAX_PAGE, Math.max(0, limit)) };
}

export function unsettledLimit(limit: number): number {
  if (!Number.isSafeInteger(limit)) throw new RangeError(`limit ${limit}`);
  return Math.max(0, limit);
}

/** The automatic withdrawal threshold a store is given, checked: whole cents ≥ 0, or undefined (off). */
export function withdrawalThreshold(cents: number | undefined): number | undefined {
  if (cents !== undefined && !(Number.isSafeInteger(cents) && cents >= 0)) throw new RangeError(`withdrawalThreshold must be a whole number of cents: ${cents}`);
  return cents;
}

/** How long a purchase's request id is remembered at least, by default: 24 h. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The idempotency window in ms: a positive whole number. */
export function idempotencyWindow(ms: number = IDEMPOTENCY_WINDOW_MS): number {
  if (!Number.isSafeInteger(ms) || ms < 1) throw new RangeError(`the idempotency window must be a positive whole number of ms: ${ms}`);
  return ms;
}
