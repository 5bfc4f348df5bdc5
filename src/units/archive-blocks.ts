import { writeBlockArchive, type ArchivedUnit } from '../dealer/archive';
import { unitIdOf } from '../dealer/identifiers';
import type { Archiving, Emissions } from '../dealer/types';
import type { ActionLog } from './action-log';

/**
 * The archiver: moves the per-unit records of old blocks (sales, settlements, action logs) out
 * of the stores into write-once files (src/dealer/archive.ts), so that memory holds per unit
 * only what is still in play. A block is archived once it is closed, every unit of it is
 * settled, and `retentionMs` have passed since it closed. Safe to run on several processes at
 * once: both write the same files, and marking a block archived happens once.
 */

export interface ArchiveOptions {
  /** The archive directory: the operator keeps it (docs/dealer.md, "Archive"). */
  readonly dir: string;
  /** How long a closed block's units stay in the store before they are archived. */
  readonly retentionMs: number;
  readonly now: number;
}

export interface ArchivedBlock {
  readonly blockId: string;
  readonly path: string;
  readonly units: number;
}

/** Sales and action logs read per round trip while writing an archive. */
const PAGE = 1_000;

async function* unitsOf(dealer: Archiving, log: ActionLog, blockId: string): AsyncGenerator<ArchivedUnit> {
  for (let from = 0; ; from += PAGE) {
    const sales = await dealer.blockSales(blockId, from, PAGE);
    if (sales.length === 0) return;
    const logs = await Promise.all(sales.map((sale) => log.read(sale.unitId)));
    for (const [i, sale] of sales.entries()) yield { sale, actions: logs[i]! };
  }
}

export async function archiveClosedBlocks(dealer: Archiving & Pick<Emissions, 'listEmissions'>, log: ActionLog, options: ArchiveOptions): Promise<ArchivedBlock[]> {
  const blockIds = await dealer.archivableBlocks(options.now - options.retentionMs);
  if (blockIds.length === 0) return [];
  const sizes = new Map((await dealer.listEmissions()).flatMap((e) => e.blocks.map((b) => [b.blockId, b.size] as const)));
  const archived: ArchivedBlock[] = [];
  for (const blockId of blockIds) {
    const size = sizes.get(blockId)!;
    const path = await writeBlockArchive(options.dir, blockId, size, unitsOf(dealer, log, blockId));
    // The store's records go first: a reader finds either them or the archive, never neither.
    await dealer.markArchived(blockId, path, options.now);
    await log.archive(blockId, path, Array.from({ length: size }, (_, p) => unitIdOf(blockId, p)));
    archived.push({ blockId, path, units: size });
  }
  return archived;
}
