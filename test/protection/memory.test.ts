import { strict as assert } from 'node:assert';
import { countStake, depositRefusal, HourWindow, MemoryProtections, newProtection, stakeRefusal, type ProtectedWallet } from '../../src/protection/memory';
import { freedAt, HOUR_MS, PLAYED_GAP_MS } from '../../src/protection/rules';
import type { JournalLine } from '../../src/protocol/wallet';

const H = 10_000;
const PLAYER = 'p-0123456789abcdef';
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

  describe('a change of protection', () => {
    const RAISE = 48 * HOUR_MS;
    function store() {
      const wallets = new Map<string, ProtectedWallet>();
      const archived: object[] = [];
      const books = {
        wallets,
        walletOf: (id: string) => wallets.get(id) ?? wallets.set(id, wallet()).get(id)!,
        outbox: { protection: (_player: string, change: object) => archived.push(change) },
      };
      return { protections: new MemoryProtections(books), wallets, archived };
    }
    const at = H * HOUR_MS;

    it('journals each playing-time limit changed, with when it applies, and nothing for one asked again as it stands', async () => {
      const { protections, wallets } = store();
      await protections.changeProtection(PLAYER, { what: 'limits', limits: { time_day: 60 * MINUTE }, raiseDelayMs: RAISE }, at);
      await protections.changeProtection(PLAYER, { what: 'limits', limits: { time_day: 90 * MINUTE, time_week: 600 * MINUTE }, raiseDelayMs: RAISE }, at + 1);
      await protections.changeProtection(PLAYER, { what: 'limits', limits: { time_day: 90 * MINUTE, stake_week: 2000 }, raiseDelayMs: RAISE }, at + 2);
      const journal = wallets.get(PLAYER)!.protection.journal;
      assert.deepEqual(journal.map(({ at: when, what, kind, amount, effectiveAt }) => ({ when, what, kind, amount, effectiveAt })), [
        { when: at + 2, what: 'limit', kind: 'stake_week', amount: 2000, effectiveAt: at + 2 },
        { when: at + 1, what: 'limit', kind: 'time_week', amount: 600 * MINUTE, effectiveAt: at + 1 },
        { when: at + 1, what: 'limit', kind: 'time_day', amount: 90 * MINUTE, effectiveAt: at + 1 + RAISE },
        { when: at, what: 'limit', kind: 'time_day', amount: 60 * MINUTE, effectiveAt: at },
      ]);
      assert.deepEqual(wallets.get(PLAYER)!.protection.limits.stake_day, { amount: null }, 'a kind not asked is left as it is');
      await protections.changeProtection(PLAYER, { what: 'limits', limits: { time_week: 600 * MINUTE }, raiseDelayMs: RAISE }, at + 3);
      assert.deepEqual(wallets.get(PLAYER)!.protection.limits.stake_week, { amount: 2000 }, 'a limit set and not asked is left as it is');
      assert.equal(journal.length, 4);
    });

    it("journals a block with its end, or without one for a block that does not end", async () => {
      const { protections, wallets } = store();
      await protections.changeProtection(PLAYER, { what: 'block', reason: 'minor', until: null }, at);
      await protections.changeProtection(PLAYER, { what: 'block', reason: 'identity', until: at + HOUR_MS }, at + 1);
      const [timed, open] = wallets.get(PLAYER)!.protection.journal;
      assert.deepEqual({ ...open, at: 0 }, { at: 0, by: 'operator', what: 'block', reason: 'minor' });
      assert.deepEqual({ ...timed, at: 0 }, { at: 0, by: 'operator', what: 'block', reason: 'identity', until: at + HOUR_MS });
    });

    it('extends an exclusion only, a first exclusion at any time', async () => {
      const { protections, wallets } = store();
      await protections.changeProtection(PLAYER, { what: 'exclusion', until: at + HOUR_MS }, at);
      await protections.changeProtection(PLAYER, { what: 'exclusion', until: at + HOUR_MS }, at);
      assert.equal(wallets.get(PLAYER)!.protection.journal.length, 1);
      assert.equal(wallets.get(PLAYER)!.protection.excludedUntil, at + HOUR_MS);
    });

    it('gives the newest 50 changes with the record, and refuses what is not a player id', async () => {
      const { protections } = store();
      for (let i = 0; i < 60; i++) await protections.changeProtection(PLAYER, { what: 'reality_check_interval', ms: i % 2 === 0 ? 20 * MINUTE : null }, at + i);
      const { history } = await protections.protectionRecord(PLAYER);
      assert.equal(history.length, 50);
      assert.equal(history[0]!.at, at + 59);
      await assert.rejects(protections.changeProtection('not a player', { what: 'unblock' }, at), /not a player id: not a player/);
    });
  });

  describe('a purchase counted', () => {
    it('keeps the latest purchase as the last played, even when a clock behind gives an earlier time', () => {
      const w = wallet();
      const now = H * HOUR_MS;
      countStake(w, { now, stake: 100 });
      countStake(w, { now: now - 5_000, stake: 100 });
      assert.equal(w.protection.lastPlayedAt, now);
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
      const fromFirst = new MemoryProtections({ ...books, wallets: new Map([['p2', wallet([line('stake', -200, 10), line('prize', 70, 20)])]]) });
      assert.deepEqual(await fromFirst.sessionMoney('p2', 0), { staked: 200, won: 70 }, 'the journal read down to its first line');
    });
  });
});
