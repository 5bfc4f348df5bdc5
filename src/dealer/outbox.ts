import { decodeJournalLine } from './records';

/**
 * The regulator's archive's outbox (docs/archive.md): streams the archive writer (src/archive)
 * drains into its chained, sealed files. The `money` stream is written by the dealer's own
 * money writes, in the same atomic step as the wallet journal's line (a Lua script's XADD, the
 * memory store's `post`), so no journal line can exist without its archive entry; the `play`
 * stream takes what the process records (sign-in, actions, steps shown, recalls, …). Entries
 * stay until the writer has sealed them and trims.
 */

/** The streams of every outbox: the money one (one Redis, memory) and the play one. */
export const OUTBOX_STREAMS = ['money', 'play'] as const;
/**
 * A stream's name, which is also its chain's in the archive: `money`, `play`, or on a Redis
 * Cluster `money-<k>`, the money stream of archive shard k (docs/archive.md, "On a Redis Cluster").
 */
export type OutboxStream = string;

/** Whether `stream` holds money records: `money`, or a shard's `money-<k>`. */
export function isMoneyStream(stream: OutboxStream): boolean {
  return stream === 'money' || /^money-\d+$/.test(stream);
}

export type OutboxValue = string | number | boolean | null | readonly OutboxValue[] | { readonly [key: string]: OutboxValue };

/** An entry as the process appends it to the `play` stream. */
export interface OutboxRecord {
  /** Server time, UTC ms since the epoch. */
  readonly at: number;
  readonly kind: string;
  readonly player: string;
  readonly session: string;
  readonly table: string;
  readonly process: string;
  /** Kind-specific fields (money: amount, balance, ref, game). */
  readonly payload: Readonly<Record<string, OutboxValue>>;
}

/** An entry as read back: its stream id (`<ms>-<n>`, increasing) and its record. */
export interface OutboxEntry extends OutboxRecord {
  readonly id: string;
}

export interface ArchiveOutbox {
  /** The streams the writer drains, each its own chain (the manifest lists them). */
  readonly streams: readonly OutboxStream[];
  /** Appends a record of the process to `play` (money entries are the dealer's own writes). */
  append(record: OutboxRecord): Promise<void>;
  /** Up to `count` entries of `stream` after id `after` (from the first when undefined), in order. */
  read(stream: OutboxStream, after: string | undefined, count: number): Promise<OutboxEntry[]>;
  /**
   * Drops the entries of `stream` up to and including id `through` (the writer sealed them). On
   * Redis, a batch's entry trimmed through a line before its last stays until the rest is
   * trimmed too: reads after `through` leave out its lines up to it.
   */
  trim(stream: OutboxStream, through: string): Promise<void>;
  /**
   * A player's money entries written and not in `streams` yet: on a Redis Cluster those left in
   * the player's own stream by a relay cut (the next relay takes them); none elsewhere.
   */
  unrelayed(playerId: string): Promise<OutboxEntry[]>;
}

/**
 * A money entry from a journal line (`kind|amount|balance|at|ref`, includes/journalLine.lua),
 * its player and its game ('' for deposits and withdrawals).
 */
export function moneyEntry(id: string, playerId: string, line: string, game: string): OutboxEntry {
  const { kind, amount, balance, ref, at } = decodeJournalLine(line);
  return { id, at, kind, player: playerId, session: '', table: '', process: '', payload: game === '' ? { amount, balance, ref } : { amount, balance, ref, game } };
}

/** A protection entry from a protection journal line (JSON `ProtectionChange`: what, at, by, …). */
export function protectionEntry(id: string, playerId: string, line: string): OutboxEntry {
  const change = JSON.parse(line) as { readonly at: number } & Record<string, OutboxValue>;
  return { id, at: change.at, kind: 'protection', player: playerId, session: '', table: '', process: '', payload: change };
}

/** Whether stream id `a` comes before `b` (`<ms>-<n>`). */
function idBefore(a: string, b: string): boolean {
  const [am, an] = a.split('-').map(Number) as [number, number];
  const [bm, bn] = b.split('-').map(Number) as [number, number];
  return am < bm || (am === bm && an < bn);
}

/** The smallest stream id after `id` (`<ms>-<n + 1>`): what XTRIM MINID keeps from, to drop `id` and all before. */
export function idAfter(id: string): string {
  const [ms, n] = id.split('-');
  return `${ms}-${Number(n) + 1}`;
}

/**
 * The outbox of the memory store: arrays, ids `0-<n>`. Off (`keeping` false), it keeps nothing:
 * the embedded default without an archive writer must not grow without end.
 */
export class MemoryOutbox implements ArchiveOutbox {
  readonly streams = OUTBOX_STREAMS;
  private readonly entries = new Map<OutboxStream, OutboxEntry[]>(OUTBOX_STREAMS.map((s) => [s, []]));
  private next = 0;

  constructor(private readonly keeping = true) {}

  /** What the memory store's protection journal calls with each line it adds, in the same step. */
  protection(playerId: string, change: object): void {
    this.push('money', (id) => protectionEntry(id, playerId, JSON.stringify(change)));
  }

  /** What the memory store's journal posts call, in the same synchronous step. */
  money(playerId: string, kind: string, amount: number, balance: number, ref: string, at: number, game: string): void {
    this.push('money', (id) => moneyEntry(id, playerId, `${kind}|${amount}|${balance}|${at}|${ref}`, game));
  }

  async append(record: OutboxRecord): Promise<void> {
    this.push('play', (id) => ({ id, ...record }));
  }

  async read(stream: OutboxStream, after: string | undefined, count: number): Promise<OutboxEntry[]> {
    const entries = this.entries.get(stream)!;
    const from = after === undefined ? 0 : entries.findIndex((e) => idBefore(after, e.id));
    return from < 0 ? [] : entries.slice(from, from + count);
  }

  async unrelayed(): Promise<OutboxEntry[]> {
    return [];
  }

  async trim(stream: OutboxStream, through: string): Promise<void> {
    const entries = this.entries.get(stream)!;
    const keep = entries.findIndex((e) => idBefore(through, e.id));
    entries.splice(0, keep < 0 ? entries.length : keep);
  }

  private push(stream: OutboxStream, entry: (id: string) => OutboxEntry): void {
    if (this.keeping) this.entries.get(stream)!.push(entry(`0-${++this.next}`));
  }
}
