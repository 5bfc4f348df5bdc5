import { createHash } from 'node:crypto';
import type { OutboxEntry, OutboxRecord, OutboxValue } from '../dealer/outbox';

/**
 * The archive's records and their chain (docs/archive.md, "Record format"). A record is one
 * exchange between a player and the platform; each carries its stream's sequence number and the
 * hash of the record before it, so that a record altered, removed, reordered or added breaks
 * the chain where it happened.
 */

/** The kinds whose records come from the wallet journal's lines (the dealer's own writes). */
export const MONEY_KINDS: ReadonlySet<string> = new Set(['deposit', 'withdrawal', 'stake', 'prize']);

/** A record as written, one JSON line (`t: 'r'`): an outbox record in its stream's chain. */
export interface ArchiveRecord extends OutboxRecord {
  readonly t: 'r';
  readonly stream: string;
  readonly seq: number;
  /** The outbox entry's id. */
  readonly src: string;
  /** The hash of the stream's record before (GENESIS for the first), hex. */
  readonly prev: string;
  /** SHA-256 of `recordBytes`, hex. */
  readonly hash: string;
}

/** The `prev` of a stream's first record. */
export const GENESIS = '0'.repeat(64);

/** JSON with object keys sorted (code-unit order) at every depth: one text per value. */
export function canonicalJson(value: OutboxValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v: OutboxValue) => canonicalJson(v)).join(',')}]`;
  const object = value as { readonly [key: string]: OutboxValue };
  return `{${Object.keys(object)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key]!)}`)
    .join(',')}}`;
}

/** The bytes a record's hash is taken over: UTF-8 of a canonical JSON array of its fields but `t` and `hash`. */
export function recordBytes(record: Omit<ArchiveRecord, 't' | 'hash'>): Buffer {
  const { stream, seq, at, kind, player, session, table, process, payload, src, prev } = record;
  return Buffer.from(canonicalJson(['instant-games-archive-record/1', stream, seq, at, kind, player, session, table, process, payload, src, prev]), 'utf8');
}

/**
 * A record's line as the writer writes it: its fields only, in their order. `verify` rebuilds
 * it from what it parsed and compares: a field added or written twice in a line is not hashed,
 * but a reader of the file would see it.
 */
export function recordLine(record: ArchiveRecord): string {
  const { t, stream, seq, at, kind, player, session, table, process, payload, src, prev, hash } = record;
  return JSON.stringify({ t, stream, seq, at, kind, player, session, table, process, payload, src, prev, hash });
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The record that follows `prev` (hash, seq) in `stream` for an outbox entry. */
export function chainRecord(stream: string, entry: OutboxEntry, seq: number, prev: string): ArchiveRecord {
  const body = { stream, seq, at: entry.at, kind: entry.kind, player: entry.player, session: entry.session, table: entry.table, process: entry.process, payload: entry.payload, src: entry.id, prev };
  return { t: 'r', ...body, hash: sha256Hex(recordBytes(body)) };
}
