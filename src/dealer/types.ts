import type { Cents } from '../money';
import type { GameId, PrizeTable } from '../games/types';
import type { BlockPlace } from '../protocol/fairness';
import type { ProtectionRefusalCode, RefusalDetails } from '../protocol/protection';
import type { RefusalCode } from '../protocol/refusals';
import type { ProtectionSettings } from '../protection/rules';
import type { Protections } from '../protection/types';
import type { OperatorEventsReply } from '../protocol/http';
import type { JournalKind, JournalLine, OperatorEvent, Wallet, WithdrawalThresholdEvent } from '../protocol/wallet';

export type { JournalKind, OperatorEvent, Wallet, WithdrawalThresholdEvent };
import type { UnitProof } from '../fairness/merkle';

/**
 * The dealer's store: emissions of printed blocks, purchases, settlement and the wallet, cut
 * into the roles its callers use (`Emissions`, `Sales`, `Wallets`, `FairnessPages`, `PageLog`,
 * `Offloading`, `Protections`, `OperatorEvents`; `DealerStore` has one of each, as fields).
 * Two implementations (memory: the embedded default; Redis: Lua scripts), one conformance
 * suite (test/dealer/store-conformance.ts).
 * Time is always passed in (`now`, ms since the epoch) so that nothing inside reads a clock.
 */

/** A player's id as the auth layer gives it: 1–64 of [A-Za-z0-9_.:-]. */
export type PlayerId = string;

export type { BlockState } from '../protocol/fairness';

export interface BlockInfo extends BlockPlace {
  /** Hex SHA-256 commitment, published when the block is printed, before it opens. */
  readonly commitment: string;
  /**
   * 1: the commitment alone, checked once its seed is public; 2: also one Merkle page root per
   * 4,096 positions, each published before the first sale in its page (docs/fairness.md); 3: the
   * same, with the unit seed in each leaf and the block's domain in the leaves and commitment.
   */
  readonly scheme: 1 | 2 | 3;
  /** Hex 32-byte seed: only once the block is closed. */
  readonly seed?: string;
  readonly sold: number;
  /** Units settled so far (their reveal ended, or they were abandoned): all of them once offloaded. */
  readonly settled: number;
  /** Per tier id (index 0 = losing units): units sold so far. */
  readonly soldPerTier: readonly number[];
  /** Where its units' records live once offloaded (src/offload/unit-files.ts): the path of the `.ndjson` file. */
  readonly offloadedTo?: string;
}

export interface EmissionInfo {
  readonly emissionId: string;
  readonly game: GameId;
  readonly stake: Cents;
  readonly table: PrizeTable;
  readonly blockCount: number;
  readonly blocks: readonly BlockInfo[];
}

export interface OpenEmissionRequest {
  readonly emissionId: string;
  /** Production passes the rules' table; tests may pass a smaller table of the same shape. */
  readonly table: PrizeTable;
  /** How many blocks the emission holds; after the last sells out, the game is closed. */
  readonly blockCount: number;
  readonly now: number;
}

export interface PurchaseRequest {
  readonly playerId: PlayerId;
  /**
   * Idempotency key: 1–64 of [A-Za-z0-9_-], a client's id or a unit's id derived from it
   * (src/ids.ts, the request ids' rule); a retry returns the same sale.
   */
  readonly requestId: string;
  readonly game: string;
  readonly stake: Cents;
  readonly now: number;
  /**
   * The player's purchase-time picks as opaque JSON text (at most 512 characters), stored with
   * the sale in the same atomic step so that a unit can always be regenerated; '' when none.
   */
  readonly picks?: string;
  /**
   * "Finish your unit first" (GLI-19 4.16), checked in the same atomic step as the sale: when
   * given, the purchase is refused (`purchase/unfinished_unit`) while the player has an
   * unsettled unit of this game other than those bought under these request ids. It lists the
   * request ids of the units bought together, this one's among them: `[requestId]` for one
   * unit, both ids for the lamp's pair. At most 8, each a request id. Absent: no such check
   * (the dealer's own benchmark and proofs, which deal without playing).
   */
  readonly boughtTogether?: readonly string[];
  /**
   * The play service's protection checks (docs/responsible-gaming.md), in the same atomic step:
   * when given, the purchase is refused without a weekly stake limit (`limit/not_set`) and once
   * the session's play reaches the reality check unacknowledged (`protection/reality_check`),
   * and the session is kept. Limits set, self-exclusions and blocks apply to every purchase,
   * with it or without. Absent: the dealer's own proofs, which deal without playing.
   */
  readonly protection?: ProtectionSettings;
}

export interface Sale {
  /** `${blockId}:${position}`: names the unit everywhere (history, recall, journal). */
  readonly unitId: string;
  readonly playerId: PlayerId;
  readonly requestId: string;
  readonly game: GameId;
  readonly stake: Cents;
  readonly blockId: string;
  readonly position: number;
  /** The printed tier id of the unit (0: losing) and its prize. Hidden from clients until revealed. */
  readonly tierId: number;
  readonly prize: Cents;
  readonly soldAt: number;
  readonly balanceBefore: Cents;
  readonly balanceAfter: Cents;
  /** As given in the purchase request ('' when none). */
  readonly picks: string;
  /** When the prize was credited (settle); absent while the unit is unfinished. */
  readonly settledAt?: number;
}

