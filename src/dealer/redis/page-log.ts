import { decodeLeaf, encodeLeaf, pageLeafId } from '../../fairness/page-log';
import { appendLeaf } from '../scripts/append-leaf';
import type { PageCommitment, PageLog } from '../types';
import type { EmissionMeta } from './catalog';
import type { RedisContext } from './context';

/**
 * The log of page roots on Redis: one list for the deployment under its own hash tag, appended
 * by appendLeaf-2.lua once per page whichever dealer comes first (docs/fairness.md,
 * "Checkpoints": why this never skips nor reorders a page, on one Redis or a cluster).
 */
export class RedisPageLog implements PageLog {
  constructor(private readonly ctx: RedisContext) {}

  async logSize(): Promise<number> {
    return this.ctx.redis.llen(this.ctx.keys.pageLog.leaves);
  }

  async logLeaves(from: number, count: number): Promise<string[]> {
    if (count <= 0) return [];
    return this.ctx.redis.lrange(this.ctx.keys.pageLog.leaves, from, from + count - 1);
  }

  async logIndexOf(blockId: string, page: number): Promise<number | undefined> {
    const index = await this.ctx.redis.hget(this.ctx.keys.pageLog.index, pageLeafId(blockId, page));
    return index === null ? undefined : Number(index);
  }

  /**
   * Appends a page of a block of scheme 2 or 3, or finds it appended before: the commitment as
   * the log holds it (the first appender's time). Throws if the log holds another root for the page.
   */
  async append(meta: EmissionMeta, blockId: string, scheme: 2 | 3, page: PageCommitment): Promise<PageCommitment> {
    const leaf = encodeLeaf({ scheme, game: meta.game, stake: meta.stake, blockId, page: page.page, root: page.root, publishedAt: page.publishedAt });
    const stored = decodeLeaf((await appendLeaf(this.ctx.run, this.ctx.keys.pageLog, { leafId: pageLeafId(blockId, page.page), leaf })).leaf);
    if (stored?.root !== page.root) throw new Error(`the log holds another root for page ${page.page} of ${blockId}`);
    return { page: page.page, root: stored.root, publishedAt: stored.publishedAt };
  }
}
