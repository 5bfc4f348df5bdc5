import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Cents } from '../../money';
import { readOffloadedTiers } from '../../offload/unit-files';
import { blockIdOf } from '../../ids';
import { pageCount, pageOf, pageRange, PageTreeCache, pageTree, pageTreeOfPrint, proveUnit, rootOfPage, type LeafScheme, type PageTree, type UnitProof } from '../../fairness/merkle';
import { printBlock, UNSOLD, type PrintedBlock } from '../../fairness/printing';
import { decodePage, decodeSale } from '../records';
import type { PrintedForRedis } from '../scripts/open-emission';
import { publishPage } from '../scripts/publish-page';
import { releaseClaim } from '../scripts/release-claim';
import type { PurchaseUnitResult } from '../scripts/purchase-units';
import type { FairnessPages, PageCommitment } from '../types';
import type { EmissionCatalog, EmissionMeta } from './catalog';
import type { RedisContext } from './context';
import { laneName } from './keys';
import type { RedisPageLog } from './page-log';
import type { SaleReader } from './sale-reader';

const SCAN_BATCH = 10_000;
/** How often a dealer waiting for the root of a page another dealer is hashing looks for it. */
const CLAIM_POLL_MS = 5;

/** A new print as stored: its block, and its page 0's tree and root. */
export interface FirstPagePrint extends PrintedForRedis {
  readonly blockId: string;
  readonly tree: PageTree;
}

/** Where this process last saw a unit of a lane sold. */
interface LastSold {
  readonly emissionId: string;
  readonly index: number;
  readonly position: number;
}

/**
 * Fairness on Redis: block seeds, recorded tiers, and the Merkle pages (schemes 2 and 3), each page's
 * root published before its first sale (one page ahead of this process's last sale) and kept
 * here once known, with the trees hashed last, which publishing and proving share.
 */
export class RedisPages implements FairnessPages {
  /** `<game>:<stake>:<lane>` → where this process last saw a unit sold: the pages to publish ahead start there. */
  private readonly lastSold = new Map<string, LastSold>();
  /** `<blockId>:<page>` → the pages hashed last: publishing one and proving in it share the hashing. */
  private readonly pageTrees = new PageTreeCache();
  /** `<blockId>:<page>` → its published root (pages never change once published). */
  private readonly pages = new Map<string, Promise<PageCommitment | undefined>>();

  constructor(
    private readonly ctx: RedisContext,
    private readonly catalog: EmissionCatalog,
    private readonly sales: SaleReader,
    private readonly log: RedisPageLog,
    /** How long a claim to hash a page lasts (`RedisStoreOptions.pageClaimMs`). */
    private readonly claimMs: number,
  ) {}

  async blockSeed(blockId: string): Promise<Uint8Array> {
    return (await this.printedOf(blockId)).seed;
  }

  /** A block's seed and its leaves' scheme (a block stored before scheme 3 has no `scheme` field: 2). */
  private async printedOf(blockId: string): Promise<{ seed: Uint8Array; scheme: LeafScheme }> {
    const meta = await this.catalog.metaOfBlock(blockId);
    const [seed, scheme] = meta ? await this.ctx.redis.hmget(this.catalog.blockKeysOf(meta, blockId).info, 'seed', 'scheme') : [];
    if (!meta || !seed) throw new RangeError(`unknown block ${blockId}`);
    return { seed: new Uint8Array(Buffer.from(seed, 'hex')), scheme: scheme === '3' ? { version: 3, game: meta.game, stake: meta.stake, blockId } : { version: 2 } };
  }

  async recordedTiers(blockId: string): Promise<Uint8Array | undefined> {
    const meta = await this.catalog.metaOfBlock(blockId);
    if (!meta) return undefined;
    const keys = this.catalog.blockKeysOf(meta, blockId);
    const [state, offloadedTo] = await this.ctx.redis.hmget(keys.info, 'state', 'archive');
    if (!state) return undefined;
    if (offloadedTo) return readOffloadedTiers(offloadedTo, blockId, meta.table.blockSize);
    const tiers = new Uint8Array(meta.table.blockSize).fill(UNSOLD);
    let cursor = '0';
    do {
      const [next, entries] = await this.ctx.redis.hscan(keys.sales, cursor, 'COUNT', SCAN_BATCH);
      for (let i = 0; i < entries.length; i += 2) tiers[Number(entries[i])] = decodeSale(entries[i + 1]!).tierId;
      cursor = next;
    } while (cursor !== '0');
    return tiers;
  }

