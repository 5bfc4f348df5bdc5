import { strict as assert } from 'node:assert';
import {
  assertDeposit, assertOpenEmission, checkPurchaseRequest, eventIdAfter, eventsPage, gameClosed, idempotencyWindow, IDEMPOTENCY_WINDOW_MS,
  isEventId, journalPage, salesPage, unsettledLimit, withdrawalThreshold,
} from '../../src/dealer/identifiers';
import type { PurchaseRequest } from '../../src/dealer/types';
import type { PrizeTable } from '../../src/games/types';
import { TEN_UNIT_TABLE } from './support/test-tables';

/** The dealer's checks of what it is asked, each at its boundary, with the message that names what is wrong. */
describe("the dealer's request checks", () => {
  const request: PurchaseRequest = { playerId: 'p1', requestId: 'r1', game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: 0 };
  const refusal = (changed: Partial<Record<keyof PurchaseRequest, unknown>>) => checkPurchaseRequest({ ...request, ...changed } as PurchaseRequest);
  const malformed = (changed: Partial<Record<keyof PurchaseRequest, unknown>>, message: RegExp) => {
    const result = refusal(changed);
    assert.ok(result && !result.ok && result.code === 'purchase/malformed', `${JSON.stringify(changed)} malformed`);
    assert.match(result.message, message);
  };

  it('refuses a purchase request whose fields are not of their kind, saying which', () => {
    assert.equal(refusal({}), undefined);
    malformed({ requestId: 42 }, /^requestId must be/);
    malformed({ stake: 0 }, /^stake must be a positive whole number/);
    malformed({ stake: 1.5 }, /^stake must be/);
    malformed({ game: 7 }, /^game must be a game id$/);
    malformed({ picks: 7 }, /^picks must be text of at most 512 characters$/);
    assert.equal(refusal({ picks: 'x'.repeat(512) }), undefined, '512 characters of picks pass');
    malformed({ picks: 'x'.repeat(513) }, /^picks/);
  });

  it('takes up to 8 request ids bought together, this one among them, each a request id', () => {
    const ids = (n: number) => ['r1', ...Array.from({ length: n - 1 }, (_, i) => `r1-${i}`)];
    assert.equal(refusal({ boughtTogether: ids(8) }), undefined, '8 pass');
    malformed({ boughtTogether: ids(9) }, /^boughtTogether must list 1–8 request ids, this request's among them$/);
    malformed({ boughtTogether: ['r1', 42] }, /^boughtTogether/);
    malformed({ boughtTogether: ['r2'] }, /^boughtTogether/);
  });

  it('refuses a game it does not know, or a price its rules do not sell (a stake of one cent among them), as unknown', () => {
    for (const changed of [{ game: 'bingo' }, { stake: 1 }, { stake: TEN_UNIT_TABLE.stake + 1 }]) {
      const result = refusal(changed);
      assert.ok(result && !result.ok && result.code === 'purchase/unknown_game', JSON.stringify(changed));
    }
    const unknown = refusal({ game: 'bingo' });
    assert.ok(unknown && !unknown.ok && unknown.message === 'no game "bingo"', 'a game never sold is named as such');
    assert.throws(() => refusal({ now: -1 }), /^RangeError: now must be ms since the epoch: -1$/);
    assert.throws(() => refusal({ now: 1.5 }), /now must be/);
    assert.doesNotThrow(() => refusal({ now: 0 }));
    const closed = gameClosed('mine-d-or', 200);
    assert.ok(!closed.ok && /^mine-d-or at 200 cents: the emission is sold out$/.test(closed.message));
  });

  it('throws on an emission it could not print, saying what', () => {
    const open = { emissionId: 'e1', table: TEN_UNIT_TABLE, blockCount: 1, now: 0 };
    assert.doesNotThrow(() => assertOpenEmission(open));
    const wrong: [Partial<typeof open>, RegExp][] = [
      [{ emissionId: 'e.1' }, /^emissionId must be 1–64 of \[A-Za-z0-9_-\]: e\.1$/],
      [{ table: { ...TEN_UNIT_TABLE, game: 'bingo' } as unknown as PrizeTable }, /^unknown game bingo$/],
      [{ table: { ...TEN_UNIT_TABLE, stake: 0 } }, /^stake 0$/],
      [{ table: { ...TEN_UNIT_TABLE, stake: 1.5 } }, /^stake 1\.5$/],
      [{ blockCount: 0 }, /^blockCount 0$/],
      [{ table: { ...TEN_UNIT_TABLE, blockSize: 0 } }, /block size 0/],
      [{ now: -1 }, /^now must be/],
    ];
    for (const [changed, message] of wrong) assert.throws(() => assertOpenEmission({ ...open, ...changed }), (err: Error) => err instanceof RangeError && message.test(err.message), JSON.stringify(changed));
    assert.doesNotThrow(() => assertOpenEmission({ ...open, table: { ...TEN_UNIT_TABLE, game: 'noel-de-la-chance', stake: 1 } }), 'any whole stake of cents, one among them');
  });

  it('throws on a deposit of no cents, a bad player or reference, or a time before the epoch', () => {
    assert.doesNotThrow(() => assertDeposit('p1', 1, 'd1', 0));
    assert.doesNotThrow(() => assertDeposit('p1', 1, 'd1', 0, 'w1'));
    assert.throws(() => assertDeposit('a b', 1, 'd1', 0), /^RangeError: playerId must be 1–64 of \[A-Za-z0-9_.:-\]: a b$/);
    assert.throws(() => assertDeposit('p1', 0, 'd1', 0), /^RangeError: deposit must be a positive whole number of cents: 0$/);
    assert.throws(() => assertDeposit('p1', 1, 'd|1', 0), /^RangeError: deposit ref must be 1–128 of \[A-Za-z0-9_.:-\]: d\|1$/);
    assert.throws(() => assertDeposit('p1', 1, 'd1', 0, 'w|1'), /: w\|1$/, 'the other reference is checked too');
    assert.throws(() => assertDeposit('p1', 1, 'd1', -1), /^RangeError: now must be/);
  });

  it('clamps the pages of a history, a journal, the operator events and the unsettled sales, and throws on what is no page', () => {
    assert.deepEqual(salesPage(-5, 1000), { offset: 0, limit: 100 });
    assert.throws(() => salesPage(0.5, 10), /^RangeError: page 0\.5, 10$/);
    assert.throws(() => salesPage(0, 0.5), /^RangeError: page 0, 0\.5$/);
    assert.deepEqual(journalPage({ before: 1, offset: -1, limit: 1000 }), { before: 1, offset: 0, limit: 500 });
    assert.throws(() => journalPage({ before: 0, limit: 10 }), /^RangeError: journal page \{"before":0,"limit":10\}$/);
    assert.deepEqual(eventsPage('12-3', 1000), { after: '12-3', limit: 500 });
    assert.deepEqual(eventsPage(undefined, -1), { after: undefined, limit: 0 });
    assert.throws(() => eventsPage('x', 10), /^RangeError: events page x, 10$/);
    assert.throws(() => eventsPage(undefined, 0.5), /^RangeError: events page undefined, 0\.5$/);
    assert.equal(unsettledLimit(-3), 0);
    assert.throws(() => unsettledLimit(0.5), /^RangeError: limit 0\.5$/);
  });

  it('orders operator event ids as a Redis stream does, and takes only such ids', () => {
    for (const id of ['0', '12', '12-3', `${'9'.repeat(20)}-${'9'.repeat(20)}`]) assert.equal(isEventId(id), true, id);
    for (const id of ['', '-1', '1-', '1-2-3', 'a1', '1a', ' 1', '1 ', '1-a', `${'9'.repeat(21)}`, `1-${'9'.repeat(21)}`]) assert.equal(isEventId(id), false, id);
    assert.equal(eventIdAfter('13-0', '12-9'), true);
    assert.equal(eventIdAfter('12-9', '13-0'), false);
    assert.equal(eventIdAfter('12-4', '12-3'), true);
    assert.equal(eventIdAfter('12-3', '12-3'), false);
    assert.equal(eventIdAfter('12-3', '12-4'), false);
    assert.equal(eventIdAfter('12-1', '12'), true, '<ms> alone is <ms>-0');
  });

  it('takes a withdrawal threshold of whole cents from 0, or none, and an idempotency window of a whole ms from 1 (24 h by default)', () => {
    assert.equal(withdrawalThreshold(undefined), undefined);
    assert.equal(withdrawalThreshold(0), 0);
    assert.throws(() => withdrawalThreshold(-1), /^RangeError: withdrawalThreshold must be a whole number of cents: -1$/);
    assert.throws(() => withdrawalThreshold(0.5), /withdrawalThreshold/);
    assert.equal(IDEMPOTENCY_WINDOW_MS, 86_400_000);
    assert.equal(idempotencyWindow(), 86_400_000);
    assert.equal(idempotencyWindow(1), 1);
    assert.throws(() => idempotencyWindow(0), /^RangeError: the idempotency window must be a positive whole number of ms: 0$/);
    assert.throws(() => idempotencyWindow(1.5), /idempotency window/);
  });
});
