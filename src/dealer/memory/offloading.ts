import { assertTime } from '../identifiers';
import { unitIdOf } from '../../ids';
import type { Offloading, Sale } from '../types';
import type { MemoryBlock, MemoryBooks } from './books';

export class MemoryOffloading implements Offloading {
  constructor(private readonly books: MemoryBooks) {}

  async offloadableBlocks(closedBefore: number): Promise<string[]> {
    return [...this.books.emissions.values()]
      .flatMap((e) => e.blocks)
      .filter((b) => this.offloadable(b) && b.closedAt! <= closedBefore)
      .map((b) => b.blockId)
      .sort();
  }

  async blockSales(blockId: string, from: number, limit: number): Promise<Sale[]> {
    const block = this.books.findBlock(blockId);
    const sales: Sale[] = [];
    if (!block || block.offloadedTo) return sales;
    for (let p = Math.max(0, from); p < Math.min(from + limit, block.sold); p++) sales.push(this.books.sales.get(unitIdOf(blockId, p))!);
    return sales;
  }

  async markOffloaded(blockId: string, path: string, now: number): Promise<boolean> {
    assertTime(now);
    const block = this.books.findBlock(blockId);
    if (block?.offloadedTo) return false;
    if (!block || !this.offloadable(block)) throw new Error(`block ${blockId} is unknown, not closed, or has units not settled`);
    for (let p = 0; p < block.sold; p++) this.books.sales.delete(unitIdOf(blockId, p));
    block.recorded = undefined;
    block.offloadedTo = path;
    return true;
  }

  /** Closed, not offloaded, every unit settled and still kept. */
  private offloadable(block: MemoryBlock): boolean {
    return block.state === 'closed' && !block.offloadedTo && block.forgotten === 0 && block.settled === block.sold;
  }
}