  async pageCommitments(blockId: string): Promise<PageCommitment[] | undefined> {
    const meta = await this.catalog.metaOfBlock(blockId);
    if (!meta) return undefined;
    const keys = this.catalog.blockKeysOf(meta, blockId);
    const [exists, records] = await Promise.all([this.ctx.redis.exists(keys.info), this.ctx.redis.hgetall(keys.pages)]);
    if (!exists) return undefined;
    return Object.entries(records)
      .map(([page, record]) => decodePage(Number(page), record))
      .sort((a, b) => a.page - b.page);
  }

  async unitProof(unitId: string): Promise<UnitProof | undefined> {
    const found = await this.sales.find(unitId, false);
    if (!found) return undefined;
    const { meta, ref } = found;
    const keys = this.catalog.blockKeysOf(meta, ref.blockId);
    if (!(await this.ctx.redis.hexists(keys.pages, '0'))) return undefined; // printed under scheme 1
    return proveUnit(await this.pageTreeOf(meta, ref.blockId, pageOf(meta.table.blockSize, ref.position)), ref.position);
  }

  /** A new print with the tree of its page 0, whose root is stored with the block. */
  withFirstPage(blockId: string, block: PrintedBlock): FirstPagePrint {
    const tree = pageTreeOfPrint(block, 0);
    return { ...block, blockId, tree, firstPageRoot: Buffer.from(rootOfPage(tree)).toString('hex') };
  }

  /**
   * Keeps the page 0 of a print once stored, and appends it to the log of page roots (a print
   * that lost to another dealer's is dropped, its tree with it).
   */
  async keepFirstPage(meta: EmissionMeta, print: FirstPagePrint, now: number): Promise<void> {
    this.pageTrees.set(`${print.blockId}:0`, print.tree);
    await this.remember(`${print.blockId}:0`, this.log.append(meta, print.blockId, print.scheme.version, { page: 0, root: print.firstPageRoot, publishedAt: now }));
  }

  /**
   * Before a batch: the page of the next position this process knows of, and the page after,
   * are published (a page's root before its first sale). The purchase script picks the
   * position, so the next one is known from this process's last sale, or read once.
   */
  async publishAhead(game: string, stake: Cents, lane: number, now: number): Promise<void> {
    let last = this.lastSold.get(laneName(game, stake, lane));
    if (!last) {
      const emissionId = await this.ctx.redis.get(this.ctx.keys.lane(game, stake, lane).current);
      const meta = emissionId ? await this.catalog.metaOn(game, stake, emissionId) : undefined;
      if (!meta) return;
      const [index, cursor] = await this.ctx.redis.hmget(this.ctx.keys.emissionKey(game, stake, meta.emissionId, lane), 'index', 'cursor');
      last = { emissionId: meta.emissionId, index: Number(index), position: Number(cursor) - 1 };
    }
    const meta = await this.catalog.metaOn(game, stake, last.emissionId);
    if (!meta) return;
    const size = meta.table.blockSize;
    const next = last.position + 1;
    // Past the open block's end, the lane's next block.
    const blockId = blockIdOf(last.emissionId, next < size ? last.index : last.index + meta.lanes);
    const page = next < size ? pageOf(size, next) : 0;
    await this.ensurePage(meta, blockId, Math.min(page + 1, pageCount(size) - 1), now); // and every page before it
  }

  /** Remembers the last unit sold, and publishes (late: it shows) any page a sale found unpublished. */
  noteSold(meta: EmissionMeta, lane: number, results: readonly PurchaseUnitResult[], now: number): void {
    let last: LastSold | undefined;
    for (const result of results) {
      if (result.kind === 'sold') last = { emissionId: meta.emissionId, index: result.index, position: result.position };
    }
    if (!last) return;
    this.lastSold.set(laneName(meta.game, meta.stake, lane), last);
    this.ensurePage(meta, blockIdOf(meta.emissionId, last.index), pageOf(meta.table.blockSize, last.position), now).catch(() => undefined);
  }

  /** Waits for the pages being published. */
  async published(): Promise<void> {
    await Promise.allSettled(this.pages.values());
  }

  /** A page's tree, hashed from its printed units (one GETRANGE) and the seed, or kept from before. */
  private async pageTreeOf(meta: EmissionMeta, blockId: string, page: number): Promise<PageTree> {
    const key = `${blockId}:${page}`;
    const kept = this.pageTrees.get(key);
    if (kept) return kept;
    const size = meta.table.blockSize;
    const { from, count } = pageRange(size, page);
    const units = this.catalog.blockKeysOf(meta, blockId).units;
    const [{ seed, scheme }, read] = await Promise.all([this.printedOf(blockId), this.ctx.redis.getrangeBuffer(units, from, from + count - 1)]);
    // An offloaded block's units are gone from Redis; it is closed, so its seed re-prints them.
    const pageUnits = read.length === count ? new Uint8Array(read) : printBlock(meta.table, seed).subarray(from, from + count);
    return this.pageTrees.set(key, pageTree(seed, size, page, pageUnits, scheme));
  }