/**
 * A purchase's refusals are codes of the protocol's table (src/protocol/refusals.ts): the dealer's,
 * and the operator's wallet's (`SeamlessMoney`).
 */
export type PurchaseRefusalCode = Extract<RefusalCode, `purchase/${string}` | `wallet/${string}`> | ProtectionRefusalCode;

export type PurchaseResult =
  | { readonly ok: true; readonly sale: Sale; readonly repeated: boolean }
  | { readonly ok: false; readonly code: PurchaseRefusalCode; readonly message: string; readonly details?: RefusalDetails };

export type SettleResult =
  | { readonly ok: true; readonly credited: boolean; readonly prize: Cents; readonly balance: Cents }
  | Refused<'settle/unknown_unit'>;

/** A page's Merkle root as published (schemes 2 and 3): positions [page × 4,096, …) of a block. */
export interface PageCommitment {
  readonly page: number;
  /** Hex, 32 bytes. */
  readonly root: string;
  /** When it was published (ms since the epoch): before the first sale in the page. */
  readonly publishedAt: number;
}

/** A refusal of one of the dealer's operations: nothing changed. */
interface Refused<Code extends RefusalCode> {
  readonly ok: false;
  readonly code: Code;
  readonly message: string;
}

/**
 * A reference used before with another amount (or for the other operation): the funding
 * request it names was another one; nothing changed.
 */
export interface FundingMismatch extends Refused<'request/mismatch'> {
  readonly balance: Cents;
}

/**
 * `entry`: the journal line of this reference, the same on a repeat (its amount, its time, the
 * balance after it); `balance`: the balance now.
 */
export type DepositResult =
  | { readonly ok: true; readonly balance: Cents; readonly repeated: boolean; readonly entry: JournalEntry }
  | FundingMismatch
  | DepositLimitRefusal;

/** A deposit that would take the last 7 days' deposits above the player's limit: nothing changed. */
export interface DepositLimitRefusal extends Refused<'limit/deposit_week'> {
  readonly details: RefusalDetails;
}

export type WithdrawResult =
  | { readonly ok: true; readonly balance: Cents; readonly repeated: boolean; readonly entry: JournalEntry }
  | (Refused<'wallet/insufficient_funds'> & { readonly balance: Cents })
  | FundingMismatch;

/**
 * A page of a player's journal, newest first: the lines whose seq is below `before` (every line
 * when absent), the `offset` newest of them skipped, at most `limit` (1–500).
 */
export interface JournalPageRequest {
  readonly before?: number;
  readonly offset?: number;
  readonly limit: number;
}

/** The operator's events after an id; `next`: the id to read on from (the last event's, or the `after` given when none). */
export type OperatorEventsPage = OperatorEventsReply;

/** One line of a player's journal, its time in ms since the epoch (the protocol's shape). */
export type JournalEntry = JournalLine;


/** Emissions and their printed blocks: what the server opens at start and the reports list. */
export interface Emissions {
  /**
   * Prints the emission's first block (open) and the next one (printed, ready to open). The same
   * id with the same table and block count again returns the emission as it is; with another,
   * or while another emission of that game and price still sells, it throws.
   */
  openEmission(request: OpenEmissionRequest): Promise<EmissionInfo>;
  /** Every emission, by id, with its printed blocks. */
  listEmissions(): Promise<EmissionInfo[]>;
  /** One printed block as `listEmissions` shows it; undefined for a block not printed. */
  block(blockId: string): Promise<BlockInfo | undefined>;
}

/** Sales: purchases, their settlement, and the records players and the sweeper read back. */
export interface Sales {
  /** Debit the stake, deal the next unit and journal the sale, atomically and idempotently. */
  purchase(request: PurchaseRequest): Promise<PurchaseResult>;
  /** Credit the unit's prize exactly once (idempotent); `credited` is false on a repeat. */
  settle(unitId: string, now: number): Promise<SettleResult>;
  getSale(unitId: string): Promise<Sale | undefined>;
  /** A player's sales, newest first (history), `limit` at most 100. */
  listSales(playerId: PlayerId, offset: number, limit: number): Promise<Sale[]>;
  /**
   * Sales not yet settled that were sold at or before `soldBefore`, oldest first, at most
   * `limit`: the unfinished units the server completes after a delay, and resumes on return.
   * With `playerId`, only that player's.
   */
  unsettledSales(soldBefore: number, limit: number, playerId?: PlayerId): Promise<Sale[]>;
}

