import { pageLeafId } from '../../fairness/page-log';
import type { PageLog } from '../types';
import type { MemoryBooks } from './books';

/** The log of page roots in memory: `MemoryBooks.publishPage` appends in the step that publishes. */
export class MemoryPageLog implements PageLog {
  constructor(private readonly books: MemoryBooks) {}

  async logSize(): Promise<number> {
    return this.books.logLeaves.length;
  }

  async logLeaves(from: number, count: number): Promise<string[]> {
    return this.books.logLeaves.slice(from, from + count);
  }

  async logIndexOf(blockId: string, page: number): Promise<number | undefined> {
    return this.books.logIndex.get(pageLeafId(blockId, page));
  }
}
