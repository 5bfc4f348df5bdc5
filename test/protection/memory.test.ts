import { strict as assert } from 'node:assert';
import { depositRefusal, HourWindow, MemoryProtections, newProtection, stakeRefusal, type ProtectedWallet } from '../../src/protection/memory';
import { freedAt, HOUR_MS, PLAYED_GAP_MS } from '../../src/protection/rules';
import type { JournalLine } from '../../src/protocol/wallet';

const H = 10_000;
const MINUTE = 60_000;

function wallet(journal: JournalLine[] = []): ProtectedWallet {
  return { protection: newProtection(), journal };
}

function line(kind: JournalLine['kind'], amount: number, at: number): JournalLine {
  return { seq: at, kind, amount, balance: 0, ref: 'u', at };
}

describe('memory protection', () => {
  describe('an hour window', () => {
    it('sums the week and the last day, each bucket leaving at its end of window', () => {
      const window = new HourWindow();
      window.add(H - 30, 100);
      window.add(H - 24, 20);
      window.add(H, 3);
      assert.deepEqual(window.advance(H), { week: 123, day: 23, weekFreeAt: freedAt('stake_week', H - 30), dayFreeAt: freedAt('stake_day', H - 24) });
      assert.deepEqual(window.advance(H + 1), { week: 123, day: 3, weekFreeAt: freedAt('stake_week', H - 30), dayFreeAt: freedAt('stake_day', H) });
      assert.deepEqual(window.advance(H + 200), { week: 0, day: 0, weekFreeAt: null, dayFreeAt: null });
      assert.deepEqual(window.counted(), []);
    });

    it('adds an hour already counted, or an earlier one (a clock behind), to the newest bucket', () => {
      const window = new HourWindow();
      window.add(H, 5);
      window.add(H, 7);
      window.add(H - 3, 1);
      assert.deepEqual(window.counted(), [{ hour: H, cents: 13 }]);
    });

    it('opens a new bucket when every bucket left the week, whatever the hour', () => {
      const window = new HourWindow();
      window.add(H, 5);
      window.advance(H + 500);
      window.add(H, 7);
      assert.deepEqual(window.counted(), [{ hour: H, cents: 7 }]);
      assert.equal(window.advance(H).week, 7);
    });

    it('keeps its totals and buckets exact when it drops the buckets gone by (a year of hours)', () => {
      const window = new HourWindow();
      for (let hour = H; hour < H + 24 * 365; hour++) {
        window.advance(hour);
        window.add(hour, 1);
      }
      const last = H + 24 * 365 - 1;
      const now = window.advance(last);
      assert.equal(now.week, 169);
      assert.equal(now.day, 25);
      assert.equal(now.dayFreeAt, freedAt('stake_day', last - 24));
      assert.equal(window.counted().length, 169);
      assert.deepEqual(window.counted()[0], { hour: last - 168, cents: 1 });
      assert.equal(window.advance(last + 24).day, 1, 'the last hour counts a day after it');
      assert.deepEqual(window.advance(last + 25), { week: 144, day: 0, weekFreeAt: freedAt('stake_week', last - 143), dayFreeAt: null });
    });

    it('says when what is counted falls below a mark, in the week or the day', () => {
      const window = new HourWindow();
      window.add(H - 100, 30);
      window.add(H - 10, 20);
      window.add(H, 10);
      window.advance(H);
      assert.equal(window.freedBelow(60, 'week'), freedAt('time_week', H - 100));
      assert.equal(window.freedBelow(30, 'week'), freedAt('time_week', H - 10), 'strictly below: the 30 left once H − 100 leaves are not below 30');
      assert.equal(window.freedBelow(31, 'week'), freedAt('time_week', H - 100));
      assert.equal(window.freedBelow(30, 'day'), freedAt('time_day', H - 10), 'the day does not count H − 100');
      assert.equal(window.freedBelow(10, 'day'), freedAt('time_day', H));
      assert.equal(window.freedBelow(0, 'day'), null, 'nothing is ever below 0');
    });
  });

  describe('the purchase step', () => {
    const now = H * HOUR_MS;

    it('refuses a blocked player until the block ends, and an excluded one until the exclusion ends', () => {
      const w = wallet();
      w.protection.blocked = { reason: 'identity', until: now + 1 };
      assert.equal(stakeRefusal(w, { now, stake: 100 })?.code, 'protection/blocked');
      assert.equal(stakeRefusal(w, { now: now + 1, stake: 100 }), undefined);
      w.protection.blocked = { reason: 'minor', until: null };
      assert.equal(stakeRefusal(w, { now: now + HOUR_MS * 1000, stake: 100 })?.code, 'protection/blocked');
      w.protection.blocked = null;
      w.protection.excludedUntil = now + 1;
      assert.equal(stakeRefusal(w, { now, stake: 100 })?.code, 'protection/excluded');
      assert.equal(stakeRefusal(w, { now: now + 1, stake: 100 }), undefined);
    });

    it('refuses at a playing-time limit reached, and says play is possible once what is counted falls a pause below it', () => {
      const w = wallet();
      w.protection.timeLimits.time_day = { amount: 10 * MINUTE };
      w.protection.played.add(H - 5, 1 * MINUTE);
      w.protection.played.add(H - 2, 8 * MINUTE);
      w.protection.lastPlayedAt = now - 30_000;
      assert.equal(stakeRefusal(w, { now, stake: 100 }), undefined, '9.5 minutes of 10');
      const refused = stakeRefusal(w, { now: now + 30_000, stake: 100 });
      assert.equal(refused?.code, 'limit/time_day');
      // Free once the counted time falls below the limit less a pause bound (10 − 2 = 8 minutes):
      // without the 1 of hour H − 5, 8 are left, not below; without the 8 of hour H − 2 as well.
      assert.equal(PLAYED_GAP_MS, 2 * MINUTE);
      assert.equal(refused?.details?.nextFreeAt, freedAt('time_day', H - 2));
    });

    it('tells the weekly deposit limit by its name and what is left, never below zero', () => {
      const w = wallet();
      w.protection.limits.deposit_week = { amount: 1000 };
      assert.equal(depositRefusal(w, 600, now), undefined);
      const refused = depositRefusal(w, 500, now);
      assert.equal(refused?.code, 'limit/deposit_week');
      assert.equal(refused?.details?.left, 400);
      w.protection.limits.deposit_week = { amount: 100 };
      assert.equal(depositRefusal(w, 1, now)?.details?.left, 0);
    });
  });

  describe("a session's money", () => {
    it('sums the stakes and prizes from its start on, and nothing for a player without a wallet', async () => {
      const journal = [line('deposit', 5000, 1), line('stake', -200, 10), line('prize', 500, 20), line('stake', -100, 30), line('prize', 50, 40)];
      const books = { wallets: new Map([['p1', wallet(journal)]]), walletOf: () => wallet(), outbox: { protection: () => undefined } };
      const protections = new MemoryProtections(books);
      assert.deepEqual(await protections.sessionMoney('p1', 10), { staked: 300, won: 550 });
      assert.deepEqual(await protections.sessionMoney('p1', 11), { staked: 100, won: 550 });
      assert.deepEqual(await protections.sessionMoney('p1', 0), { staked: 300, won: 550 }, 'a deposit is neither');
      assert.deepEqual(await protections.sessionMoney('nobody', 0), { staked: 0, won: 0 });
    });
  });
});
