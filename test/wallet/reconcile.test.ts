import { strict as assert } from 'node:assert';
import type { LedgerLine } from '../../src/protocol/operator-api';
import { parisDay, parseLedger, reconcile } from '../../src/wallet/reconcile';

/** 2026-03-10 12:00 in Paris (11:00 UTC). */
const NOON = Date.UTC(2026, 2, 10, 11);

function line(transactionId: string, fields: Partial<LedgerLine> = {}): LedgerLine {
  return { transactionId, player: 'p1', round: `r-${transactionId}`, game: 'noel', kind: 'debit', amount: 200, at: NOON, state: 'standing', ...fields };
}

const debit = line('d1');
const credit = line('c1', { kind: 'credit', amount: 1000, round: 'r-d1' });

describe('reconcile', () => {
  it('finds no difference between two ledgers holding the same movements', () => {
    const { differences, totals } = reconcile([debit, credit], [credit, debit]);
    assert.deepEqual(differences, []);
    assert.deepEqual(totals, [{ day: '2026-03-10', player: 'p1', server: { staked: 200, won: 1000 }, operator: { staked: 200, won: 1000 } }]);
  });

  it('lists a debit or a credit found on one side only', () => {
    assert.deepEqual(reconcile([debit, credit], [debit]).differences, [{ kind: 'one_side_only', side: 'server', line: credit }]);
    assert.deepEqual(reconcile([credit], [debit, credit]).differences, [{ kind: 'one_side_only', side: 'operator', line: debit }]);
  });

  it('lists a movement whose amount differs', () => {
    assert.deepEqual(reconcile([debit], [{ ...debit, amount: 300 }]).differences, [{ kind: 'amount', transactionId: 'd1', server: 200, operator: 300 }]);
  });

  it('lists a debit standing on one side and rolled back on the other', () => {
    const rolledBack = { ...debit, state: 'rolled_back' } as const;
    const rollback = line('rb1', { kind: 'rollback', state: 'applied', referenceTransactionId: 'd1' });
    assert.deepEqual(reconcile([rolledBack, rollback], [debit]).differences, [{ kind: 'rolled_back_on_one_side', transactionId: 'd1', standingOn: 'operator', amount: 200 }]);
    assert.deepEqual(reconcile([debit], [rolledBack, rollback]).differences, [{ kind: 'rolled_back_on_one_side', transactionId: 'd1', standingOn: 'server', amount: 200 }]);
  });

  it('finds no difference in a debit rolled back on one side that the other never saw (nothing moved on either)', () => {
    const rolledBack = { ...debit, state: 'rolled_back' } as const;
    const unmatched = line('rb1', { kind: 'rollback', state: 'unmatched', amount: 0, game: '', referenceTransactionId: 'd1' });
    const rollback = line('rb1', { kind: 'rollback', state: 'applied', referenceTransactionId: 'd1' });
    assert.deepEqual(reconcile([rolledBack, rollback], [unmatched]).differences, []);
  });

  it('lists a transaction id naming another player or kind on each side', () => {
    assert.deepEqual(reconcile([debit], [{ ...debit, player: 'p2' }]).differences, [{ kind: 'mismatch', transactionId: 'd1', field: 'player', server: 'p1', operator: 'p2' }]);
    assert.deepEqual(reconcile([debit], [{ ...debit, kind: 'credit' }]).differences, [{ kind: 'mismatch', transactionId: 'd1', field: 'kind', server: 'debit', operator: 'credit' }]);
  });

  it('lists a movement made twice on one side', () => {
    assert.deepEqual(reconcile([debit], [debit, debit]).differences, [{ kind: 'duplicate', side: 'operator', transactionId: 'd1', lines: 2 }]);
  });

  it('totals per Paris day and per player, a debit counting while it stands', () => {
    const lateNight = Date.UTC(2026, 2, 10, 23, 30); // 00:30 on the 11th in Paris
    const lines = [debit, line('d2', { at: lateNight }), line('d3', { player: 'p2' }), line('d4', { state: 'rolled_back' })];
    assert.deepEqual(reconcile(lines, lines).totals.map((r) => [r.day, r.player, r.server.staked]), [['2026-03-10', 'p1', 200], ['2026-03-10', 'p2', 200], ['2026-03-11', 'p1', 200]]);
  });

  it('with a day, compares the movements of that day against the whole other side', () => {
    const nextDay = NOON + 86_400_000;
    const server = [debit, line('d2', { at: nextDay }), line('c2', { kind: 'credit', at: nextDay })];
    const operator = [{ ...debit, at: nextDay }, line('d2', { at: nextDay })];
    assert.deepEqual(reconcile(server, operator, '2026-03-10').differences, []);
    assert.deepEqual(reconcile(server, operator, '2026-03-11').differences, [{ kind: 'one_side_only', side: 'server', line: server[2] }]);
    assert.deepEqual(reconcile(server, operator, '2026-03-11').totals.map((r) => r.server), [{ staked: 200, won: 200 }]);
  });

  it('reads days in Paris time, summer time included', () => {
    assert.equal(parisDay(Date.UTC(2026, 6, 1, 21, 59)), '2026-07-01');
    assert.equal(parisDay(Date.UTC(2026, 6, 1, 22, 0)), '2026-07-02');
    assert.equal(parisDay(Date.UTC(2026, 0, 1, 22, 59)), '2026-01-01');
    assert.equal(parisDay(Date.UTC(2026, 0, 1, 23, 0)), '2026-01-02');
  });
});

describe('parseLedger', () => {
  it('reads NDJSON lines, blank lines skipped', () => {
    assert.deepEqual(parseLedger(`${JSON.stringify(debit)}\n\n${JSON.stringify(credit)}\n`, 'x'), [debit, credit]);
  });

  it('names the source and the line number of a bad line', () => {
    const bad = JSON.stringify({ ...debit, amount: 1.5 });
    assert.throws(() => parseLedger(`${JSON.stringify(debit)}\n${bad}\n`, 'server.ndjson'), /^Error: server\.ndjson: line 2: amount must be a whole number of cents/);
    assert.throws(() => parseLedger('{"transactionId":', 'op'), /^Error: op: line 1: not JSON$/);
    assert.throws(() => parseLedger(JSON.stringify({ ...debit, kind: 'bet' }), 'op'), /line 1: kind must be debit, credit or rollback/);
  });
});
