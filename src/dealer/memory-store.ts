import type { PrizeTable } from '../games/types';
import { prizeOfTier } from '../games/prize-tables';
import type { Cents } from '../money';
import {
  assertDeposit,
  assertOpenEmission,
  assertTime,
  blockIdOf,
  checkPurchaseRequest,
  gameClosed,
  idempotencyWindow,
  insufficientFunds,
  isPlayerId,
  parseBlockId,
  parseUnitId,
  unitIdOf,
  salesPage,
  sameTable,
  unfinishedUnit,
  unsettledLimit,
  unknownSequence,
} from './identifiers';
import { readArchivedTiers, readArchivedUnit } from './archive';
import { pageCount, pageOf, PageTreeCache, pageTreeOfPrint, proveUnit, rootOfPage, type PageTree, type UnitProof } from './merkle';
import { printNewBlock, type PrintedBlock, UNSOLD } from './printing';
import { buildSale } from './records';
import type {
  BlockInfo,
  BlockState,
  DealerStore,
  EmissionInfo,
  JournalEntry,
  JournalKind,
  WithdrawResult,
  OpenEmissionRequest,
  PageCommitment,
  PlayerId,
  PurchaseRequest,
  PurchaseResult,
  Sale,
  SettleResult,
  Wallet,
} from './types';

interface MemoryBlock {
  readonly index: number;
  readonly blockId: string;
  readonly printed: PrintedBlock;
  state: BlockState;
  sold: number;
  readonly soldPerTier: number[];
  /** The tier recorded with each sale, by position (UNSOLD until sold); undefined once archived. */
  recorded: Uint8Array | undefined;
  closedAt?: number;
  /** The archive of its units (archive.ts), once archived. */
  archive?: string;
  /** Page roots published so far, by page (scheme 2): page 0 at printing, the others ahead of sales. */
  readonly pages: PageCommitment[];
  /** Its settled units forgotten by the bound on what is kept (`keepSettled`): never archivable then. */
  forgotten: number;
}

interface MemoryEmission {
  readonly emissionId: string;
  readonly table: PrizeTable;
  readonly blockCount: number;
  readonly blocks: MemoryBlock[];
  openIndex: number;
  closed: boolean;
}

interface MemoryWallet {
  balance: Cents;
  /** Its lines, but those of forgotten units (`keepSettled`); `posted` numbers them. */
  readonly journal: JournalEntry[];
  posted: number;
  /**
   * Idempotency window number → `<game>:<stake>|<requestId>` → unitId: the records of the
   * purchases of that window (per sequence, as in Redis); only this window's and the one
   * before are kept.
   */
  readonly requests: Map<number, Map<string, string>>;
  readonly deposits: Set<string>;
  /** The player's unit ids, oldest first. */
  readonly sales: string[];
  readonly unsettled: Set<string>;
  /** The player's settled units still kept, in order of settlement. */
  readonly settled: Set<string>;
}

/** How many settled units the store keeps: per player, and in all. */
export interface KeepSettled {
  readonly perPlayer: number;
  readonly total: number;
}

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
}

/**
 * The embedded default: the whole dealer in one process's memory. Every change is made
 * synchronously before its promise resolves, so each operation is atomic by construction; only
 * reads of archived records wait (for the archive's file). Nothing survives the process.
 */
export class MemoryStore implements DealerStore {
  private readonly windowMs: number;
  private readonly keep: KeepSettled | undefined;
  private readonly onForgotten: ((unitIds: readonly string[]) => void) | undefined;
  private readonly printSeed: (() => Uint8Array) | undefined;

  constructor(options: MemoryStoreOptions = {}) {
    this.windowMs = idempotencyWindow(options.idempotencyWindowMs);
    const keep = options.keepSettled;
    if (keep && !(Number.isSafeInteger(keep.perPlayer) && keep.perPlayer >= 1 && Number.isSafeInteger(keep.total) && keep.total >= 1)) {
      throw new RangeError(`keepSettled needs whole numbers ≥ 1: ${JSON.stringify(keep)}`);
    }
    this.keep = keep;
    this.onForgotten = options.forgotten;
    this.printSeed = options.printSeed;
  }

