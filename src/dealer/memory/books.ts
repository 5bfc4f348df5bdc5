import type { PrizeTable } from '../../games/types';
import type { Cents } from '../../money';
import { readOffloadedUnit } from '../../offload/unit-files';
import { parseBlockId, parseUnitId } from '../../ids';
import { MemoryOutbox } from '../outbox';
import { pageCount, PageTreeCache, pageTreeOfPrint, rootOfPage, type PageTree } from '../../fairness/merkle';
import { encodeLeaf, pageLeafId } from '../../fairness/page-log';
import type { PrintedBlock } from '../../fairness/printing';
import { newProtection, type MemoryProtection } from '../../protection/memory';
import type { BlockState, JournalEntry, JournalKind, PageCommitment, PlayerId, Sale, WithdrawalThresholdEvent } from '../types';

export interface MemoryBlock {
  readonly index: number;
  readonly blockId: string;
  readonly printed: PrintedBlock;
  state: BlockState;
  sold: number;
  /** Its units settled (counted once each, forgotten ones too). */
  settled: number;
  readonly soldPerTier: number[];
  /** The tier recorded with each sale, by position (UNSOLD until sold); undefined once offloaded. */
  recorded: Uint8Array | undefined;
  closedAt?: number;
  /** The files of its units (src/offload/unit-files.ts), once offloaded. */
  offloadedTo?: string;
  /** Page roots published so far, by page: page 0 at printing, the others ahead of sales. */
  readonly pages: PageCommitment[];
  /** Its settled units forgotten by the bound on what is kept (`keepSettled`): never offloadable then. */
  forgotten: number;
}

export interface MemoryEmission {
  readonly emissionId: string;
  readonly table: PrizeTable;
  readonly blockCount: number;
  readonly blocks: MemoryBlock[];
  openIndex: number;
  closed: boolean;
}

export interface MemoryWallet {
  balance: Cents;
  /** Its lines, but those of forgotten units (`keepSettled`); `posted` numbers them. */
  readonly journal: JournalEntry[];
  posted: number;
  /**
   * Idempotency window number → `purchaseField` (`<game>:<stake>|<requestId>`) → unitId: the
   * records of the purchases of that window (per game and price, as in Redis); only this
   * window's and the one before are kept.
   */
  readonly requests: Map<number, Map<string, string>>;
  /** Deposit or withdrawal ref → the journal line it made (the request's amount, for repeats). */
  readonly deposits: Map<string, JournalEntry>;
  /** The sum of the stakes of `unsettled` (what the player is shown as held). */
  staked: Cents;
  /** The player's unit ids, oldest first. */
  readonly sales: string[];
  readonly unsettled: Set<string>;
  /** The player's settled units still kept, in order of settlement. */
  readonly settled: Set<string>;
  /** Limits, windows, exclusion, block, session and their journal (protection.ts). */
  readonly protection: MemoryProtection;
}

/**
 * Everything the memory store holds, shared by its roles, with the few reads and writes
 * several of them make.
 */
export class MemoryBooks {
  readonly emissions = new Map<string, MemoryEmission>();
  /** `<game>:<stake>` (`gamePrice`) → the emission selling there (or sold out, the last one). */
  readonly selling = new Map<string, MemoryEmission>();
  readonly wallets = new Map<PlayerId, MemoryWallet>();
  /** unitId → sale; a settled sale is replaced by a copy with `settledAt`. */
  readonly sales = new Map<string, Sale>();
  /** Unit ids not settled yet, in order of sale. */
  readonly unsettled = new Set<string>();
  /** Settled unit ids still kept, in order of settlement (only with `keepSettled`). */
  readonly settledKept = new Set<string>();
  /** The operator's events, oldest first (ids `0-<n>`). */
  readonly events: WithdrawalThresholdEvent[] = [];
  /** The regulator's archive's outbox: each journal line's entry is added with it (`post`). */
  readonly outbox: MemoryOutbox;
  /** The log of page roots (page-log.ts): leaf texts in the order of publication. */
  readonly logLeaves: string[] = [];
  /** `<blockId>:<page>` → the index of its leaf in `logLeaves`. */
  readonly logIndex = new Map<string, number>();
  /** `<blockId>:<page>` → the pages hashed last: publishing one and proving in it share the hashing. */
  private readonly pageTrees = new PageTreeCache();

  constructor(archive: boolean) {
    this.outbox = new MemoryOutbox(archive);
  }

  findBlock(blockId: string): MemoryBlock | undefined {
    const ref = parseBlockId(blockId);
    return ref && this.emissions.get(ref.emissionId)?.blocks[ref.index];
  }

  walletOf(playerId: PlayerId): MemoryWallet {
    let wallet = this.wallets.get(playerId);
    if (!wallet) {
      wallet = { balance: 0, journal: [], posted: 0, requests: new Map(), deposits: new Map(), staked: 0, sales: [], unsettled: new Set(), settled: new Set(), protection: newProtection() };
      this.wallets.set(playerId, wallet);
    }
    return wallet;
  }

  /** Journals a line of `playerId`'s wallet and its archive entry at once (`game`: '' for deposits and withdrawals). */
  post(playerId: PlayerId, wallet: MemoryWallet, kind: JournalKind, amount: Cents, ref: string, at: number, game = ''): JournalEntry {
    wallet.balance += amount;
    const entry = { seq: ++wallet.posted, kind, amount, balance: wallet.balance, ref, at };
    wallet.journal.push(entry);
    this.outbox.money(playerId, kind, amount, wallet.balance, ref, at, game);
    return entry;
  }

  async offloadedSale(unitId: string): Promise<Sale | undefined> {
    const ref = parseUnitId(unitId);
    const offloadedTo = ref && this.findBlock(ref.blockId)?.offloadedTo;
    return offloadedTo ? (await readOffloadedUnit<Sale>(offloadedTo, unitId, ref.position))?.sale : undefined;
  }

  /**
   * Publishes a page's root once (first call wins), appending it to the log of page roots in the
   * same step; nothing past the block's last page.
   */
  publishPage(table: PrizeTable, block: MemoryBlock, page: number, now: number): void {
    if (block.pages[page] || page >= pageCount(table.blockSize)) return;
    const root = Buffer.from(rootOfPage(this.pageTreeOf(block, page))).toString('hex');
    block.pages[page] = { page, root, publishedAt: now };
    this.logIndex.set(pageLeafId(block.blockId, page), this.logLeaves.length);
    this.logLeaves.push(encodeLeaf({ scheme: block.printed.scheme.version, game: table.game, stake: table.stake, blockId: block.blockId, page, root, publishedAt: now }));
  }

  pageTreeOf(block: MemoryBlock, page: number): PageTree {
    const key = `${block.blockId}:${page}`;
    return this.pageTrees.get(key) ?? this.pageTrees.set(key, pageTreeOfPrint(block.printed, page));
  }
}
