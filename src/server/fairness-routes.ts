import type { Application } from 'express';
import { publicBlockDetail, publicBlocks, type PublishedBlocks } from '../fairness/public-blocks';
import type { PublicBlock } from '../protocol/fairness';
import { parseBlockId } from '../ids';
import { asyncRoute, sendRefusal } from './edge';

/** The list reads every block's pages: answered from one read a second at most (no token here). */
const LIST_CACHE_MS = 1_000;

/**
 * Public fairness routes, no token (docs/fairness.md): what fixes the outcomes, published
 * before any sale, and the seeds of closed blocks whose every unit is settled. Read-only; a
 * block id that does not parse is answered like an unknown one.
 */
export function mountFairnessRoutes(app: Application, dealer: PublishedBlocks): void {

  let cached: { at: number; blocks: Promise<PublicBlock[]> } | undefined;
  app.get('/fairness/blocks', asyncRoute(async (_req, res) => {
    if (!cached || Date.now() - cached.at >= LIST_CACHE_MS) {
      const blocks = publicBlocks(dealer);
      cached = { at: Date.now(), blocks };
      blocks.catch(() => (cached = undefined));
    }
    res.json({ blocks: await cached.blocks });
  }));

  app.get('/fairness/blocks/:blockId', asyncRoute(async (req, res) => {
    const blockId = String(req.params['blockId']);
    const detail = parseBlockId(blockId) ? await publicBlockDetail(dealer, blockId) : undefined;
    if (!detail) return sendRefusal(res, 404, 'fairness/unknown_block', `no printed block ${blockId}`);
    res.json(detail);
  }));
}
