import { blockIdOf } from '../../ids';
import { printNewBlock } from '../../fairness/printing';
import { storeBlock } from '../scripts/store-block';
import type { EmissionCatalog, EmissionMeta } from './catalog';
import type { RedisContext } from './context';
import { laneOfBlock } from './keys';
import type { RedisPages } from './pages';

/**
 * Prints blocks ahead, in Node, and stores them with storeBlock-2.lua: a block as soon as the
 * one before it on its lane opens, or on the spot when a purchase finds it missing (its
 * printer died), so that printing never refuses a purchase. A block is printed once per process.
 */
export class BlockPrinter {
  /** blockId → its printing in progress in this process, so it happens once here. */
  private readonly printing = new Map<string, Promise<void>>();

  constructor(
    private readonly ctx: RedisContext,
    private readonly catalog: EmissionCatalog,
    private readonly pages: RedisPages,
  ) {}

  /** Prints the block after a newly opened one in the background (if the emission has it). */
  printAhead(meta: EmissionMeta, index: number, now: number): void {
    // A failure here is harmless: the purchase that needs the block prints it (ensurePrinted).
    this.ensurePrinted(meta, index, now).catch(() => undefined);
  }

  ensurePrinted(meta: EmissionMeta, index: number, now: number): Promise<void> {
    const { emissionId } = meta;
    const blockId = blockIdOf(emissionId, index);
    let printing = this.printing.get(blockId);
    if (!printing) {
      printing = (async () => {
        if (index >= meta.blockCount) return;
        const keys = this.catalog.blockKeysOf(meta, blockId);
        if (await this.ctx.redis.exists(keys.info)) return; // another dealer printed it
        const block = this.pages.withFirstPage(blockId, printNewBlock(meta.table, blockId));
        const lane = laneOfBlock(index, meta.lanes);
        const stored = await storeBlock(
          this.ctx.run,
          { emission: this.ctx.keys.emissionKey(meta.game, meta.stake, emissionId, lane), base: this.ctx.keys.lane(meta.game, meta.stake, lane).base },
          { emissionId, index, block, now },
        );
        if (stored) await this.pages.keepFirstPage(meta, block, now);
      })().finally(() => this.printing.delete(blockId));
      this.printing.set(blockId, printing);
    }
    return printing;
  }

  /** Waits for the blocks being printed. */
  async printed(): Promise<void> {
    await Promise.allSettled(this.printing.values());
  }
}
