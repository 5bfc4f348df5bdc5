import { Client, type Room } from '@colyseus/sdk';

/** The page talks to the server that served it. */
const ORIGIN = window.location.origin;

export interface Session {
  readonly token: string;
  readonly pseudonym: string;
}

/** A purchase-time pick (the lamp's colour or symbol). */
export interface PurchasePick {
  readonly kind: string;
  readonly choice: string;
}

export interface Wallet {
  balance: number;
  held: number;
}

/** One (game, price) as `GET /games` describes it. */
export interface CatalogPrice {
  readonly stake: number;
  readonly blockSize: number;
  readonly tiers: readonly { tierId: number; prize: number; count: number }[];
  readonly totalPayout: number;
  readonly winningUnits: number;
}

export interface Text {
  readonly fr: string;
  readonly en: string;
}

/** A game of `GET /games`; the descriptive fields come with the catalog and may be missing. */
export interface CatalogGame {
  readonly id: string;
  readonly name?: string;
  readonly description?: Text;
  readonly rules?: readonly Text[];
  readonly reglement?: { title: string; file: string };
  /** What the symbols pay: `count` of one at each price (RAIN DIAMONDS' colours, Mine d'or's symbols). */
  readonly symbols?: readonly { id: string; label: Text; worth?: { count: number; prizes: readonly StakePrize[] } }[];
  /** What a count of the chosen symbol pays (Noël). */
  readonly paysByCount?: readonly { count: number; prizes: readonly StakePrize[] }[];
  readonly prices: readonly CatalogPrice[];
}

export interface StakePrize {
  readonly stake: number;
  readonly prize: number;
}

export interface Win {
  readonly game: string;
  readonly stake: number;
  readonly amount: number;
  readonly at: string;
  readonly pseudonym: string;
}

export interface PrizesLeft {
  readonly game: string;
  readonly stake: number;
  readonly blockId: string;
  readonly tiers: readonly { tierId: number; prize: number; left: number }[];
}

export interface OpenTable {
  readonly roomId: string;
  readonly game: string;
  readonly pseudonym: string;
  readonly watchers: number;
}

export interface HistoryLine {
  readonly unitId: string;
  readonly game: string;
  readonly stake: number;
  readonly soldAt: string;
  readonly status: string;
  readonly prize: number | null;
}

export interface RecallStep {
  readonly seq: number;
  readonly by: string;
  readonly action: unknown;
  readonly events: GameEvent[];
}

export interface Recall {
  readonly unitId: string;
  readonly game: string;
  readonly stake: number;
  readonly status: string;
  readonly prize: number | null;
  readonly picks: unknown;
  readonly steps: readonly RecallStep[];
}

/** An event of a reveal, as the game's reducer gave it (docs/games/<game>.md). */
export interface GameEvent {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** A refusal from an HTTP route: `{ error: { code, message } }`. */
export class Refusal extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

async function json<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${ORIGIN}${path}`, init);
  const body = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } };
  if (!res.ok) throw new Refusal(body.error?.code ?? 'network', body.error?.message ?? `HTTP ${res.status}`);
  return body as T;
}

export const http = {
  games: () => json<CatalogGame[]>('/games'),
  tables: () => json<OpenTable[]>('/tables'),
  history: (token: string) => json<{ units: HistoryLine[] }>('/history?limit=20', { headers: { authorization: `Bearer ${token}` } }),
  recall: (token: string, unitId: string) => json<Recall>(`/history/${encodeURIComponent(unitId)}`, { headers: { authorization: `Bearer ${token}` } }),
  devLogin: (name: string) => json<{ token: string; pseudonym: string; balance: number }>('/auth/dev-login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  }),
};

const SESSION_KEY = 'instant-games.session';
const GAME_KEY = 'instant-games.game';
const WALLET_KEY = 'instant-games.wallet';

/**
 * The sign-in survives a reload (sessionStorage: this tab only, gone with it). An operator's
 * site sends the player to `/#token=<jwt>`: the fragment never reaches a server, and the page
 * takes it out of the address bar at once.
 */
export const storage = {
  session(): Session | undefined {
    const fromOperator = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
    if (fromOperator) {
      history.replaceState(null, '', window.location.pathname + window.location.search);
      const session = { token: decodeURIComponent(fromOperator[1]!), pseudonym: '' };
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
  game: (): string | null => sessionStorage.getItem(GAME_KEY),
  saveGame(game: string | null): void {
    if (game) sessionStorage.setItem(GAME_KEY, game);
    else sessionStorage.removeItem(GAME_KEY);
  },
};

export function newClient(token?: string): Client {
  const client = new Client(ORIGIN);
  if (token) client.auth.token = token;
  return client;
}

export type { Room };
