import { moneyEntry, protectionEntry, type ArchiveOutbox, type OutboxEntry, type OutboxRecord, type OutboxStream } from '../outbox';
import type { RedisContext } from './context';

/** The field of a stream entry (`[name, value, name, value, …]`). */
function field(fields: readonly string[], name: string): string {
  const at = fields.indexOf(name);
  return at >= 0 && at % 2 === 0 ? fields[at + 1]! : '';
}

/**
 * The archive's outbox on one Redis: a stream per outbox stream (`DealerKeys.outbox`). `money`
 * entries are XADDed by the money scripts (lua/includes/archiveEntry.lua: p, j, g) and by
 * changeProtection-3.lua (p, c: the protection journal's line); `play` entries by `append`
 * (field r: the record's JSON).
 */
export class RedisOutbox implements ArchiveOutbox {
  constructor(private readonly ctx: RedisContext) {}

  async append(record: OutboxRecord): Promise<void> {
    await this.ctx.redis.xadd(this.ctx.keys.outbox('play'), '*', 'r', JSON.stringify(record));
  }

  async read(stream: OutboxStream, after: string | undefined, count: number): Promise<OutboxEntry[]> {
    const entries = await this.ctx.redis.xrange(this.ctx.keys.outbox(stream), after === undefined ? '-' : `(${after}`, '+', 'COUNT', count);
    return entries.map(([id, fields]) =>
      stream === 'play'
        ? { id, ...(JSON.parse(field(fields, 'r')) as OutboxRecord) }
        : field(fields, 'c') !== ''
          ? protectionEntry(id, field(fields, 'p'), field(fields, 'c'))
          : moneyEntry(id, field(fields, 'p'), field(fields, 'j'), field(fields, 'g')),
    );
  }

  async trim(stream: OutboxStream, through: string): Promise<void> {
    const [ms, n] = through.split('-');
    // MINID keeps ids at or above it: the one right after `through`.
    await this.ctx.redis.xtrim(this.ctx.keys.outbox(stream), 'MINID', `${ms}-${Number(n) + 1}`);
  }
}
