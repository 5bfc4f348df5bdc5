import { idAfter, moneyEntry, OUTBOX_STREAMS, protectionEntry, type ArchiveOutbox, type OutboxEntry, type OutboxRecord, type OutboxStream } from '../outbox';
import type { RedisContext } from './context';
import { ARCHIVE_SHARDS } from './keys';

/** The field of a stream entry (`[name, value, name, value, …]`). */
function field(fields: readonly string[], name: string): string {
  const at = fields.indexOf(name);
  return at >= 0 && at % 2 === 0 ? fields[at + 1]! : '';
}

/** A money stream's entry: a journal line's (p, j, g) or a protection line's (p, c). */
function moneyOf(id: string, fields: readonly string[]): OutboxEntry {
  return field(fields, 'c') !== '' ? protectionEntry(id, field(fields, 'p'), field(fields, 'c')) : moneyEntry(id, field(fields, 'p'), field(fields, 'j'), field(fields, 'g'));
}

/**
 * The archive's outbox on Redis: a stream per outbox stream (`DealerKeys.outbox`). `money`
 * entries are XADDed by the money scripts (lua/includes/archiveEntry.lua: p, j, g) and by
 * changeProtection-3.lua (p, c: the protection journal's line); `play` entries by `append`
 * (field r: the record's JSON). On the per-slot protocol the money scripts write to each
 * player's own stream, relayed to the shards' `money-<k>` (archive-relay.ts): the writer
 * drains those, and `money` too (what a Redis moved to a cluster still held).
 */
export class RedisOutbox implements ArchiveOutbox {
  readonly streams: readonly OutboxStream[];

  constructor(private readonly ctx: RedisContext) {
    this.streams = ctx.perSlot ? ['money', ...Array.from({ length: ARCHIVE_SHARDS }, (_, k) => `money-${k}`), 'play'] : OUTBOX_STREAMS;
  }

  async append(record: OutboxRecord): Promise<void> {
    await this.ctx.redis.xadd(this.ctx.keys.outbox('play'), '*', 'r', JSON.stringify(record));
  }

  async read(stream: OutboxStream, after: string | undefined, count: number): Promise<OutboxEntry[]> {
    const entries = await this.ctx.redis.xrange(this.ctx.keys.outbox(stream), after === undefined ? '-' : `(${after}`, '+', 'COUNT', count);
    return entries.map(([id, fields]) => (stream === 'play' ? { id, ...(JSON.parse(field(fields, 'r')) as OutboxRecord) } : moneyOf(id, fields)));
  }

  /** Per-slot protocol: the entries of a player's own stream, not relayed to their shard yet. */
  async unrelayed(playerId: string): Promise<OutboxEntry[]> {
    if (!this.ctx.perSlot) return [];
    const entries = await this.ctx.redis.xrange(this.ctx.keys.playerOutbox(playerId), '-', '+');
    return entries.map(([id, fields]) => moneyOf(id, fields));
  }

  async trim(stream: OutboxStream, through: string): Promise<void> {
    // MINID keeps ids at or above it: the one right after `through`.
    await this.ctx.redis.xtrim(this.ctx.keys.outbox(stream), 'MINID', idAfter(through));
  }
}