/** Players' money: deposits, withdrawals, balances and the journal. */
export interface Wallets {
  /**
   * Idempotent on `ref`: the same deposit twice credits once; the same ref with another amount,
   * or a withdrawal's ref, is refused (`request/mismatch`), atomically with the check; so is a
   * deposit when `otherRef` (the reference its request bears as a withdrawal) was used; a new
   * deposit that would take the last 7 days' deposits above the player's limit is refused
   * (`limit/deposit_week`, docs/responsible-gaming.md).
   */
  deposit(playerId: PlayerId, amount: Cents, ref: string, now: number, otherRef?: string): Promise<DepositResult>;
  /**
   * Debits `amount` once per `ref` (idempotent, as deposits, and refused as they are when the
   * ref, or `otherRef`, was used with another amount or for a deposit), refused when the
   * balance would go below zero.
   */
  withdraw(playerId: PlayerId, amount: Cents, ref: string, now: number, otherRef?: string): Promise<WithdrawResult>;
  balance(playerId: PlayerId): Promise<Cents>;
  /**
   * The balance and the stakes held by every unsettled unit, from running totals: its cost does
   * not grow with the journal nor with the units in play (0 and 0 for an unknown player).
   */
  wallet(playerId: PlayerId): Promise<Wallet>;
  /** The whole journal, oldest first (recalls, proofs): its cost grows with it. */
  journal(playerId: PlayerId): Promise<JournalEntry[]>;
  /** A page of the journal, newest first, read without the rest of it (`JournalPageRequest`). */
  journalPage(playerId: PlayerId, page: JournalPageRequest): Promise<JournalEntry[]>;
}

/**
 * What the operator's system reads of what happened to players' money: today, a prize credit
 * that took a balance above the automatic withdrawal threshold. Each event is written with the
 * credit that caused it (or, on a cluster, before that unit's settlement completes: a cut
 * settlement is completed again by the sweeper), once per credit.
 */
export interface OperatorEvents {
  /** Events after `after` (from the first when absent), oldest first, at most `limit` (1–500). */
  events(after: string | undefined, limit: number): Promise<OperatorEventsPage>;
}

/** What proves the dealing fair: block seeds, recorded tiers, Merkle pages and unit proofs. */
export interface FairnessPages {
  /**
   * The 32-byte seed of a printed block, for the server to derive unit seeds (`unitSeed`);
   * secret until the block closes. Throws on an unknown block.
   */
  blockSeed(blockId: string): Promise<Uint8Array>;
  /**
   * The tier recorded with each sale of a block, by position (`UNSOLD` = 0xff where nothing was
   * sold): what `verifyBlock` checks against the re-print. Undefined for an unknown block.
   */
  recordedTiers(blockId: string): Promise<Uint8Array | undefined>;
  /**
   * The page roots published so far for a block, in page order (schemes 2 and 3; empty for a
   * block of scheme 1). Undefined for an unknown block.
   */
  pageCommitments(blockId: string): Promise<PageCommitment[] | undefined>;
  /**
   * The Merkle proof of a sold unit's printed tier against its page's published root, made by
   * re-hashing that one page (schemes 2 and 3); undefined for a unit never sold or a block of scheme 1.
   * It reveals the unit's tier: callers show it only once the unit's reveal is over.
   */
  unitProof(unitId: string): Promise<UnitProof | undefined>;
}

/**
 * The log of page roots (page-log.ts): each page root published, appended once, in the order of
 * publication, never changed; what the server's signed checkpoints cover (docs/fairness.md,
 * "Checkpoints"). The stores append as they publish; this role only reads.
 */
export interface PageLog {
  /** Leaves in the log. */
  logSize(): Promise<number>;
  /** The texts of leaves `from` to `from + count − 1` (fewer past the end). */
  logLeaves(from: number, count: number): Promise<string[]>;
  /** The index of a page's leaf; undefined while that page is not in the log. */
  logIndexOf(blockId: string, page: number): Promise<number | undefined>;
}

/** Offloading: moving finished blocks' records out of the store to files (docs/dealer.md, "Offloading settled blocks"). */
export interface Offloading {
  /**
   * Closed blocks, closed at or before `closedBefore`, whose every unit is settled and that are not
   * offloaded yet: what the offloader may offload, in the order of their ids.
   */
  offloadableBlocks(closedBefore: number): Promise<string[]>;
  /**
   * The sales of positions `from` to `from + limit − 1` of a block, in order, with their
   * settlement: what the offloader writes. Empty past its sales, and for unknown or offloaded blocks.
   */
  blockSales(blockId: string, from: number, limit: number): Promise<Sale[]>;
  /**
   * Records that an offloadable block's units are offloaded at `path` (written with
   * `writeOffloadedBlock`) and drops their records here; getSale, listSales, settle and
   * recordedTiers read them from those files after that. False when it was offloaded before;
   * throws when the block is not offloadable.
   */
  markOffloaded(blockId: string, path: string, now: number): Promise<boolean>;
}

/**
 * The whole dealer: one object per role, as fields (`store.sales.purchase(…)`), what both
 * implementations are and what the server's wiring builds. Consumers take the roles they use.
 */
export interface DealerStore {
  readonly emissions: Emissions;
  readonly sales: Sales;
  readonly wallets: Wallets;
  readonly pages: FairnessPages;
  readonly log: PageLog;
  readonly offloading: Offloading;
  readonly protections: Protections;
  readonly events: OperatorEvents;
  close(): Promise<void>;
}
