import { Client, type Room, type SeatReservation } from '@colyseus/sdk';
import type { SchemaConstructor } from '@colyseus/sdk/serializer/SchemaSerializer';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { DevLoginReply, HealthReply, LaunchSessionReply, OpenTable } from '../../src/protocol/http';
import type { ExclusionDuration, LimitsRequest, ProtectionState, RefusalDetails } from '../../src/protocol/protection';
import type { HistoryPage, RecallRecord } from '../../src/protocol/recall';
import type { HttpRefusal } from '../../src/protocol/refusals';
import type { ConsistencyReply, InclusionReply, LogKeyReply, SignedCheckpoint } from '../../src/protocol/transparency-log';
import type { Wallet } from '../../src/protocol/wallet';
import { withSeatToken } from './table-socket';
import type { PublishedBlock } from './verification-core';

/** The page talks to the server that served it. */
const ORIGIN = window.location.origin;

export interface Session {
  readonly token: string;
  readonly pseudonym: string;
  /** The embedded demo's proposed weekly stake limit (dev login), which the player confirms or changes. */
  readonly stakeLimitProposal?: number;
}

/** A refusal from an HTTP route: `{ error: { code, message, details? } }`. */
export class Refusal extends Error {
  constructor(readonly code: string, message: string, readonly details?: RefusalDetails) {
    super(message);
  }
}

async function json<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${ORIGIN}${path}`, init);
  const body = (await res.json().catch(() => ({}))) as Partial<HttpRefusal>;
  if (!res.ok) throw new Refusal(body.error?.code ?? 'network', body.error?.message ?? `HTTP ${res.status}`, body.error?.details);
  return body as T;
}

const signed = (token: string) => ({ authorization: `Bearer ${token}` });
/** A player's request with a JSON body (or none). */
const send = (method: string, token: string, body?: unknown): RequestInit => ({
  method,
  headers: body === undefined ? signed(token) : { ...signed(token), 'content-type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

export const http = {
  games: () => json<GameCatalogEntry[]>('/games'),
  health: () => json<HealthReply>('/health'),
  tables: () => json<OpenTable[]>('/tables'),
  history: (token: string) => json<HistoryPage>('/history?limit=20', { headers: signed(token) }),
  recall: (token: string, unitId: string) => json<RecallRecord>(`/history/${encodeURIComponent(unitId)}`, { headers: signed(token) }),
  /** A printed block as published (public, no token): what « Vérifier » checks a recall against. */
  block: (blockId: string) => json<PublishedBlock>(`/fairness/blocks/${encodeURIComponent(blockId)}`),
  /** The log of page roots (public): its key, a page's leaf under the latest signed checkpoint, and the proof that one checkpoint extends another. */
  logKey: () => json<LogKeyReply>('/fairness/log/key'),
  logInclusion: (blockId: string, page: number) => json<InclusionReply>(`/fairness/log/inclusion?blockId=${encodeURIComponent(blockId)}&page=${page}`),
  logConsistency: (from: number, to: number) => json<ConsistencyReply>(`/fairness/log/consistency?from=${from}&to=${to}`),
  protection: (token: string) => json<ProtectionState>('/protection', { headers: signed(token) }),
  setLimits: (token: string, limits: LimitsRequest) => json<ProtectionState>('/protection/limits', send('PUT', token, limits)),
  exclude: (token: string, duration: ExclusionDuration) => json<ProtectionState>('/protection/exclusion', send('POST', token, { duration })),
  acknowledgeRealityCheck: (token: string) => json<ProtectionState>('/protection/reality-check', send('POST', token)),
  /** A launch's session: the one-use handle, in a cookie only this route reads, traded for the token (kept in memory only). */
  launchSession: () => json<LaunchSessionReply>('/auth/launch-session', { method: 'POST', credentials: 'include' }),
  setRealityCheckInterval: (token: string, everyMs: number | null) => json<ProtectionState>('/protection/reality-check-interval', send('PUT', token, { everyMs })),
  devLogin: (name: string) => json<DevLoginReply>('/auth/dev-login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  }),
};

const SESSION_KEY = 'instant-games.session';
const CHECKPOINT_KEY = 'instant-games.checkpoint';
const GAME_KEY = 'instant-games.game';
const WALLET_KEY = 'instant-games.wallet';

/** An operator's link whose `#token=` cannot be read (not percent-encoded UTF-8): it signs nobody in. */
export class BrokenTokenLink extends Error {}