  private readonly emissions = new Map<string, MemoryEmission>();
  /** `${game}:${stake}` → the sequence's current emission. */
  private readonly sequences = new Map<string, MemoryEmission>();
  private readonly wallets = new Map<PlayerId, MemoryWallet>();
  /** unitId → sale; a settled sale is replaced by a copy with `settledAt`. */
  private readonly sales = new Map<string, Sale>();
  /** Unit ids not settled yet, in order of sale. */
  private readonly unsettled = new Set<string>();
  /** Settled unit ids still kept, in order of settlement (only with `keepSettled`). */
  private readonly settledKept = new Set<string>();
  /** `<blockId>:<page>` → the pages hashed last: publishing one and proving in it share the hashing. */
  private readonly pageTrees = new PageTreeCache();

  async openEmission(request: OpenEmissionRequest): Promise<EmissionInfo> {
    assertOpenEmission(request);
    const existing = this.emissions.get(request.emissionId);
    if (existing) {
      if (!sameTable(existing.table, request.table) || existing.blockCount !== request.blockCount) {
        throw new Error(`emission ${request.emissionId} already exists with another table or block count`);
      }
      return this.emissionInfo(existing);
    }
    const sequence = `${request.table.game}:${request.table.stake}`;
    const current = this.sequences.get(sequence);
    if (current && !current.closed) {
      throw new Error(`${sequence} is still selling emission ${current.emissionId}`);
    }
    const emission: MemoryEmission = {
      emissionId: request.emissionId,
      table: request.table,
      blockCount: request.blockCount,
      blocks: [],
      openIndex: 0,
      closed: false,
    };
    this.printNext(emission, request.now).state = 'open';
    if (emission.blockCount > 1) this.printNext(emission, request.now);
    this.emissions.set(emission.emissionId, emission);
    this.sequences.set(sequence, emission);
    return this.emissionInfo(emission);
  }

  async listEmissions(): Promise<EmissionInfo[]> {
    return [...this.emissions.values()].sort((a, b) => (a.emissionId < b.emissionId ? -1 : 1)).map((e) => this.emissionInfo(e));
  }

  async block(blockId: string): Promise<BlockInfo | undefined> {
    const ref = parseBlockId(blockId);
    const emission = ref && this.emissions.get(ref.emissionId);
    return emission && this.emissionInfo(emission).blocks[ref.index];
  }

  async blockSeed(blockId: string): Promise<Uint8Array> {
    const block = this.findBlock(blockId);
    if (!block) throw new RangeError(`unknown block ${blockId}`);
    return block.printed.seed.slice();
  }

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const refused = checkPurchaseRequest(request);
    if (refused) return refused;
    const wallet = this.wallets.get(request.playerId);
    const sequence = `${request.game}:${request.stake}`;
    const window = Math.floor(request.now / this.windowMs);
    const served = (requestId: string) => wallet && this.served(wallet, `${sequence}|${requestId}`, window);
    const previous = served(request.requestId);
    if (previous !== undefined) return { ok: true, sale: (await this.getSale(previous))!, replayed: true };
    const emission = this.sequences.get(sequence);
    if (!emission) return unknownSequence(request.game, request.stake);
    if (emission.closed) return gameClosed(request.game, request.stake);
    if (wallet && request.boughtTogether) {
      const boughtWith = new Set(request.boughtTogether.map(served));
      const unfinished = [...wallet.unsettled].some((id) => this.sales.get(id)!.game === request.game && !boughtWith.has(id));
      if (unfinished) return unfinishedUnit(request.game);
    }
    const balance = wallet?.balance ?? 0;
    if (balance < request.stake) return insufficientFunds(balance, request.stake);

