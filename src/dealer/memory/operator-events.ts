import { eventIdAfter, eventsPage } from '../identifiers';
import type { OperatorEvents, OperatorEventsPage } from '../types';
import type { MemoryBooks } from './books';

/** The operator's events in memory: a list in order, ids `0-<n>` (n from 1), ordered as a stream's. */
export class MemoryOperatorEvents implements OperatorEvents {
  constructor(private readonly books: MemoryBooks) {}

  async events(after: string | undefined, limit: number): Promise<OperatorEventsPage> {
    const page = eventsPage(after, limit);
    const all = this.books.events;
    const from = page.after === undefined ? 0 : all.findIndex((e) => eventIdAfter(e.id, page.after!));
    const events = from < 0 ? [] : all.slice(from, from + page.limit);
    return { events, next: events.at(-1)?.id ?? page.after ?? '0' };
  }
}
