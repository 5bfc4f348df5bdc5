import type { BlockPlace, PublicBlock, PublicBlockDetail } from '../protocol/fairness';
import { blockRoot, MERKLE_SCHEME, MERKLE_SCHEME_V2, pageCount, pagePositions } from './merkle';

/** What the report reads of a printed block (the dealer's `BlockInfo` is one). */
export interface CommittedBlock extends BlockPlace {
  readonly commitment: string;
  readonly scheme: 1 | 2 | 3;
  readonly seed?: string;
  readonly settled: number;
}

/** A page root as the dealer records it. */
export interface PublishedPage {
  readonly page: number;
  readonly root: string;
  readonly publishedAt: number;
}

/** What the public fairness pages read of the dealer (its `emissions` and `pages` roles). */
export interface PublishedBlocks {
  readonly emissions: {
    listEmissions(): Promise<readonly { readonly blocks: readonly CommittedBlock[] }[]>;
    block(blockId: string): Promise<CommittedBlock | undefined>;
  };
  readonly pages: { pageCommitments(blockId: string): Promise<readonly PublishedPage[] | undefined> };
}

/**
 * The public view of the commitments (no token; docs/fairness.md): every printed block with its
 * commitment, and its seed once it is closed and every unit of it has ended; one block with its
 * published page roots. Nothing about sales (counts per tier stay behind PRIZES_LEFT and
 * /admin): only what fixes the outcomes.
 */

/**
 * A block's seed reprints every unit of it: it goes public only once no unit of the block is
 * still to be revealed, not when its last unit is sold (the units sold before it may still be
 * in play, and spectators know their ids). The operator's reports show it by the same rule.
 */
export function seedIsPublic(block: CommittedBlock): boolean {
  return block.state === 'closed' && block.settled === block.size;
}

function publicBlock(block: CommittedBlock, pagesPublished: number | undefined): PublicBlock {
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
    seed: seedIsPublic(block) ? (block.seed ?? null) : null,
    pageCount: block.scheme >= 2 ? pageCount(block.size) : null,
    pagesPublished: block.scheme >= 2 ? (pagesPublished ?? 0) : null,
  };
}

export async function publicBlocks(store: PublishedBlocks): Promise<PublicBlock[]> {
  const blocks = (await store.emissions.listEmissions()).flatMap((e) => e.blocks);
  const pages = await Promise.all(blocks.map((b) => (b.scheme >= 2 ? store.pages.pageCommitments(b.blockId) : undefined)));
  return blocks.map((b, i) => publicBlock(b, pages[i]?.length));
}

/** Undefined for a block not printed. */
export async function publicBlockDetail(store: PublishedBlocks, blockId: string): Promise<PublicBlockDetail | undefined> {
  const [block, pages] = await Promise.all([store.emissions.block(blockId), store.pages.pageCommitments(blockId)]);
  if (!block) return undefined;
  const published = block.scheme >= 2 ? (pages ?? []) : [];
  const per = pagePositions(block.size);
  const complete = block.scheme >= 2 && published.length === pageCount(block.size);
  return {
    ...publicBlock(block, published.length),
    merkleScheme: block.scheme === 3 ? MERKLE_SCHEME : block.scheme === 2 ? MERKLE_SCHEME_V2 : null,
    positionsPerPage: block.scheme >= 2 ? per : null,
    pages: published.map((p) => ({ page: p.page, firstPosition: p.page * per, root: p.root, publishedAt: new Date(p.publishedAt).toISOString() })),
    root: complete ? Buffer.from(blockRoot(block.size, published.map((p) => Buffer.from(p.root, 'hex')))).toString('hex') : null,
  };
}
