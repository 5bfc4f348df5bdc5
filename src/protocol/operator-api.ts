import type { Cents } from './money';

/**
 * The operator's platform and this server, both ways (docs/integration.md; the OpenAPI document
 * docs/operator-api.yaml). Every request either way is a JSON POST signed with the shared secret
 * (src/operator/signature.ts, header `X-Lottery-Signature`); amounts are integer cents of EUR.
 */

/** The operator's back end asks for a launch: POST /operator/launch on this server. */
export interface LaunchRequest {
  /** The operator's id of the player: 1–64 of [A-Za-z0-9_.:-]. */
  readonly player: string;
  readonly currency: 'EUR';
  readonly language: 'fr' | 'en';
  /** Where « Retour au lobby » leads: an https URL (http only on localhost) of the operator's. */
  readonly returnUrl: string;
  /** The game to open (a game id of GET /games); absent: the lobby. */
  readonly game?: string;
  /** Limits the operator holds for this player (cents); the server applies the stricter of its own and these. */
  readonly limits?: { readonly stakeWeek?: Cents; readonly stakeDay?: Cents };
  /** An exclusion the operator holds: until then (ms since the epoch) the player cannot buy. */
  readonly excludedUntil?: number;
}

export interface LaunchReply {
  /** One use, short life: opens the page signed in as that player. */
  readonly url: string;
  /** Ms since the epoch. */
  readonly expiresAt: number;
}

/** Ends a player's game sessions now: POST /operator/sessions/end on this server. */
export interface EndSessionsRequest {
  readonly player: string;
}

/** The wallet the operator exposes; the server calls POST <WALLET_URL>/<call>. */
export type WalletCall = 'balance' | 'debit' | 'credit' | 'rollback';

export interface BalanceRequest {
  readonly player: string;
  readonly currency: 'EUR';
}

/**
 * A debit (the stake of a purchase) or a credit (a prize): `transactionId` is the idempotency
 * key — the same id gets the same answer and never a second movement.
 */
export interface MoveRequest {
  readonly transactionId: string;
  readonly player: string;
  /** The purchase this movement belongs to (the unit's request id). */
  readonly round: string;
  readonly game: string;
  readonly amount: Cents;
  readonly currency: 'EUR';
}

/** Undoes a debit: `transactionId` is the rollback's own id, `referenceTransactionId` the debit's. */
export interface RollbackRequest {
  readonly transactionId: string;
  readonly referenceTransactionId: string;
  readonly player: string;
  readonly round: string;
  readonly currency: 'EUR';
}

/** Every successful wallet answer (HTTP 200). */
export interface WalletOk {
  readonly balance: Cents;
  readonly currency: 'EUR';
  /** The operator's own id of the movement (absent for balance). */
  readonly operatorTransactionId?: string;
}

/**
 * A definite refusal (HTTP 4xx with this body): nothing moved, and nothing will for this id.
 * `transaction_rolled_back`: a debit whose id was already rolled back (never applied after).
 */
export const WALLET_ERROR_CODES = ['insufficient_funds', 'player_blocked', 'limit_reached', 'unknown_player', 'transaction_rolled_back', 'invalid_request', 'invalid_signature'] as const;
export type WalletErrorCode = (typeof WALLET_ERROR_CODES)[number];

export interface WalletError {
  readonly error: WalletErrorCode;
  readonly message: string;
  readonly balance?: Cents;
}

/** The HTTP status of each refusal, the same both ways: the reference operator answers these, the OpenAPI document lists them. */
export const WALLET_ERROR_STATUS: { readonly [code in WalletErrorCode]: number } = {
  invalid_request: 400,
  invalid_signature: 401,
  insufficient_funds: 402,
  player_blocked: 403,
  limit_reached: 403,
  unknown_player: 404,
  transaction_rolled_back: 409,
};

/**
 * What a movement is now: a debit or a credit `standing`; a debit `rolled_back` (a rollback
 * undid it); a rollback `applied` (it undid its debit) or `unmatched` (its debit was never
 * seen, or moved nothing: acknowledged, nothing moved, and a late debit with that id is refused).
 */
export type LedgerState = 'standing' | 'rolled_back' | 'applied' | 'unmatched';

/**
 * One movement of a wallet ledger, one JSON line each: the operator's export
 * (`GET /ledger?day=`) and the server's (`GET /admin/wallet-ledger?day=`) write this same
 * format, and `npm run reconcile` compares two of them (src/wallet/reconcile.ts).
 */
export interface LedgerLine {
  readonly transactionId: string;
  readonly player: string;
  readonly round: string;
  /** The game of the round; '' for a rollback whose debit was never seen. */
  readonly game: string;
  readonly kind: 'debit' | 'credit' | 'rollback';
  /** Cents moved: a debit's stake, a credit's prize, what a rollback gave back (0 when unmatched). */
  readonly amount: Cents;
  /** When it was applied, ms since the epoch. */
  readonly at: number;
  readonly state: LedgerState;
  /** A rollback's: the debit it undoes. */
  readonly referenceTransactionId?: string;
}
