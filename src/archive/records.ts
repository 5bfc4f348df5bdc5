import { createHash } from 'node:crypto';

/**
 * The archive's records and their chain (docs/archive.md, "Record format"). A record is one
 * exchange between a player and the platform; each carries its stream's sequence number and the
 * hash of the record before it, so that a record altered, removed, reordered or added breaks
 * the chain where it happened.
 */

/** What a record traces: money moved by the dealer's scripts, or a step of play from the process. */
export type ArchiveKind =
  | 'deposit'
  | 'withdrawal'
  | 'stake'
  | 'prize'
  | 'sign_in'
  | 'action'
  | 'refusal'
  | 'protection'
  | 'recall'
  | 'interruption'
  | 'resumption';

/** The kinds whose records come from the wallet journal's lines (the dealer's own writes). */
export const MONEY_KINDS: ReadonlySet<string> = new Set(['deposit', 'withdrawal', 'stake', 'prize']);

/** What a source (a dealer's script or the process) gives the writer: a record without its chain. */
export interface SourceEntry {
  /** The source's id of the entry (a Redis stream id `<ms>-<n>`): the writer resumes after it. */
  readonly id: string;
  /** Server time, UTC ms since the epoch. */
  readonly at: number;
  readonly kind: ArchiveKind | string;
  readonly player: string;
  readonly session: string;
  readonly table: string;
  readonly process: string;
  /** Kind-specific fields (money: amount, balance, ref, game); JSON values only. */
  readonly payload: Readonly<Record<string, JsonValue>>;
}

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A record as written, one JSON line (`t: 'r'`). */
export interface ArchiveRecord {
  readonly t: 'r';
  readonly stream: string;
  readonly seq: number;
  readonly at: number;
  readonly kind: string;
  readonly player: string;
  readonly session: string;
  readonly table: string;
  readonly process: string;
  readonly payload: Readonly<Record<string, JsonValue>>;
  /** The source entry's id. */
  readonly src: string;
  /** The hash of the stream's record before (GENESIS for the first), hex. */
  readonly prev: string;
  /** SHA-256 of `recordBytes`, hex. */
  readonly hash: string;
}

/** The `prev` of a stream's first record. */
export const GENESIS = '0'.repeat(64);

/** JSON with object keys sorted (code-unit order) at every depth: one text per value. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v: JsonValue) => canonicalJson(v)).join(',')}]`;
  const object = value as { readonly [key: string]: JsonValue };
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

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The record that follows `prev` (hash, seq) in `stream` for a source entry. */
export function chainRecord(stream: string, entry: SourceEntry, seq: number, prev: string): ArchiveRecord {
  const body = { stream, seq, at: entry.at, kind: entry.kind, player: entry.player, session: entry.session, table: entry.table, process: entry.process, payload: entry.payload, src: entry.id, prev };
  return { t: 'r', ...body, hash: sha256Hex(recordBytes(body)) };
}
