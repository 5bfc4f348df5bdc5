import type { Cents } from '../money';
import type { LedgerLine, LedgerState } from '../protocol/operator-api';

/**
 * The game server's wallet ledger against the operator's (docs/integration.md,
 * "Reconciliation"), both in the `LedgerLine` format: totals per day (Europe/Paris) and player,
 * and every difference. Money is what decides: a debit counts while it stands, a credit always.
 * A rollback's effect is its debit's state, so rollbacks are not compared by themselves: a debit
 * rolled back on one side and never seen on the other (a timed-out debit the operator never
 * received, then rolled back) moved nothing on either side, and is no difference.
 */

export type Side = 'server' | 'operator';

export interface Totals {
  /** Debits standing. */
  staked: Cents;
  /** Credits. */
  won: Cents;
}

export interface TotalsRow {
  readonly day: string;
  readonly player: string;
  readonly server: Totals;
  readonly operator: Totals;
}

export type Difference =
  /** A movement that stands on one side only. */
  | { readonly kind: 'one_side_only'; readonly side: Side; readonly line: LedgerLine }
  | { readonly kind: 'amount'; readonly transactionId: string; readonly server: Cents; readonly operator: Cents }
  /** A debit standing on one side, rolled back on the other. */
  | { readonly kind: 'rolled_back_on_one_side'; readonly transactionId: string; readonly standingOn: Side; readonly amount: Cents }
  /** The same transaction id naming another player, round, game or kind on each side. */
  | { readonly kind: 'mismatch'; readonly transactionId: string; readonly field: 'player' | 'round' | 'game' | 'kind'; readonly server: string; readonly operator: string }
  /** A transaction id on more than one line of one side: a movement made twice. */
  | { readonly kind: 'duplicate'; readonly side: Side; readonly transactionId: string; readonly lines: number };

export interface Reconciliation {
  readonly totals: readonly TotalsRow[];
  readonly differences: readonly Difference[];
}

const PARIS_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The day of a time in Europe/Paris, `YYYY-MM-DD`: the operators' accounting day. */
export function parisDay(at: number): string {
  return PARIS_DAY.format(at);
}

/** Compares the two ledgers; with `day`, the movements of that Paris day on either side, each against the whole other side. */
export function reconcile(server: readonly LedgerLine[], operator: readonly LedgerLine[], day?: string): Reconciliation {
  const onDay = (line: LedgerLine) => day === undefined || parisDay(line.at) === day;
  const differences: Difference[] = [];
  const byId = { server: indexed(server, 'server', onDay, differences), operator: indexed(operator, 'operator', onDay, differences) };
  const ids = new Set([...server, ...operator].filter((l) => l.kind !== 'rollback' && onDay(l)).map((l) => l.transactionId));
  for (const id of [...ids].sort()) differences.push(...compare(byId.server.get(id), byId.operator.get(id)));
  return { totals: totalsOf(server.filter(onDay), operator.filter(onDay)), differences };
}

/** The first line of each transaction id; the ids of the day found on several lines are listed as duplicates. */
function indexed(lines: readonly LedgerLine[], side: Side, onDay: (l: LedgerLine) => boolean, differences: Difference[]): Map<string, LedgerLine> {
  const first = new Map<string, LedgerLine>();
  const counts = new Map<string, number>();
  for (const line of lines) {
    counts.set(line.transactionId, (counts.get(line.transactionId) ?? 0) + 1);
    if (!first.has(line.transactionId)) first.set(line.transactionId, line);
  }
  for (const [transactionId, count] of counts) {
    if (count > 1 && onDay(first.get(transactionId)!)) differences.push({ kind: 'duplicate', side, transactionId, lines: count });
  }
  return first;
}

/** Whether a debit or a credit moves money now. */
function stands(line: LedgerLine | undefined): boolean {
  return line !== undefined && line.kind !== 'rollback' && line.state === 'standing';
}

function compare(server: LedgerLine | undefined, operator: LedgerLine | undefined): Difference[] {
  if (!server || !operator) {
    const line = (server ?? operator)!;
    return stands(line) ? [{ kind: 'one_side_only', side: server ? 'server' : 'operator', line }] : [];
  }
  const mismatches = (['kind', 'player', 'round', 'game'] as const)
    .filter((field) => server[field] !== operator[field])
    .map((field): Difference => ({ kind: 'mismatch', transactionId: server.transactionId, field, server: server[field], operator: operator[field] }));
  if (mismatches.length > 0) return mismatches;
  if (stands(server) !== stands(operator)) {
    const standing = stands(server) ? server : operator;
    return [{ kind: 'rolled_back_on_one_side', transactionId: server.transactionId, standingOn: standing === server ? 'server' : 'operator', amount: standing.amount }];
  }
  if (stands(server) && server.amount !== operator.amount) return [{ kind: 'amount', transactionId: server.transactionId, server: server.amount, operator: operator.amount }];
  return [];
}

function totalsOf(server: readonly LedgerLine[], operator: readonly LedgerLine[]): TotalsRow[] {
  const rows = new Map<string, { day: string; player: string; server: Totals; operator: Totals }>();
  const add = (side: Side, line: LedgerLine) => {
    const day = parisDay(line.at);
    const key = `${day} ${line.player}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { day, player: line.player, server: { staked: 0, won: 0 }, operator: { staked: 0, won: 0 } }));
    if (line.kind === 'debit' && line.state === 'standing') row[side].staked += line.amount;
    if (line.kind === 'credit' && line.state === 'standing') row[side].won += line.amount;
  };
  for (const line of server) add('server', line);
  for (const line of operator) add('operator', line);
  return [...rows.values()].sort((a, b) => (a.day === b.day ? (a.player < b.player ? -1 : 1) : a.day < b.day ? -1 : 1));
}

const KINDS: ReadonlySet<string> = new Set<LedgerLine['kind']>(['debit', 'credit', 'rollback']);
const STATES: ReadonlySet<string> = new Set<LedgerState>(['standing', 'rolled_back', 'applied', 'unmatched']);

/** One line of an NDJSON ledger read and checked, or an Error naming what is wrong with it. */
function parseLedgerLine(text: string): LedgerLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
  const line = value as Record<string, unknown>;
  for (const field of ['transactionId', 'player', 'round', 'game'] as const) {
    if (typeof line[field] !== 'string') throw new Error(`${field} must be a string`);
  }
  if (!KINDS.has(line['kind'] as string)) throw new Error(`kind must be debit, credit or rollback, got ${JSON.stringify(line['kind'])}`);
  if (!Number.isSafeInteger(line['amount']) || (line['amount'] as number) < 0) throw new Error('amount must be a whole number of cents, 0 or more');
  if (!Number.isSafeInteger(line['at'])) throw new Error('at must be a time in ms since the epoch');
  if (!STATES.has(line['state'] as string)) throw new Error(`state must be one of ${[...STATES].join(', ')}, got ${JSON.stringify(line['state'])}`);
  if (line['referenceTransactionId'] !== undefined && typeof line['referenceTransactionId'] !== 'string') throw new Error('referenceTransactionId must be a string');
  return line as unknown as LedgerLine;
}

/** A whole NDJSON ledger (blank lines skipped), or an Error naming the source and the line number of the first bad line. */
export function parseLedger(text: string, source: string): LedgerLine[] {
  const lines: LedgerLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      lines.push(parseLedgerLine(raw));
    } catch (err) {
      throw new Error(`${source}: line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return lines;
}
