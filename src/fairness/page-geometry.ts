/**
 * Where a position sits in its block's Merkle tree (docs/fairness.md, "The tree and its pages"):
 * pure arithmetic, shared by the builder (merkle.ts) and the verifier the page bundles.
 */

/** Height of a page's tree: 4,096 positions a page (fewer for a smaller block). */
const PAGE_HEIGHT = 12;

/** The whole tree's depth: leaves are padded to 2^depth (a 1-unit block is its own root). */
export function treeDepth(size: number): number {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`block size ${size}`);
  return size === 1 ? 0 : Math.ceil(Math.log2(size));
}

/** Height of the pages of a block of `size`: 12, or the whole tree's depth when smaller. */
export function pageHeight(size: number): number {
  return Math.min(PAGE_HEIGHT, treeDepth(size));
}

/** Positions per page of a block of `size`. */
export function pagePositions(size: number): number {
  return 2 ** pageHeight(size);
}

export function pageCount(size: number): number {
  return Math.ceil(size / pagePositions(size));
}

/** The page holding `position`. */
export function pageOf(size: number, position: number): number {
  return Math.floor(position / pagePositions(size));
}

/** A page's positions: [from, from + count). */
export function pageRange(size: number, page: number): { from: number; count: number } {
  const per = pagePositions(size);
  return { from: page * per, count: Math.min(per, size - page * per) };
}
