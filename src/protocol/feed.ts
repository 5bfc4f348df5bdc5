import type { GameId } from './game-ids';
import type { Cents } from './money';

/** One win as the feed shows it: no player id, only the pseudonym, masked (« Ali*** »). */
export interface Win {
  readonly game: GameId;
  readonly stake: Cents;
  readonly amount: Cents;
  /** ISO time of the reveal's end. */
  readonly at: string;
  /** Masked by the server: its first letters and « *** » (maskPseudonym in src/feed/win-feed.ts). */
  readonly pseudonym: string;
}

export interface TierLeft {
  readonly tierId: number;
  readonly prize: Cents;
  /** Prizes of this tier in the block whose reveal has not ended (unsold, or sold and unrevealed). */
  readonly left: number;
}

/** One open block's prizes left, per winning tier (tier 0, the losing units, is not listed). */
export interface PrizesLeft {
  readonly game: GameId;
  readonly stake: Cents;
  readonly blockId: string;
  readonly tiers: readonly TierLeft[];
}

/**
 * What the feed room (`joinOrCreate('feed')`, no token) sends: `recent` once on joining (oldest
 * first), then `wins` as they are published, and with PRIZES_LEFT `prizes_left` (also
 * `GET /prizes-left`) followed by `prizes_changed`. Whatever a spectator sends is refused
 * `spectator/read_only`.
 */
export interface FeedMessages {
  readonly recent: { readonly wins: readonly Win[] };
  readonly wins: { readonly wins: readonly Win[] };
  /** The whole list: on joining, and when a block opens or closes. */
  readonly prizes_left: readonly PrizesLeft[];
  /** Only the counts that moved since: `[block index, tier index, left]` triples, flat (prize-changes.ts). */
  readonly prizes_changed: readonly number[];
}
