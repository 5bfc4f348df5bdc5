import { strict as assert } from 'node:assert';
import { decodeLeaf } from '../../../src/fairness/page-log';
import type { DealerStore } from '../../../src/dealer/types';

/**
 * The log of page roots holds every page the blocks published, each once, as published (root and
 * time, the block's game and price), a block's pages in page order, and nothing else; its index
 * agrees with it. Returns the leaves read.
 */
export async function assertPagesLogged(
  store: Pick<DealerStore, 'pages' | 'log'>,
  blocks: readonly { readonly blockId: string; readonly game: string; readonly stake: number; readonly scheme: number }[],
): Promise<string[]> {
  const size = await store.log.logSize();
  const leaves = await store.log.logLeaves(0, size + 5);
  assert.equal(leaves.length, size, 'the log reads as long as it says');
  const seen = new Set<string>();
  for (const [index, text] of leaves.entries()) {
    const leaf = decodeLeaf(text);
    assert.ok(leaf, `leaf ${index} is a page leaf: ${text}`);
    const id = `${leaf.blockId}:${leaf.page}`;
    assert.ok(!seen.has(id), `${id} is in the log twice`);
    seen.add(id);
    assert.equal(await store.log.logIndexOf(leaf.blockId, leaf.page), index, `${id} is indexed where it is`);
  }
  let published = 0;
  for (const block of blocks) {
    const pages = (await store.pages.pageCommitments(block.blockId)) ?? [];
    published += pages.length;
    let previous = -1;
    for (const page of pages) {
      const index = await store.log.logIndexOf(block.blockId, page.page);
      assert.ok(index !== undefined, `page ${page.page} of ${block.blockId} is in the log`);
      assert.ok(index > previous, `page ${page.page} of ${block.blockId} comes after the page before it`);
      previous = index;
      assert.deepEqual(decodeLeaf(leaves[index]!), { scheme: block.scheme, game: block.game, stake: block.stake, blockId: block.blockId, page: page.page, root: page.root, publishedAt: page.publishedAt });
    }
  }
  assert.equal(published, size, 'the log holds the pages published and nothing else');
  return leaves;
}
