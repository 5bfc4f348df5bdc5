import { eventsPage } from '../identifiers';
import { decodeThresholdEvent } from '../records';
import type { OperatorEvents, OperatorEventsPage } from '../types';
import type { RedisContext } from './context';

/** The operator's events on Redis: one stream (`DealerKeys.events`), read with XRANGE from an id on. */
export class RedisOperatorEvents implements OperatorEvents {
  constructor(private readonly ctx: RedisContext) {}

  async events(after: string | undefined, limit: number): Promise<OperatorEventsPage> {
    const page = eventsPage(after, limit);
    const next = page.after ?? '0';
    if (page.limit === 0) return { events: [], next };
    const entries = await this.ctx.redis.xrange(this.ctx.keys.events, page.after === undefined ? '-' : `(${page.after}`, '+', 'COUNT', page.limit);
    const events = entries.map(([id, fields]) => decodeThresholdEvent(id, fields[fields.indexOf('e') + 1]!));
    return { events, next: events.at(-1)?.id ?? next };
  }
}
