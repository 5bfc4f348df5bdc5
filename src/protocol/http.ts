import type { JournalLine, OperatorEvent } from './wallet';
import type { Cents } from './money';

/** The HTTP routes' answers the page and the load test read (docs/server.md, "HTTP routes"). */

/** `POST /auth/dev-login` `{ name }`. */
export interface DevLoginReply {
  readonly token: string;
  readonly playerId: string;
  readonly pseudonym: string;
  readonly balance: Cents;
  /** The weekly stake limit the demo proposes (DEMO_STAKE_LIMIT_WEEK_CENTS): the page prefills it, the player confirms it. */
  readonly stakeLimitProposal: Cents;
}

/** `GET /health`: alive; where state is kept; whether the dev login is on (the page offers it only then). */
export interface HealthReply {
  readonly ok: true;
  readonly mode: 'redis' | 'embedded';
  readonly devLogin: boolean;
}

/**
 * `POST /auth/launch-session`: the page of a launch (GET /launch/<code>) exchanges the one-use
 * handle its cookie carries for the session's token, which it keeps in memory only.
 */
export interface LaunchSessionReply {
  readonly token: string;
  readonly playerId: string;
  /** Ms since the epoch: the session ends then at the latest. */
  readonly expiresAt: number;
  /** Where « Retour au lobby » leads. */
  readonly returnUrl: string;
  readonly language: 'fr' | 'en';
  readonly game: string | null;
}

/** One table open to watchers, as `GET /tables` lists it. */
export interface OpenTable {
  readonly roomId: string;
  readonly game: string;
  /** Masked as the win feed shows it: « Ver*** ». */
  readonly pseudonym: string;
  readonly watchers: number;
}

/** `GET /wallet`: the balance and the journal, newest first. */
export interface WalletReply {
  readonly balance: Cents;
  readonly journal: readonly JournalLine[];
}

/** `GET /admin/wallets/:playerId`: the balance and the stakes of the units not settled. */
export interface OperatorWalletReply {
  readonly playerId: string;
  readonly balance: Cents;
  readonly held: Cents;
}

/**
 * `GET /admin/wallets/:playerId/journal`: a page of the journal, newest first; `next`: the
 * `before` of the next (older) page, null at the first line.
 */
export interface OperatorJournalReply {
  readonly playerId: string;
  readonly journal: readonly JournalLine[];
  readonly next: number | null;
}

/** `GET /admin/events`: events after `after`, oldest first; `next`: the `after` to read on from. */
export interface OperatorEventsReply {
  readonly events: readonly OperatorEvent[];
  readonly next: string;
}