/**
 * The sign-in survives a reload (sessionStorage: this tab only, gone with it). An operator's
 * site sends the player to `/#token=<jwt>`: the fragment never reaches a server, and the page
 * takes it out of the address bar at once (a broken one too: `BrokenTokenLink`).
 */
export const storage = {
  session(): Session | undefined {
    const fromOperator = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
    if (fromOperator) {
      history.replaceState(null, '', window.location.pathname + window.location.search);
      let token: string;
      try {
        token = decodeURIComponent(fromOperator[1]!);
      } catch {
        throw new BrokenTokenLink('the token in the address cannot be read');
      }
      const session = { token, pseudonym: '' };
      this.saveSession(session);
      return session;
    }
    const saved = sessionStorage.getItem(SESSION_KEY);
    return saved ? (JSON.parse(saved) as Session) : undefined;
  },
  saveSession(session: Session | undefined): void {
    if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
    else sessionStorage.removeItem(SESSION_KEY);
  },
  wallet(): Wallet | undefined {
    const saved = sessionStorage.getItem(WALLET_KEY);
    return saved ? (JSON.parse(saved) as Wallet) : undefined;
  },
  saveWallet(wallet: Wallet | undefined): void {
    if (wallet) sessionStorage.setItem(WALLET_KEY, JSON.stringify(wallet));
    else sessionStorage.removeItem(WALLET_KEY);
  },
  /** The last checkpoint of the log of page roots a verification accepted: the next one must extend it (kept across sessions). */
  checkpoint(): SignedCheckpoint | undefined {
    const saved = localStorage.getItem(CHECKPOINT_KEY);
    return saved ? (JSON.parse(saved) as SignedCheckpoint) : undefined;
  },
  saveCheckpoint: (checkpoint: SignedCheckpoint): void => localStorage.setItem(CHECKPOINT_KEY, JSON.stringify(checkpoint)),
  game: (): string | null => sessionStorage.getItem(GAME_KEY),
  saveGame(game: string | null): void {
    if (game) sessionStorage.setItem(GAME_KEY, game);
    else sessionStorage.removeItem(GAME_KEY);
  },
};

/**
 * A player's client: the token in the `Authorization` header of its matchmaking requests, and
 * in a subprotocol of the socket that takes the seat they reserved (./table-socket.ts), which
 * the server asks so that no one else holding the reservation takes it. The SDK's `auth.token`
 * would write it into the WebSocket's URL (`?_authToken=`), which proxies log: never used here.
 */
class PlayerClient extends Client {
  constructor(private readonly token: string) {
    super(ORIGIN, { headers: { authorization: `Bearer ${token}` } });
  }

  override consumeSeatReservation<T>(reservation: SeatReservation, rootSchema?: SchemaConstructor<T>): Promise<Room<any, T>> {
    return withSeatToken(this.token, () => super.consumeSeatReservation(reservation, rootSchema));
  }
}

/** A client of the server: a player's with their token, else a spectator's. */
export function newClient(token?: string): Client {
  return token ? new PlayerClient(token) : new Client(ORIGIN);
}

/**
 * The player's table of `game`. After a drop, the same table joined again by its id with the
 * token (the server keeps the seat a while and shows it whole: a unit finished meanwhile too);
 * when it is gone, a new table, where an unfinished unit resumes.
 */
export async function joinTable(token: string, game: string, dropped: Room | undefined): Promise<Room> {
  const client = newClient(token);
  if (dropped) {
    try {
      return await client.joinById(dropped.roomId);
    } catch {
      // The table closed (its seat expired, its process restarted): a new one below.
    }
  }
  return client.create('table', { game });
}

export type { Room };
