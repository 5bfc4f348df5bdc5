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

/** Whether an entry's fields (`[name, value, …]`) have one named `name`. */
function hasField(fields: readonly string[], name: string): boolean {
  for (let i = 0; i < fields.length; i += 2) if (fields[i] === name) return true;
  return false;
}

/**
 * The lines of a `money` entry: one per `p` field, each with the fields up to the next `p`
 * (a batch of purchases adds its stakes as one entry: includes/archiveEntry.lua). A line
 * without `g` is given the game of the line before it: a batch names its game once (entries
 * written before that have a `g` on every line, read the same).
 */
function linesOf(fields: readonly string[]): string[][] {
  const lines: string[][] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'p' || lines.length === 0) lines.push([]);
    lines.at(-1)!.push(fields[i]!, fields[i + 1]!);
  }
  for (let i = 1; i < lines.length; i++) if (!hasField(lines[i]!, 'g')) lines[i]!.push('g', field(lines[i - 1]!, 'g'));
  return lines;
}

/**
 * A record's place in a stream, as its `id` says: the entry's id, and for an entry of several
 * lines the line's index in it (`<entry id>:<i>`).
 */
function place(id: string): { entry: string; line: number | undefined } {
  const [entry, line] = id.split(':');
  return { entry: entry!, line: line === undefined ? undefined : Number(line) };
}

/**
 * The archive's outbox on Redis: a stream per outbox stream (`DealerKeys.outbox`). `money`
 * entries are XADDed by the money scripts (lua/includes/archiveEntry.lua: p, j, g; a batch of
 * purchases one entry of all its lines, its game named once) and by changeProtection-3.lua
 * (p, c: the protection journal's line); `play` entries by `append` (field r: the record's JSON). A record's id is its
 * entry's, with `:<i>` for line i of an entry of several, so that a read or a trim may end
 * within a batch's entry. On the per-slot protocol the money scripts write to each player's own
 * stream, relayed to the shards' `money-<k>` (archive-relay.ts): the writer drains those, and
 * `money` too (what a Redis moved to a cluster still held).
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
    const from = after === undefined ? undefined : place(after);
    // After a line within an entry: that entry again (one more read), its lines up to `after` left out.
    const within = from?.line !== undefined;
    const start = from === undefined ? '-' : within ? from.entry : `(${from.entry}`;
    const entries = await this.ctx.redis.xrange(this.ctx.keys.outbox(stream), start, '+', 'COUNT', within ? count + 1 : count);
    const records = entries.flatMap(([id, fields]) => {
      if (stream === 'play') return [{ id, ...(JSON.parse(field(fields, 'r')) as OutboxRecord) }];
      const lines = linesOf(fields);
      const skip = within && id === from!.entry ? from!.line! + 1 : 0;
      return lines.slice(skip).map((line, i) => {
        const lineId = lines.length === 1 ? id : `${id}:${skip + i}`;
        return moneyOf(lineId, line);
      });
    });
    return records.slice(0, count);
  }

  /** Per-slot protocol: the entries of a player's own stream, not relayed to their shard yet. */
  async unrelayed(playerId: string): Promise<OutboxEntry[]> {
    if (!this.ctx.perSlot) return [];
    const entries = await this.ctx.redis.xrange(this.ctx.keys.playerOutbox(playerId), '-', '+');
    return entries.map(([id, fields]) => moneyOf(id, fields));
  }

  async trim(stream: OutboxStream, through: string): Promise<void> {
    const key = this.ctx.keys.outbox(stream);
    const { entry, line } = place(through);
    // Through a line before the last of its entry: the entry stays, for the lines after it.
    const [rest] = line === undefined ? [] : await this.ctx.redis.xrange(key, entry, entry);
    const kept = rest !== undefined && linesOf(rest[1]).length > line! + 1;
    // MINID keeps ids at or above it.
    await this.ctx.redis.xtrim(key, 'MINID', kept ? entry : idAfter(entry));
  }
}
