import { strict as assert } from 'node:assert';
import { ledgerCheck } from '../../../src/audit/verify-unit/ledger-check';
import { readExample } from './recalls';

// The RAIN DIAMONDS example at 50 cents, paying 500: its stake (line 9, 999,650 → 999,600) and its prize (line 10, → 1,000,100).
const rain = (change: (r: any) => void = () => {}) => ledgerCheck(readExample('rain-diamonds', change), 500);
// Unit 9 of a lamp pair paying 50: its stake (line 2), unit 10's stake (line 3), its prize (line 4).
const pair = (change: (r: any) => void = () => {}) => ledgerCheck(readExample('mysteres-de-la-lampe-pair', change), 50);
/** The RAIN DIAMONDS example as a losing unit: its stake alone. */
const losing = (r: any) => { r.ledger.pop(); r.balanceAfterPrize = r.balanceAfterStake; };
const refused = (detail: string) => ({ id: 'ledger', ok: false, detail });

describe('ledgerCheck', () => {
  it('passes a winning unit\'s stake and prize, a losing unit\'s stake alone, and a pair\'s other stake between, saying which', () => {
    assert.deepEqual(rain(), { id: 'ledger', ok: true, detail: 'the stake of 50 cents is debited once and the proven prize of 500 cents credited once, balances chained' });
    assert.deepEqual(ledgerCheck(readExample('rain-diamonds', losing), 0), { id: 'ledger', ok: true, detail: 'the stake of 50 cents is debited once and no prize is credited (a losing unit), balances chained' });
    assert.deepEqual(pair(), { id: 'ledger', ok: true, detail: 'the stake of 50 cents is debited once and the proven prize of 50 cents credited once, balances chained' });
  });

  it('passes another unit\'s prize credited between the unit\'s stake and its prize', () => {
    assert.equal(pair((r) => {
      Object.assign(r.ledger[1], { kind: 'prize', amount: 50, balance: 1_000_000 });
      r.ledger[2].balance = r.balanceAfterPrize = 1_000_050;
    }).ok, true);
  });

  it('refuses a ledger that does not start with the unit\'s stake', () => {
    for (const [what, change] of [
      ['no line', (r: any) => (r.ledger = [])],
      ['a prize first', (r: any) => (r.ledger[0].kind = 'prize')],
      ['another unit\'s stake first', (r: any) => (r.ledger[0].ref = 'rain-diamonds-50.0:8')],
    ] as const) {
      assert.deepEqual(rain(change), refused('the ledger does not start with this unit\'s stake'), what);
    }
  });

  it('refuses a stake of another amount, or balances that do not go down by it, with the amounts', () => {
    assert.deepEqual(rain((r) => (r.ledger[0].amount = -100)), refused('the stake line debits 100 cents, the unit costs 50'));
    assert.deepEqual(rain((r) => (r.balanceBefore = 999_700)), refused('the balance goes from 999700 to 999600 (recalled 999600) for a stake of 50 cents'));
    assert.deepEqual(rain((r) => (r.ledger[0].balance = 999_601)), refused('the balance goes from 999650 to 999601 (recalled 999600) for a stake of 50 cents'));
  });

  it('refuses a line missing, a balance not chained, and the stake debited twice, naming the line', () => {
    assert.deepEqual(rain((r) => (r.ledger[1].seq = 11)), refused('journal line 11 follows line 9: a line is missing'));
    assert.deepEqual(rain((r) => (r.ledger[1].balance += 1)), refused('journal line 10 takes the balance from 999600 by 500 to 1000101'));
    assert.deepEqual(pair((r) => (r.ledger[1].ref = r.unitId)), refused('the unit\'s stake is debited twice (line 3)'));
  });

  it('refuses a losing unit\'s ledger holding more than its stake', () => {
    assert.deepEqual(ledgerCheck(readExample('rain-diamonds'), 0), refused('a losing unit\'s ledger is its stake alone; this one has 2 lines'));
    assert.deepEqual(ledgerCheck(readExample('mysteres-de-la-lampe-pair', (r) => { r.ledger.pop(); r.balanceAfterPrize = r.ledger[1].balance; }), 0), refused('a losing unit\'s ledger is its stake alone; this one has 2 lines'));
  });

  it('refuses a prize credited twice, or before another line, or of another amount, or a balance after it the ledger does not end at', () => {
    assert.deepEqual(rain((r) => { r.ledger.push({ ...r.ledger[1], seq: 11, balance: 1_000_600 }); r.balanceAfterPrize = 1_000_600; }), refused('the proven prize of 500 cents should be credited once, on the ledger\'s last line; 2 credits found'));
    assert.deepEqual(ledgerCheck(readExample('rain-diamonds', losing), 500), refused('the proven prize of 500 cents should be credited once, on the ledger\'s last line; 0 credits found'));
    assert.deepEqual(pair((r) => {
      // Unit 9's prize, then unit 10's stake: the prize is not the last line.
      r.ledger = [r.ledger[0], { ...r.ledger[2], seq: 3, balance: 1_000_000 }, { ...r.ledger[1], seq: 4, balance: 999_950 }];
    }), refused('the proven prize of 50 cents should be credited once, on the ledger\'s last line; 1 credits found'));
    assert.deepEqual(rain((r) => { r.ledger[1].amount = 400; r.ledger[1].balance = r.balanceAfterPrize = 1_000_000; }), refused('the prize credited is 400 cents, the proven tier pays 500'));
    assert.deepEqual(rain((r) => (r.balanceAfterPrize += 1)), refused('the ledger ends at 1000100 cents, the recall says the balance after the prize is 1000101'));
  });
});
