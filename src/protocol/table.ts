import type { GameId } from './game-ids';
import type { Cents } from './money';
import type { HistoryPage, RecallRecord } from './recall';
import type { RefusalMessage } from './refusals';
import type { Wallet } from './wallet';

/**
 * The table room (`create('table', { token, game })`; a spectator `joinById(roomId, { watch:
 * true })`), documented in docs/server.md. A player's requests are answered by their reply, or
 * rejected with a `RefusalMessage`; the state (`TableState`, src/rooms/table-state.ts) shows the
 * units and their steps.
 */

/**
 * The WebSocket subprotocols a page offers when its socket takes a table's seat: first
 * `TABLE_SUBPROTOCOL` (the one the server answers), then `BEARER_SUBPROTOCOL` + the player's
 * token, the proof that the socket is the player's who reserved the seat (a browser sets no
 * header on a WebSocket, and a token in a URL is what proxies log). Clients that can set
 * headers send `Authorization: Bearer` on the upgrade instead (docs/server.md).
 */
export const TABLE_SUBPROTOCOL = 'instant-games';
export const BEARER_SUBPROTOCOL = 'bearer.';

/** The options of `create('table', …)`. */
export interface TableOptions {
  readonly game: GameId;
  readonly token?: string;
}

/** A purchase-time pick (the lamp's colour or symbol): a catalog choice's id and one of its options. */
export interface PurchasePick {
  readonly kind: string;
  readonly choice: string;
}

export interface BuyRequest {
  readonly stake: Cents;
  /** Client-chosen idempotency key: a retry with the same id returns the same purchase, charged once. */
  readonly requestId: string;
  /** As the game's catalog says (the lamp: one or two `PurchasePick`); absent for the others. */
  readonly picks?: unknown;
}

export interface BuyReply {
  readonly unitIds: readonly string[];
  readonly wallet: Wallet;
}

export interface ActRequest {
  /** `{ type, ...fields }`, as the game's catalog `actions` describe it. */
  readonly action: unknown;
  /** Only needed to name the one unit in play; the units of one purchase take the action together. */
  readonly unitId?: string;
}

export interface ActReply {
  readonly unitIds: readonly string[];
  /** When the action ended a reveal: its prize is in the balance. */
  readonly wallet?: Wallet;
}

export interface HistoryRequest {
  readonly offset?: number;
  readonly limit?: number;
}

export interface RecallRequest {
  readonly unitId: string;
}

/**
 * The player has seen the first `steps` steps of the unit `unitId` uncovered: scratched, tapped,
 * opened with the keyboard, or shown without silver (AUTO). For the games covered on screen
 * (`GameDescription.coveredOnScreen`) the table shows its watchers, and the wins feed, no step
 * of a unit before its player said so; for the others it changes nothing.
 */
export interface UncoveredRequest {
  readonly unitId: string;
  readonly steps: number;
}

/** How many steps of the unit the table counts as seen by its player now. */
export interface UncoveredReply {
  readonly unitId: string;
  readonly steps: number;
}

export interface WatchersRequest {
  readonly open: boolean;
}

export interface WatchersReply {
  readonly roomId: string;
  readonly open: boolean;
}

/** Every request a table's player may send (`room.request(type, message)`), with its reply. */
export interface TableRequests {
  readonly buy: { readonly request: BuyRequest; readonly reply: BuyReply };
  readonly act: { readonly request: ActRequest; readonly reply: ActReply };
  readonly wallet: { readonly request: undefined; readonly reply: Wallet };
  readonly history: { readonly request: HistoryRequest | undefined; readonly reply: HistoryPage };
  readonly recall: { readonly request: RecallRequest; readonly reply: RecallRecord };
  readonly uncovered: { readonly request: UncoveredRequest; readonly reply: UncoveredReply };
  readonly watchers: { readonly request: WatchersRequest; readonly reply: WatchersReply };
}

export type TableRequestType = keyof TableRequests;

/** What a table sends its player unasked. */
export interface TableMessages {
  /** On joining: the unfinished units it resumed (or the last one whose end the player did not see). */
  readonly resumed: { readonly unitIds: readonly string[] };
  /** On joining, and when a refused action of a lamp pair still ended the other unit. */
  readonly wallet: Wallet;
  /** A refusal of a plain `room.send`, or of anything a spectator sends. */
  readonly refused: RefusalMessage;
  /** To watchers only: the player's connection dropped (`away`) or came back (`back`). */
  readonly player: { readonly state: 'away' | 'back' };
}

/**
 * Why a watcher's connection is closed (the close's reason text): the player left, closed the
 * table to watchers, or the table no longer answers (its process stopped).
 */
export type WatcherCloseReason = 'table/player_left' | 'table/closed_to_watchers' | 'table/lost';
