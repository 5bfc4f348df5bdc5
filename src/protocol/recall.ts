import type { Cents } from './money';
import type { JournalLine } from './wallet';

/**
 * A unit as the player may look it up (GLI-19 2.8.2, 4.14): the table's `recall` reply and
 * `GET /history/:unitId`. Finished units carry the whole scenario and the Merkle proof of their
 * outcome, so anyone can re-score them by the rules and check them against the published
 * commitments (`npm run verify-unit`); unfinished ones only what was revealed. Every time is
 * ISO text. Documented field by field in docs/recall.md.
 */
export interface RecallRecord {
  readonly format: 'unit-recall/v3';
  readonly unitId: string;
  readonly game: string;
  readonly stake: Cents;
  readonly blockId: string;
  readonly position: number;
  readonly status: UnitStatus;
  readonly soldAt: string;
  readonly finishedAt: string | null;
  readonly completedBy: 'player' | 'server' | null;
  readonly purchase: RecalledPurchase;
  readonly balanceBefore: Cents;
  readonly balanceAfterStake: Cents;
  /** After the prize was credited (other lines of the ledger included); null while unfinished. */
  readonly balanceAfterPrize: Cents | null;
  /** The player's journal from this unit's stake to its prize credit, every line in between included. */
  readonly ledger: readonly JournalLine<string>[];
  /**
   * The picks made with the purchase (the lamp: `{ kind: 'colour' | 'symbol', choice }`); null
   * for the games that take none (Noël's symbol is an action, in `steps`).
   */
  readonly picks: unknown;
  /** What the game offered beside the scenario (Noël: its three symbols and the decor); null for the others. */
  readonly presentation: unknown;
  readonly steps: readonly RecalledStep[];
  /** Null while unfinished: the prize must not show before the reveal ends. */
  readonly prize: Cents | null;
  readonly scenario: unknown;
  readonly fairness: RecalledFairness;
}

export type UnitStatus = 'in_progress' | 'finished';

/** The purchase that bought the unit: its request id and, for a lamp pair, the other unit. */
export interface RecalledPurchase {
  readonly requestId: string;
  readonly pairedUnitId: string | null;
}

/** An event of a reveal, as the game's reducer gave it (docs/games/<game>.md). */
export interface GameEvent {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** One step of the reveal: step 0 is what the purchase showed, each later one a logged action. */
export interface RecalledStep {
  readonly seq: number;
  readonly at: string;
  readonly by: 'purchase' | 'player' | 'server';
  readonly action: unknown;
  readonly events: readonly GameEvent[];
}

/** The Merkle proof of a unit's printed tier against its page's published root (docs/fairness.md). */
export type UnitProof = UnitProofV3 | UnitProofV2;

interface ProofPath {
  /** The block's size: it fixes the page height and so the number of siblings. */
  readonly size: number;
  readonly position: number;
  readonly tierId: number;
  /** Hex, 32 bytes each, from the leaf's sibling up to the page root's child. */
  readonly siblings: readonly string[];
}

/** Scheme 3: the leaf binds the unit's seed, in its block's domain (game, price, block id). */
export interface UnitProofV3 extends ProofPath {
  readonly scheme: 'merkle-sha256/v3';
  /** Hex, 32 bytes: the seed the scenario is drawn from, revealed once the unit is finished. */
  readonly unitSeed: string;
}

/** Scheme 2 (blocks printed before scheme 3): the leaf binds the tier and a salt only. */
export interface UnitProofV2 extends ProofPath {
  readonly scheme: 'merkle-sha256/v2';
  /** Hex, 32 bytes. */
  readonly salt: string;
}

/** What ties the unit to the published commitments (docs/fairness.md). */
export interface RecalledFairness {
  /**
   * 1: the block's commitment only, checked once it closes; 2: also a Merkle proof of the tier;
   * 3: a Merkle proof of the tier and the unit seed, in the block's domain.
   */
  readonly scheme: 1 | 2 | 3;
  /** The server's public origin (`https://…`), where `GET /fairness/blocks/:blockId` answers; null if not configured. */
  readonly server: string | null;
  readonly blockId: string;
  readonly blockSize: number;
  readonly position: number;
  /** SHA-256(seed ‖ printed block), published when the block was printed. */
  readonly commitment: string;
  /** Schemes 2 and 3: the page holding the position, its published root and when it was published. */
  readonly page: number | null;
  readonly pageRoot: string | null;
  readonly pagePublishedAt: string | null;
  /** Schemes 2 and 3, once the unit is finished (it reveals the tier): the proof against `pageRoot`. */
  readonly proof: UnitProof | null;
}

/** A line of the history list: the prize shows only once the unit is finished. */
export interface HistoryLine {
  readonly unitId: string;
  readonly game: string;
  readonly stake: Cents;
  readonly soldAt: string;
  readonly status: UnitStatus;
  readonly prize: Cents | null;
}

/** The table's `history` reply and `GET /history`: newest first. */
export interface HistoryPage {
  readonly units: readonly HistoryLine[];
}
