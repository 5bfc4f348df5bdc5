import { writeOffloadedBlock, type OffloadedUnit } from './unit-files';
import { unitIdOf } from '../ids';
import type { DealerStore, Offloading } from '../dealer/types';
import type { ActionLog } from '../action-log/action-log';

/**
 * The offloader: moves the per-unit records of old blocks (sales, settlements, action logs) out
 * of the stores into write-once files (src/offload/unit-files.ts), so that memory holds per unit
 * only what is still in play. A block is offloaded once it is closed, every unit of it is
 * settled, and `retentionMs` have passed since it closed. Safe to run on several processes at
 * once: both write the same files, and marking a block offloaded happens once.
 */

export interface OffloadOptions {
  /** The offload directory: the operator keeps it (docs/dealer.md, "Offloading settled blocks"). */
  readonly dir: string;
  /** How long a closed block's units stay in the store before they are offloaded. */
  readonly retentionMs: number;
  readonly now: number;
}

export interface OffloadedBlock {
  readonly blockId: string;
  readonly path: string;
  readonly units: number;
}

/** Sales and action logs read per round trip while writing a block's files. */
const PAGE = 1_000;

async function* unitsOf(dealer: Offloading, log: ActionLog, blockId: string): AsyncGenerator<OffloadedUnit> {
  for (let from = 0; ; from += PAGE) {
    const sales = await dealer.blockSales(blockId, from, PAGE);
    if (sales.length === 0) return;
    const logs = await Promise.all(sales.map((sale) => log.read(sale.unitId)));
    for (const [i, sale] of sales.entries()) yield { sale, actions: logs[i]! };
  }
}

export async function offloadClosedBlocks(dealer: Pick<DealerStore, 'offloading' | 'emissions'>, log: ActionLog, options: OffloadOptions): Promise<OffloadedBlock[]> {
  const blockIds = await dealer.offloading.offloadableBlocks(options.now - options.retentionMs);
  if (blockIds.length === 0) return [];
  const sizes = new Map((await dealer.emissions.listEmissions()).flatMap((e) => e.blocks.map((b) => [b.blockId, b.size] as const)));
  const offloaded: OffloadedBlock[] = [];
  for (const blockId of blockIds) {
    const size = sizes.get(blockId)!;
    const path = await writeOffloadedBlock(options.dir, blockId, size, unitsOf(dealer.offloading, log, blockId));
    // The store's records go first: a reader finds either them or the files, never neither.
    await dealer.offloading.markOffloaded(blockId, path, options.now);
    await log.offload(blockId, path, Array.from({ length: size }, (_, p) => unitIdOf(blockId, p)));
    offloaded.push({ blockId, path, units: size });
  }
  return offloaded;
}
