import { moneyEntry, protectionEntry, type ArchiveOutbox, type OutboxEntry, type OutboxRecord, type OutboxStream } from '../outbox';
import type { RedisContext } from './context';

/** The field of a stream entry (`[name, value, name, value, …]`). */
function field(fields: readonly string[], name: string): string {
  const at = fields.indexOf(name);
  return at >= 0 && at % 2 === 0 ? fields[at + 1]! : '';
}

/**
 * The lines of a `money` entry: one per `p` field, each with the fields up to the next `p`
 * (a batch of purchases adds its stakes as one entry: includes/archiveEntry.lua).
 */
function linesOf(fields: readonly string[]): string[][] {
  const lines: string[][] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'p' || lines.length === 0) lines.push([]);
    lines.at(-1)!.push(fields[i]!, fields[i + 1]!);
  }
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

/** The stream id right after `id` (`<ms>-<n>`). */
function nextId(id: string): string {
  const [ms, n] = id.split('-');
  return `${ms}-${Number(n) + 1}`;
}

/**
 * The archive's outbox on one Redis: a stream per outbox stream (`DealerKeys.outbox`). `money`
 * entries are XADDed by the money scripts (lua/includes/archiveEntry.lua: p, j, g; a batch of
 * purchases one entry of all its lines) and by changeProtection-3.lua (p, c: the protection
 * journal's line); `play` entries by `append` (field r: the record's JSON). A record's id is its
 * entry's, with `:<i>` for line i of an entry of several, so that a read or a trim may end
 * within a batch's entry.
 */
export class RedisOutbox implements ArchiveOutbox {
  constructor(private readonly ctx: RedisContext) {}

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
        return field(line, 'c') !== '' ? protectionEntry(lineId, field(line, 'p'), field(line, 'c')) : moneyEntry(lineId, field(line, 'p'), field(line, 'j'), field(line, 'g'));
      });
    });
    return records.slice(0, count);
  }

  async trim(stream: OutboxStream, through: string): Promise<void> {
    const key = this.ctx.keys.outbox(stream);
    const { entry, line } = place(through);
    // Through a line before the last of its entry: the entry stays, for the lines after it.
    const [rest] = line === undefined ? [] : await this.ctx.redis.xrange(key, entry, entry);
    const kept = rest !== undefined && linesOf(rest[1]).length > line! + 1;
    // MINID keeps ids at or above it.
    await this.ctx.redis.xtrim(key, 'MINID', kept ? entry : nextId(entry));
  }
}
