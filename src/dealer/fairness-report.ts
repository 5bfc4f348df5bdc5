import type { GameId } from '../games/types';
import type { Cents } from '../money';
import { blockRoot, MERKLE_SCHEME, pageCount, pagePositions } from './merkle';
import type { BlockInfo, BlockState, Emissions, FairnessPages } from './types';

/** What the public fairness pages read of the dealer. */
export type PublishedBlocks = Pick<Emissions, 'listEmissions' | 'block'> & Pick<FairnessPages, 'pageCommitments'>;

/**
 * The public view of the commitments (no token; docs/fairness.md): every printed block with its
 * commitment, and its seed once closed; one block with its published page roots. Nothing about
 * sales (counts per tier stay behind PRIZES_LEFT and /admin): only what fixes the outcomes.
 */

export interface PublicBlock {
  readonly blockId: string;
  readonly emissionId: string;
  readonly game: GameId;
  readonly stake: Cents;
  readonly index: number;
  readonly size: number;
  readonly state: BlockState;
  /** 1: commitment only; 2: Merkle pages too (`merkle-sha256/v2`). */
  readonly scheme: 1 | 2;
  /** Hex SHA-256(seed ‖ printed block), published when the block was printed. */
  readonly commitment: string;
  /** Hex, once the block is closed; null before. */
  readonly seed: string | null;
  /** Scheme 2: pages in the block, and how many have their root published. */
  readonly pageCount: number | null;
  readonly pagesPublished: number | null;
}

export interface PublicPage {
  readonly page: number;
  readonly firstPosition: number;
  readonly root: string;
  readonly publishedAt: string;
}

export interface PublicBlockDetail extends PublicBlock {
  readonly merkleScheme: typeof MERKLE_SCHEME | null;
  readonly positionsPerPage: number | null;
  readonly pages: readonly PublicPage[];
  /** The Merkle root over all page roots, once every page is published; null before. */
  readonly root: string | null;
}

function publicBlock(block: BlockInfo, pagesPublished: number | undefined): PublicBlock {
  return {
    blockId: block.blockId,
    emissionId: block.emissionId,
    game: block.game,
    stake: block.stake,
    index: block.index,
    size: block.size,
    state: block.state,
    scheme: block.scheme,
    commitment: block.commitment,
    seed: block.state === 'closed' ? (block.seed ?? null) : null,
    pageCount: block.scheme === 2 ? pageCount(block.size) : null,
    pagesPublished: block.scheme === 2 ? (pagesPublished ?? 0) : null,
  };
}

export async function publicBlocks(store: PublishedBlocks): Promise<PublicBlock[]> {
  const blocks = (await store.listEmissions()).flatMap((e) => e.blocks);
  const pages = await Promise.all(blocks.map((b) => (b.scheme === 2 ? store.pageCommitments(b.blockId) : undefined)));
  return blocks.map((b, i) => publicBlock(b, pages[i]?.length));
}

/** Undefined for a block not printed. */
export async function publicBlockDetail(store: PublishedBlocks, blockId: string): Promise<PublicBlockDetail | undefined> {
  const [block, pages] = await Promise.all([store.block(blockId), store.pageCommitments(blockId)]);
  if (!block) return undefined;
  const published = block.scheme === 2 ? (pages ?? []) : [];
  const per = pagePositions(block.size);
  const complete = block.scheme === 2 && published.length === pageCount(block.size);
  return {
    ...publicBlock(block, published.length),
    merkleScheme: block.scheme === 2 ? MERKLE_SCHEME : null,
    positionsPerPage: block.scheme === 2 ? per : null,
    pages: published.map((p) => ({ page: p.page, firstPosition: p.page * per, root: p.root, publishedAt: new Date(p.publishedAt).toISOString() })),
    root: complete ? Buffer.from(blockRoot(block.size, published.map((p) => Buffer.from(p.root, 'hex')))).toString('hex') : null,
  };
}
