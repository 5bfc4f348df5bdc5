import { idempotencyWindow, withdrawalThreshold } from '../identifiers';
import type { ArchiveOutbox } from '../outbox';
import type { DealerStore, Emissions, FairnessPages, Offloading, OperatorEvents, PageLog, Sales, Wallets } from '../types';
import type { Protections } from '../../protection/types';
import { MemoryOffloading } from './offloading';
import { MemoryBooks } from './books';
import { MemoryEmissions } from './emissions';
import { MemoryOperatorEvents } from './operator-events';
import { MemoryPageLog } from './page-log';
import { MemoryPages } from './pages';
import { MemoryProtections } from '../../protection/memory';
import { MemorySales, type KeepSettled } from './sales';
import { MemoryWallets } from './wallets';

export type { KeepSettled } from './sales';

export interface MemoryStoreOptions {
  /** As RedisStoreOptions.idempotencyWindowMs. */
  readonly idempotencyWindowMs?: number;
  /**
   * Bounds what finished units leave in memory: past `perPlayer` settled units of a player, or
   * `total` in all, the oldest settled is forgotten: its sale, its purchase's idempotency record,
   * its place in the history, its journal lines (stake and prize; the balance is unchanged). A
   * unit in play or not settled is never forgotten, and the counts of the blocks (sold, per
   * tier, recorded tiers) stay exact. Unset: everything is kept.
   */
  readonly keepSettled?: KeepSettled;
  /** Told the units just forgotten (their action logs can go too). */
  readonly forgotten?: (unitIds: readonly string[]) => void;
  /** Each printed block's seed. Default: the operating system's CSPRNG; a fixed one only for a demo that must not change (the page's screenshots). */
  readonly printSeed?: () => Uint8Array;
  /** As RedisStoreOptions.withdrawalThreshold. */
  readonly withdrawalThreshold?: number;
  /** As RedisStoreOptions.fundedByOperator. */
  readonly fundedByOperator?: boolean;
  /** Whether the archive's outbox keeps its entries for a writer (`outbox`). Default true. */
  readonly archive?: boolean;
}

/**
 * The embedded default: the whole dealer in one process's memory (`MemoryBooks`), its roles
 * in src/dealer/memory/. Every change is made synchronously before its promise resolves, so
 * each operation is atomic by construction; only reads of offloaded records wait (for the
 * archive's file). Nothing survives the process.
 */
export class MemoryStore implements DealerStore {
  readonly emissions: Emissions;
  readonly sales: Sales;
  readonly wallets: Wallets;
  readonly pages: FairnessPages;
  readonly log: PageLog;
  readonly offloading: Offloading;
  readonly protections: Protections;
  readonly events: OperatorEvents;
  /** The regulator's archive's outbox (src/dealer/outbox.ts): what the archive writer drains. */
  readonly outbox: ArchiveOutbox;
  private readonly books: MemoryBooks;

  constructor(options: MemoryStoreOptions = {}) {
    const keep = options.keepSettled;
    if (keep && !(Number.isSafeInteger(keep.perPlayer) && keep.perPlayer >= 1 && Number.isSafeInteger(keep.total) && keep.total >= 1)) {
      throw new RangeError(`keepSettled needs whole numbers ≥ 1: ${JSON.stringify(keep)}`);
    }
    const threshold = withdrawalThreshold(options.withdrawalThreshold);
    const books = new MemoryBooks(options.archive ?? true);
    const emissions = new MemoryEmissions(books, options.printSeed);
    this.emissions = emissions;
    this.sales = new MemorySales(books, emissions, idempotencyWindow(options.idempotencyWindowMs), keep, options.forgotten, threshold, options.fundedByOperator ?? false);
    this.wallets = new MemoryWallets(books);
    this.pages = new MemoryPages(books);
    this.log = new MemoryPageLog(books);
    this.offloading = new MemoryOffloading(books);
    this.protections = new MemoryProtections(books);
    this.events = new MemoryOperatorEvents(books);
    this.outbox = books.outbox;
    this.books = books;
  }

  /** The players with a wallet (what the archive's reconciliation reads the journals of). */
  async journaledPlayers(): Promise<string[]> {
    return [...this.books.wallets.keys()];
  }

  async close(): Promise<void> {}
}
