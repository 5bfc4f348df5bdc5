import { parseUnitId } from '../ids';
import { isMoneyStream, type ArchiveOutbox, type OutboxEntry } from '../dealer/outbox';
import type { DealerStore, JournalEntry } from '../dealer/types';
import { dayOf } from './files';
import { MONEY_KINDS, type ArchiveRecord } from './records';

/**
 * Reconciliation with the books (docs/archive.md, "Reconciliation"): the archive's money
 * records against the wallet journals, the dealer's source of truth. Per day, per game and per
 * player the stakes and the prizes (and the deposits and withdrawals) must sum alike, and each
 * journal line must be in the archive once: a line missing or twice is named.
 */

/** A money movement as both sides give it. */
export interface MoneyLine {
  readonly player: string;
  readonly kind: string;
  readonly amount: number;
  readonly at: number;
  /** The unit id (stakes, prizes) or the deposit's or withdrawal's reference. */
  readonly ref: string;
  /** '' for deposits and withdrawals. */
  readonly game: string;
}

export interface Reconciliation {
  /** One sentence per difference; empty: the archive and the books agree. */
  readonly differences: readonly string[];
  /** Lines compared on each side. */
  readonly archived: number;
  readonly booked: number;
}

/** Where the books are read: the players with a journal, and each one's journal. */
export interface Books {
  journaledPlayers(): Promise<string[]>;
}

/** The books' lines of `store` (each journal, the game of each unit from its emission). */
export async function bookLines(store: DealerStore & Books): Promise<MoneyLine[]> {
  const gameOf = new Map((await store.emissions.listEmissions()).map((e) => [e.emissionId, e.game as string]));
  const lines: MoneyLine[] = [];
  for (const player of await store.journaledPlayers()) {
    for (const entry of await store.wallets.journal(player)) lines.push(lineOfJournal(player, entry, gameOf));
  }
  return lines;
}

/** The records of every money stream (`money`, and a cluster's shards' `money-<k>`), stream after stream. */
export function moneyRecords(records: ReadonlyMap<string, readonly ArchiveRecord[]>): ArchiveRecord[] {
  return [...records].filter(([stream]) => isMoneyStream(stream)).flatMap(([, r]) => r);
}

/**
 * The money entries on their way to the archive, which count as archived (they will be): each
 * money stream's entries after its last archived record, and on a Redis Cluster those still in
 * the players' own streams (a relay cut, the next one takes them).
 */
export async function moneyOnItsWay(
  outbox: ArchiveOutbox,
  archived: ReadonlyMap<string, readonly ArchiveRecord[]>,
  players: readonly string[],
): Promise<OutboxEntry[]> {
  const entries: OutboxEntry[] = [];
  for (const stream of outbox.streams.filter(isMoneyStream)) entries.push(...(await outbox.read(stream, archived.get(stream)?.at(-1)?.src, Number.MAX_SAFE_INTEGER)));
  for (const player of players) entries.push(...(await outbox.unrelayed(player)));
  return entries;
}

/** The money lines of archive records or outbox entries (the same fields). */
export function moneyLines(records: Iterable<{ readonly at: number; readonly kind: string; readonly player: string; readonly payload: Readonly<Record<string, unknown>> }>): MoneyLine[] {
  const lines: MoneyLine[] = [];
  for (const r of records) {
    if (!MONEY_KINDS.has(r.kind)) continue;
    lines.push({ player: r.player, kind: r.kind, amount: Number(r.payload['amount']), at: r.at, ref: String(r.payload['ref']), game: String(r.payload['game'] ?? '') });
  }
  return lines;
}

function lineOfJournal(player: string, entry: JournalEntry, gameOf: ReadonlyMap<string, string>): MoneyLine {
  const unit = entry.kind === 'stake' || entry.kind === 'prize' ? parseUnitId(entry.ref) : undefined;
  return { player, kind: entry.kind, amount: entry.amount, at: entry.at, ref: entry.ref, game: unit ? (gameOf.get(unit.emissionId) ?? '?') : '' };
}

function euros(cents: number): string {
  return `${cents < 0 ? '−' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')} €`;
}

/** Sums per `day game player kind`, and counts per line. */
function tally(lines: readonly MoneyLine[]): { sums: Map<string, number>; counts: Map<string, number> } {
  const sums = new Map<string, number>();
  const counts = new Map<string, number>();
  for (const line of lines) {
    const group = `${dayOf(line.at)} ${line.game || '-'} ${line.player} ${line.kind}`;
    sums.set(group, (sums.get(group) ?? 0) + line.amount);
    const one = `${line.player} ${line.kind} ${line.ref} ${line.amount}`;
    counts.set(one, (counts.get(one) ?? 0) + 1);
  }
  return { sums, counts };
}

/** Compares the archive's money lines with the books'. */
export function reconcile(archived: readonly MoneyLine[], booked: readonly MoneyLine[]): Reconciliation {
  const archive = tally(archived);
  const books = tally(booked);
  const differences: string[] = [];
  for (const group of [...new Set([...archive.sums.keys(), ...books.sums.keys()])].sort()) {
    const a = archive.sums.get(group) ?? 0;
    const b = books.sums.get(group) ?? 0;
    if (a !== b) differences.push(`${group}: ${euros(a)} in the archive, ${euros(b)} in the books`);
  }
  for (const one of [...new Set([...archive.counts.keys(), ...books.counts.keys()])].sort()) {
    const a = archive.counts.get(one) ?? 0;
    const b = books.counts.get(one) ?? 0;
    if (a !== b) differences.push(`line ${one}: ${a} in the archive, ${b} in the books`);
  }
  // A unit staked or paid twice on both sides agrees line for line, and is still wrong.
  for (const [side, { counts }] of [['archive', archive], ['books', books]] as const) {
    for (const [one, count] of counts) {
      const [player, kind, ref] = one.split(' ');
      if (count > 1 && (kind === 'stake' || kind === 'prize')) differences.push(`${kind} of unit ${ref} to ${player} ${count} times in the ${side}`);
    }
  }
  return { differences, archived: archived.length, booked: booked.length };
}