  /**
   * A page's published root, publishing it first if needed, and in the log of page roots. Only
   * for blocks of schemes 2 and 3 (page 0 stored with the block); undefined for others, not
   * remembered (the block may not be printed yet). A page past 0 goes into the log before its
   * record, so no page is ever published outside the log; page 0, stored with its block, is
   * appended after (keepFirstPage), or here by the first dealer to deal from it if that one died
   * between. A page is appended only once the page before it is in the log: a block's pages
   * are in the log in page order, whichever dealers publish them.
   */
  private ensurePage(meta: EmissionMeta, blockId: string, page: number, now: number): Promise<PageCommitment | undefined> {
    const size = meta.table.blockSize;
    if (page >= pageCount(size)) return Promise.resolve(undefined);
    const key = `${blockId}:${page}`;
    return this.pages.get(key) ?? this.remember(key, this.publish(meta, blockId, page, now));
  }

  /**
   * `ensurePage`'s work. Hashing a page costs about 10 ms of CPU: one dealer claims it for
   * `claimMs` and hashes it, the others wait for its root (every dealer selling from the lane
   * asks for the same pages at about the same time). A claim outlived (its dealer died or
   * stalled) lets the next dealer hash the page, and so does a claim this dealer has waited on
   * for `claimMs` (a claim key left without its expiry must not hold the lane for ever); two
   * roots of one page cannot both be stored (publishPage-1.lua keeps the first, the log
   * refuses another), so hashing twice costs time, never the commitment. A claim holds its
   * dealer's token: a dealer whose hashing fails drops its claim only while it is still its own.
   */
  private async publish(meta: EmissionMeta, blockId: string, page: number, now: number): Promise<PageCommitment | undefined> {
    const keys = this.catalog.blockKeysOf(meta, blockId);
    let waitingSince: number | undefined;
    for (;;) {
      const [first, stored] = await this.ctx.redis.hmget(keys.pages, '0', String(page));
      if (stored) {
        const commitment = decodePage(page, stored);
        if ((await this.log.logIndexOf(blockId, page)) !== undefined) return commitment;
        if (page > 0) await this.ensurePage(meta, blockId, page - 1, now);
        return this.log.append(meta, blockId, (await this.printedOf(blockId)).scheme.version, commitment);
      }
      if (!first) return undefined;
      await this.ensurePage(meta, blockId, page - 1, now);
      const claim = keys.pageClaim(page);
      const token = randomUUID();
      if ((await this.ctx.redis.set(claim, token, 'PX', this.claimMs, 'NX')) === 'OK') return this.hashAndPublish(meta, blockId, page, now, { claim, token });
      waitingSince ??= performance.now();
      if (performance.now() - waitingSince > this.claimMs) return this.hashAndPublish(meta, blockId, page, now);
      await delay(CLAIM_POLL_MS);
    }
  }

  /** Hashes the page, logs its root and publishes it; a failure drops this dealer's `claimed` claim, so that no one waits for it. */
  private async hashAndPublish(meta: EmissionMeta, blockId: string, page: number, now: number, claimed?: { claim: string; token: string }): Promise<PageCommitment> {
    try {
      const root = Buffer.from(rootOfPage(await this.pageTreeOf(meta, blockId, page))).toString('hex');
      const logged = await this.log.append(meta, blockId, (await this.printedOf(blockId)).scheme.version, { page, root, publishedAt: now });
      return await publishPage(this.ctx.run, { pages: this.catalog.blockKeysOf(meta, blockId).pages }, { page, root, now: logged.publishedAt });
    } catch (err) {
      // Not awaited: with Redis frozen it would double the time the purchase takes to fail.
      if (claimed) void releaseClaim(this.ctx.run, claimed.claim, claimed.token).catch(() => undefined);
      throw err;
    }
  }

  /** Keeps a page's publication in progress; forgotten if it fails or finds nothing to publish. */
  private remember(key: string, published: Promise<PageCommitment | undefined>): Promise<PageCommitment | undefined> {
    this.pages.set(key, published);
    published.then((p) => p ?? this.pages.delete(key), () => this.pages.delete(key));
    return published;
  }
}