    const block = emission.blocks[emission.openIndex]!;
    const position = block.sold;
    // The page's root is published before its first sale, and the next page's one page ahead.
    const page = pageOf(emission.table.blockSize, position);
    this.publishPage(emission.table, block, page, request.now);
    this.publishPage(emission.table, block, page + 1, request.now);
    const tierId = block.printed.units[position]!;
    const sale = buildSale(emission.table, block.blockId, position, {
      playerId: request.playerId,
      requestId: request.requestId,
      tierId,
      prize: prizeOfTier(emission.table, tierId),
      soldAt: request.now,
      balanceBefore: balance,
      balanceAfter: balance - request.stake,
      picks: request.picks ?? '',
    });
    const { unitId } = sale;
    const debited = this.walletOf(request.playerId);
    this.post(debited, 'stake', -request.stake, unitId, request.now);
    this.remember(debited, `${sequence}|${request.requestId}`, unitId, window);
    debited.sales.push(unitId);
    debited.unsettled.add(unitId);
    this.sales.set(unitId, sale);
    this.unsettled.add(unitId);
    block.recorded![position] = tierId;
    block.soldPerTier[tierId]!++;
    block.sold++;
    if (block.sold === emission.table.blockSize) this.closeBlock(emission, block, request.now);
    return { ok: true, sale, replayed: false };
  }

  async settle(unitId: string, now: number): Promise<SettleResult> {
    assertTime(now);
    const sale = this.sales.get(unitId);
    if (!sale) {
      // Only blocks whose every unit is settled are archived.
      const archived = await this.archivedSale(unitId);
      if (!archived) return { ok: false, code: 'settle/unknown_unit', message: `no sale of unit ${unitId}` };
      return { ok: true, credited: false, prize: archived.prize, balance: await this.balance(archived.playerId) };
    }
    const wallet = this.walletOf(sale.playerId);
    if (sale.settledAt !== undefined) return { ok: true, credited: false, prize: sale.prize, balance: wallet.balance };
    this.sales.set(unitId, { ...sale, settledAt: now });
    this.unsettled.delete(unitId);
    wallet.unsettled.delete(unitId);
    if (sale.prize > 0) this.post(wallet, 'prize', sale.prize, unitId, now);
    if (this.keep) this.keepBounded(wallet, unitId, this.keep);
    return { ok: true, credited: true, prize: sale.prize, balance: wallet.balance };
  }

  async getSale(unitId: string): Promise<Sale | undefined> {
    return this.sales.get(unitId) ?? this.archivedSale(unitId);
  }

  async listSales(playerId: PlayerId, offset: number, limit: number): Promise<Sale[]> {
    const page = salesPage(offset, limit);
    const ids = this.wallets.get(playerId)?.sales ?? [];
    const newestFirst = ids.slice(Math.max(0, ids.length - page.offset - page.limit), Math.max(0, ids.length - page.offset));
    return Promise.all(newestFirst.reverse().map(async (id) => (await this.getSale(id))!));
  }

  async unsettledSales(soldBefore: number, limit: number, playerId?: PlayerId): Promise<Sale[]> {
    const ids = playerId === undefined ? this.unsettled : (this.wallets.get(playerId)?.unsettled ?? new Set<string>());
    const due = [...ids].map((id) => this.sales.get(id)!).filter((s) => s.soldAt <= soldBefore);
    // Sets keep the order of sale; the sort (stable) only matters when callers' clocks disagree.
    return due.sort((a, b) => a.soldAt - b.soldAt).slice(0, unsettledLimit(limit));
  }

  async recordedTiers(blockId: string): Promise<Uint8Array | undefined> {
    const block = this.findBlock(blockId);
    if (block?.archive) return readArchivedTiers(block.archive, blockId, block.printed.units.length);
    return block?.recorded!.slice();
  }

  async archivableBlocks(closedBefore: number): Promise<string[]> {
    return [...this.emissions.values()]
      .flatMap((e) => e.blocks)
      .filter((b) => this.archivable(b) && b.closedAt! <= closedBefore)
      .map((b) => b.blockId)
      .sort();
  }

  async blockSales(blockId: string, from: number, limit: number): Promise<Sale[]> {
    const block = this.findBlock(blockId);
    const sales: Sale[] = [];
    if (!block || block.archive) return sales;
    for (let p = Math.max(0, from); p < Math.min(from + limit, block.sold); p++) sales.push(this.sales.get(unitIdOf(blockId, p))!);
    return sales;
  }

  async markArchived(blockId: string, path: string, now: number): Promise<boolean> {
    assertTime(now);
    const block = this.findBlock(blockId);
    if (block?.archive) return false;
    if (!block || !this.archivable(block)) throw new Error(`block ${blockId} is unknown, not closed, or has units not settled`);
    for (let p = 0; p < block.sold; p++) this.sales.delete(unitIdOf(blockId, p));
    block.recorded = undefined;
    block.archive = path;
    return true;
  }

  async pageCommitments(blockId: string): Promise<PageCommitment[] | undefined> {
    return this.findBlock(blockId)?.pages.slice();
  }

  async unitProof(unitId: string): Promise<UnitProof | undefined> {
    const sale = await this.getSale(unitId);
    const block = sale && this.findBlock(sale.blockId);
    if (!sale || !block) return undefined;
    return proveUnit(this.pageTreeOf(block, pageOf(block.printed.units.length, sale.position)), sale.position);
  }

  async deposit(playerId: PlayerId, amount: Cents, ref: string, now: number): Promise<Cents> {
    assertDeposit(playerId, amount, ref, now);
    const wallet = this.walletOf(playerId);
    if (!wallet.deposits.has(ref)) {
      wallet.deposits.add(ref);
      this.post(wallet, 'deposit', amount, ref, now);
    }
    return wallet.balance;
  }

  async withdraw(playerId: PlayerId, amount: Cents, ref: string, now: number): Promise<WithdrawResult> {
    assertDeposit(playerId, amount, ref, now);
    const wallet = this.walletOf(playerId);
    if (wallet.deposits.has(ref)) return { ok: true, balance: wallet.balance, replayed: true };
    if (wallet.balance < amount) return { ok: false, code: 'wallet/insufficient_funds', message: 'the balance is below the amount', balance: wallet.balance };
    wallet.deposits.add(ref);
    this.post(wallet, 'withdrawal', -amount, ref, now);
    return { ok: true, balance: wallet.balance, replayed: false };
  }

  async balance(playerId: PlayerId): Promise<Cents> {
    return isPlayerId(playerId) ? (this.wallets.get(playerId)?.balance ?? 0) : 0;
  }

  async wallet(playerId: PlayerId): Promise<Wallet> {
    const wallet = isPlayerId(playerId) ? this.wallets.get(playerId) : undefined;
    let held = 0;
    for (const unitId of wallet?.unsettled ?? []) held += this.sales.get(unitId)!.stake;
    return { balance: wallet?.balance ?? 0, held };
  }

  async journal(playerId: PlayerId): Promise<JournalEntry[]> {
    return [...(this.wallets.get(playerId)?.journal ?? [])];
  }

  async close(): Promise<void> {}

  /** Closes a sold-out block, reveals its seed, opens the next and prints the one after. */
  private closeBlock(emission: MemoryEmission, block: MemoryBlock, now: number): void {
    block.state = 'closed';
    block.closedAt = now;
    const next = block.index + 1;
    if (next === emission.blockCount) {
      emission.closed = true;
      return;
    }
    // Printing is synchronous here, so the next block is always there when needed.
    (emission.blocks[next] ?? this.printNext(emission, now)).state = 'open';
    emission.openIndex = next;
    if (next + 1 < emission.blockCount) this.printNext(emission, now);
  }

  /** Publishes a page's root once (first call wins); nothing past the block's last page. */
  private publishPage(table: PrizeTable, block: MemoryBlock, page: number, now: number): void {
    if (block.pages[page] || page >= pageCount(table.blockSize)) return;
    const root = Buffer.from(rootOfPage(this.pageTreeOf(block, page))).toString('hex');
    block.pages[page] = { page, root, publishedAt: now };
  }

  private pageTreeOf(block: MemoryBlock, page: number): PageTree {
    const key = `${block.blockId}:${page}`;
    return this.pageTrees.get(key) ?? this.pageTrees.set(key, pageTreeOfPrint(block.printed, page));
  }

  private printNext(emission: MemoryEmission, now: number): MemoryBlock {
    const index = emission.blocks.length;
    const block: MemoryBlock = {
      index,
      blockId: blockIdOf(emission.emissionId, index),
      printed: printNewBlock(emission.table, this.printSeed?.()),
      state: 'printed',
      sold: 0,
      soldPerTier: new Array<number>(emission.table.tiers.length + 1).fill(0),
      recorded: new Uint8Array(emission.table.blockSize).fill(UNSOLD),
      pages: [],
      forgotten: 0,
    };
    this.publishPage(emission.table, block, 0, now);
    emission.blocks.push(block);
    return block;
  }

  /** Remembers a newly settled unit, then forgets the oldest settled past either bound. */
  private keepBounded(wallet: MemoryWallet, unitId: string, keep: KeepSettled): void {
    wallet.settled.add(unitId);
    this.settledKept.add(unitId);
    const forgotten: string[] = [];
    while (wallet.settled.size > keep.perPlayer) forgotten.push(this.forget(wallet.settled.values().next().value!));
    while (this.settledKept.size > keep.total) forgotten.push(this.forget(this.settledKept.values().next().value!));
    if (forgotten.length > 0) this.onForgotten?.(forgotten);
  }

  /** Drops a settled unit's own records; its block's counts and recorded tier stay. */
  private forget(unitId: string): string {
    const sale = this.sales.get(unitId)!;
    const wallet = this.wallets.get(sale.playerId)!;
    this.sales.delete(unitId);
    this.settledKept.delete(unitId);
    wallet.settled.delete(unitId);
    wallet.sales.splice(wallet.sales.indexOf(unitId), 1);
    for (const records of wallet.requests.values()) records.delete(`${sale.game}:${sale.stake}|${sale.requestId}`);
    // Its stake and prize lines, among the oldest: the scan starts at its stake line.
    const { journal } = wallet;
    for (let line = journal.findIndex((e) => e.ref === unitId); line >= 0 && line < journal.length; ) {
      if (journal[line]!.ref === unitId) journal.splice(line, 1);
      else line++;
    }
    this.findBlock(sale.blockId)!.forgotten++;
    return unitId;
  }

  /** Closed, not archived, every unit settled and still kept. */
  private archivable(block: MemoryBlock): boolean {
    if (block.state !== 'closed' || block.archive || block.forgotten > 0) return false;
    for (let p = 0; p < block.sold; p++) if (this.sales.get(unitIdOf(block.blockId, p))!.settledAt === undefined) return false;
    return true;
  }

  private async archivedSale(unitId: string): Promise<Sale | undefined> {
    const ref = parseUnitId(unitId);
    const archive = ref && this.findBlock(ref.blockId)?.archive;
    return archive ? (await readArchivedUnit(archive, unitId, ref.position))?.sale : undefined;
  }

  private findBlock(blockId: string): MemoryBlock | undefined {
    const ref = parseBlockId(blockId);
    return ref && this.emissions.get(ref.emissionId)?.blocks[ref.index];
  }

  /** The unit a request was served within this window or the one before, if any. */
  private served(wallet: MemoryWallet, request: string, window: number): string | undefined {
    return wallet.requests.get(window)?.get(request) ?? wallet.requests.get(window - 1)?.get(request);
  }

  /** Records a served request in its window and drops the windows no lookup reads any more. */
  private remember(wallet: MemoryWallet, request: string, unitId: string, window: number): void {
    let records = wallet.requests.get(window);
    if (!records) {
      records = new Map();
      wallet.requests.set(window, records);
      for (const old of wallet.requests.keys()) if (old < window - 1) wallet.requests.delete(old);
    }
    records.set(request, unitId);
  }

  private walletOf(playerId: PlayerId): MemoryWallet {
    let wallet = this.wallets.get(playerId);
    if (!wallet) {
      wallet = { balance: 0, journal: [], posted: 0, requests: new Map(), deposits: new Set(), sales: [], unsettled: new Set(), settled: new Set() };
      this.wallets.set(playerId, wallet);
    }
    return wallet;
  }

  private post(wallet: MemoryWallet, kind: JournalKind, amount: Cents, ref: string, at: number): void {
    wallet.balance += amount;
    wallet.journal.push({ seq: ++wallet.posted, kind, amount, balance: wallet.balance, ref, at });
  }

  private emissionInfo(emission: MemoryEmission): EmissionInfo {
    const { table } = emission;
    return {
      emissionId: emission.emissionId,
      game: table.game,
      stake: table.stake,
      table,
      blockCount: emission.blockCount,
      blocks: emission.blocks.map(
        (b): BlockInfo => ({
          blockId: b.blockId,
          emissionId: emission.emissionId,
          game: table.game,
          stake: table.stake,
          index: b.index,
          size: table.blockSize,
          state: b.state,
          commitment: b.printed.commitment,
          scheme: 2,
          ...(b.state === 'closed' ? { seed: Buffer.from(b.printed.seed).toString('hex') } : {}),
          sold: b.sold,
          soldPerTier: [...b.soldPerTier],
          ...(b.archive ? { archive: b.archive } : {}),
        }),
      ),
    };
  }
}
