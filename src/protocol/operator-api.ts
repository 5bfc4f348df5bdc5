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
