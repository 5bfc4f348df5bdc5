import { readOffloadedTiers } from '../../offload/unit-files';
import { pageOf, proveUnit, type UnitProof } from '../../fairness/merkle';
import type { FairnessPages, PageCommitment } from '../types';
import type { MemoryBooks } from './books';

/** Fairness in memory: every block is printed under scheme 3, its pages published as it sells. */
export class MemoryPages implements FairnessPages {
  constructor(private readonly books: MemoryBooks) {}

  async blockSeed(blockId: string): Promise<Uint8Array> {
    const block = this.books.findBlock(blockId);
    if (!block) throw new RangeError(`unknown block ${blockId}`);
    return block.printed.seed.slice();
  }

  async recordedTiers(blockId: string): Promise<Uint8Array | undefined> {
    const block = this.books.findBlock(blockId);
    if (block?.offloadedTo) return readOffloadedTiers(block.offloadedTo, blockId, block.printed.units.length);
    return block?.recorded!.slice();
  }

  async pageCommitments(blockId: string): Promise<PageCommitment[] | undefined> {
    return this.books.findBlock(blockId)?.pages.slice();
  }

  async unitProof(unitId: string): Promise<UnitProof | undefined> {
    const sale = this.books.sales.get(unitId) ?? (await this.books.offloadedSale(unitId));
    const block = sale && this.books.findBlock(sale.blockId);
    if (!sale || !block) return undefined;
    return proveUnit(this.books.pageTreeOf(block, pageOf(block.printed.units.length, sale.position)), sale.position);
  }
}
