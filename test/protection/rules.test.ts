import { strict as assert } from 'node:assert';
import type { ProtectionChange } from '../../src/protocol/protection';
import {
  blockedRefusal,
  changedLimit,
  decodeBlock,
  decodeLimit,
  effectiveLimit,
  encodeLimit,
  excludedRefusal,
  exclusionEnd,
  freedAt,
  HOUR_MS,
  limitNotSetRefusal,
  limitRefusal,
  NO_LIMIT,
  NO_OPERATOR_LIMITS,
  openSession,
  PLAYED_GAP_MS,
  playedSince,
  protectionView,
  realityCheckDue,
  realityCheckRefusal,
  stricterLimit,
  timeLimitRefusal,
  withPlayerInterval,
  type ProtectionRecord,
} from '../../src/protection/rules';

const MINUTE = 60_000;
const DAY = 24 * HOUR_MS;
const RAISE = 48 * HOUR_MS;
const SETTINGS = { realityCheckMs: 60 * MINUTE, sessionIdleMs: 30 * MINUTE };
/** Some hour boundary, so that buckets are easy to place. */
const T = 1_000 * HOUR_MS;

const RECORD: ProtectionRecord = {
  limits: { stake_week: NO_LIMIT, stake_day: NO_LIMIT, deposit_week: NO_LIMIT },
  operatorLimits: NO_OPERATOR_LIMITS,
  stakes: [],
  deposits: [],
  excludedUntil: null,
  blocked: null,
  session: undefined,
  timeLimits: { time_day: NO_LIMIT, time_week: NO_LIMIT },
  played: [],
  lastPlayedAt: null,
  realityCheckMs: null,
};

const view = (record: Partial<ProtectionRecord>, now = T, money = { staked: 0, won: 0 }, history: ProtectionChange[] = []) =>
  protectionView({ ...RECORD, ...record }, money, history, now, SETTINGS);

describe('protection rules', () => {
  describe('time played', () => {
    it('counts the gap since the last purchase up to its bound, never below zero, nothing before a first purchase', () => {
      assert.equal(playedSince(null, T), 0);
      assert.equal(playedSince(T, T + 30_000), 30_000);
      assert.equal(playedSince(T, T + PLAYED_GAP_MS), PLAYED_GAP_MS);
      assert.equal(playedSince(T, T + PLAYED_GAP_MS + 1), PLAYED_GAP_MS);
      assert.equal(playedSince(T, T - 5), 0);
    });
  });

  describe('a limit change', () => {
    it('applies a pending raise from its exact time, not a millisecond before', () => {
      const limit = { amount: 1000, pending: { amount: 5000, effectiveAt: T } };
      assert.equal(effectiveLimit(limit, T - 1), 1000);
      assert.equal(effectiveLimit(limit, T), 5000);
      assert.equal(effectiveLimit({ amount: 1000, pending: { amount: null, effectiveAt: T } }, T), null);
    });

    it('sets a first limit and a lowering at once, and a lowering cancels a pending raise', () => {
      assert.deepEqual(changedLimit(NO_LIMIT, 2000, T, RAISE), { amount: 2000 });
      assert.deepEqual(changedLimit({ amount: 2000 }, 1500, T, RAISE), { amount: 1500 });
      assert.deepEqual(changedLimit({ amount: 2000 }, 2000, T, RAISE), { amount: 2000 });
      assert.deepEqual(changedLimit({ amount: 2000, pending: { amount: 9000, effectiveAt: T + HOUR_MS } }, 1000, T, RAISE), { amount: 1000 });
    });

    it('makes a raise or a removal wait the delay, and keeps the date of the same raise asked again', () => {
      const raised = changedLimit({ amount: 2000 }, 3000, T, RAISE);
      assert.deepEqual(raised, { amount: 2000, pending: { amount: 3000, effectiveAt: T + RAISE } });
      assert.deepEqual(changedLimit(raised, 3000, T + HOUR_MS, RAISE), raised);
      assert.deepEqual(changedLimit(raised, 4000, T + HOUR_MS, RAISE), { amount: 2000, pending: { amount: 4000, effectiveAt: T + HOUR_MS + RAISE } });
      assert.deepEqual(changedLimit({ amount: 2000 }, null, T, RAISE), { amount: 2000, pending: { amount: null, effectiveAt: T + RAISE } });
    });

    it('after a raise applied, a new raise waits from then and starts from the raised amount', () => {
      const raised = { amount: 2000, pending: { amount: 3000, effectiveAt: T } };
      assert.deepEqual(changedLimit(raised, 3000, T, RAISE), { amount: 3000 });
      assert.deepEqual(changedLimit(raised, 4000, T, RAISE), { amount: 3000, pending: { amount: 4000, effectiveAt: T + RAISE } });
    });

    it('stores a limit as text and reads it back, a pending removal included', () => {
      for (const limit of [NO_LIMIT, { amount: 2000 }, { amount: 2000, pending: { amount: 3000, effectiveAt: T } }, { amount: 2000, pending: { amount: null, effectiveAt: T } }]) {
        assert.deepEqual(decodeLimit(encodeLimit(limit)), limit);
      }
      assert.equal(encodeLimit({ amount: 2000, pending: { amount: null, effectiveAt: T } }), `2000||${T}`);
      assert.equal(encodeLimit(NO_LIMIT), '||');
      assert.deepEqual(decodeLimit('2000'), { amount: 2000 }, 'an amount alone');
      assert.deepEqual(decodeLimit(''), NO_LIMIT);
      assert.deepEqual(decodeLimit(undefined), NO_LIMIT);
    });
  });

  describe('a self-exclusion', () => {
    it('ends after exact hours and days, and after calendar months', () => {
      assert.equal(exclusionEnd('24h', T), T + DAY);
      assert.equal(exclusionEnd('7d', T), T + 7 * DAY);
      assert.equal(exclusionEnd('30d', T), T + 30 * DAY);
      const start = Date.UTC(2026, 0, 15, 10);
      assert.equal(exclusionEnd('3m', start), Date.UTC(2026, 3, 15, 10));
      assert.equal(exclusionEnd('6m', start), Date.UTC(2026, 6, 15, 10));
      assert.equal(exclusionEnd('12m', start), Date.UTC(2027, 0, 15, 10));
    });
  });

  describe('the reality check', () => {
    const session = { startedAt: T, lastAt: T + 10 * MINUTE, checkedAt: T };

    it("takes the player's interval only when it is shorter than the server's", () => {
      assert.equal(withPlayerInterval(SETTINGS, null), SETTINGS);
      assert.equal(withPlayerInterval(SETTINGS, SETTINGS.realityCheckMs), SETTINGS);
      assert.equal(withPlayerInterval(SETTINGS, SETTINGS.realityCheckMs + 1), SETTINGS);
      assert.deepEqual(withPlayerInterval(SETTINGS, 20 * MINUTE), { ...SETTINGS, realityCheckMs: 20 * MINUTE });
    });

    it('keeps a session open until exactly its idle time after its last purchase', () => {
      assert.equal(openSession(undefined, T, SETTINGS), undefined);
      assert.equal(openSession(session, session.lastAt + SETTINGS.sessionIdleMs - 1, SETTINGS), session);
      assert.equal(openSession(session, session.lastAt + SETTINGS.sessionIdleMs, SETTINGS), undefined);
    });

    it('is due from exactly its interval after the last check, and never in a closed session', () => {
      assert.equal(realityCheckDue(session, T + SETTINGS.realityCheckMs - 1, { ...SETTINGS, sessionIdleMs: DAY }), false);
      assert.equal(realityCheckDue(session, T + SETTINGS.realityCheckMs, { ...SETTINGS, sessionIdleMs: DAY }), true);
      assert.equal(realityCheckDue(session, T + SETTINGS.realityCheckMs, SETTINGS), false, 'idle for longer than the session lasts');
      assert.equal(realityCheckDue(undefined, T + DAY, SETTINGS), false);
    });

    it('says the minutes played and the net of the session', () => {
      const refusal = realityCheckRefusal(61 * MINUTE + 59_000, -350);
      assert.equal(refusal.code, 'protection/reality_check');
      assert.match(refusal.message, /played 61 minutes/);
      assert.deepEqual(refusal.details, { playedMs: 61 * MINUTE + 59_000, net: -350 });
    });
  });

  describe("the operator's limits", () => {
    it('take the stricter of the two, the player’s when equal, and say whose', () => {
      assert.equal(stricterLimit(null, null), null);
      assert.deepEqual(stricterLimit(2000, null), { amount: 2000, source: 'player' });
      assert.deepEqual(stricterLimit(null, 3000), { amount: 3000, source: 'operator' });
      assert.deepEqual(stricterLimit(2000, 1999), { amount: 1999, source: 'operator' });
      assert.deepEqual(stricterLimit(2000, 2000), { amount: 2000, source: 'player' });
      assert.deepEqual(stricterLimit(2000, 2001), { amount: 2000, source: 'player' });
    });

    it("name whose limit refused", () => {
      assert.match(limitRefusal('stake_week', 100, null, 'operator').message, /the operator's limit: 100 cents left/);
      assert.match(limitRefusal('stake_day', 0, T).message, /stakes of the last 24 hours above your limit/);
      assert.match(limitRefusal('deposit_week', 0, T).message, /deposits of the last 7 days/);
      assert.match(limitRefusal('stake_week', 0, T).message, /take your stakes of the last 7 days above your limit: 0 cents left/);
      assert.deepEqual(limitRefusal('stake_week', 5, T).details, { limit: 'stake_week', left: 5, nextFreeAt: T, source: 'player' });
    });
  });

  describe('the window of a limit', () => {
    it('frees an hour bucket at the end of its hour plus the window', () => {
      assert.equal(freedAt('stake_day', T / HOUR_MS), T + HOUR_MS + DAY);
      assert.equal(freedAt('stake_week', T / HOUR_MS), T + HOUR_MS + 7 * DAY);
      assert.equal(freedAt('time_day', T / HOUR_MS), T + HOUR_MS + DAY);
    });

    it('counts the buckets of the window, not the hour before it, and says what is left and when the oldest frees', () => {
      const hour = T / HOUR_MS;
      const stakes = [
        { hour: hour - 25, cents: 700 }, // out of the day's window, in the week's
        { hour: hour - 24, cents: 300 }, // the day's oldest counted hour
        { hour: hour - 1, cents: 0 }, // an empty bucket frees nothing
        { hour, cents: 200 },
      ];
      const limits = { stake_week: { amount: 5000 }, stake_day: { amount: 400 }, deposit_week: NO_LIMIT };
      const [week, day, deposits] = view({ stakes, limits }).limits;
      assert.deepEqual(day, { kind: 'stake_day', amount: 400, used: 500, left: 0, nextFreeAt: freedAt('stake_day', hour - 24) });
      assert.deepEqual(week, { kind: 'stake_week', amount: 5000, used: 1200, left: 3800, nextFreeAt: freedAt('stake_week', hour - 25) });
      assert.deepEqual(deposits, { kind: 'deposit_week', amount: null, used: 0, left: null, nextFreeAt: null });
      const emptyFirst = view({ stakes: [{ hour: hour - 2, cents: 0 }, { hour, cents: 200 }], limits }).limits[0]!;
      assert.equal(emptyFirst.nextFreeAt, freedAt('stake_week', hour), 'an empty bucket is not the oldest counted');
    });

    it("shows a pending raise until it applies, and the operator's limit with what it leaves", () => {
      const limits = { stake_week: { amount: 1000, pending: { amount: 3000, effectiveAt: T + 1 } }, stake_day: NO_LIMIT, deposit_week: NO_LIMIT };
      const stakes = [{ hour: T / HOUR_MS, cents: 600 }];
      const operatorLimits = { stake_week: 800, stake_day: null };
      const before = view({ limits, stakes, operatorLimits }).limits[0]!;
      assert.deepEqual(before.pending, { amount: 3000, effectiveAt: T + 1 });
      assert.equal(before.left, 400);
      assert.deepEqual(before.operator, { amount: 800, left: 200 });
      const after = view({ limits, stakes, operatorLimits }, T + 1).limits[0]!;
      assert.equal(after.pending, undefined);
      assert.equal(after.amount, 3000);
      assert.equal(after.left, 2400);
      assert.equal(view({ limits, stakes }).limits[0]!.operator, undefined);
    });

    it('counts time played in its buckets and the gap still open, against the playing-time limits', () => {
      const hour = T / HOUR_MS;
      const played = [{ hour: hour - 26, cents: 0 }, { hour: hour - 25, cents: 5 * MINUTE }, { hour: hour - 24, cents: 10 * MINUTE }, { hour: hour - 3, cents: 20 * MINUTE }];
      const timeLimits = { time_day: { amount: 60 * MINUTE }, time_week: NO_LIMIT };
      const [day, week] = view({ played, timeLimits, lastPlayedAt: T - 30_000 }).timeLimits;
      assert.deepEqual(day, { kind: 'time_day', amount: 60 * MINUTE, used: 30 * MINUTE + 30_000, left: 29 * MINUTE + 30_000, nextFreeAt: freedAt('time_day', hour - 24) });
      assert.deepEqual(week, { kind: 'time_week', amount: null, used: 35 * MINUTE + 30_000, left: null, nextFreeAt: freedAt('time_week', hour - 25) });
      const idle = view({ timeLimits: { time_day: { amount: 60 * MINUTE, pending: { amount: null, effectiveAt: T + 1 } }, time_week: NO_LIMIT } }).timeLimits[0]!;
      assert.deepEqual(idle, { kind: 'time_day', amount: 60 * MINUTE, pending: { amount: null, effectiveAt: T + 1 }, used: 0, left: 60 * MINUTE, nextFreeAt: null });
      const applied = view({ timeLimits: { time_day: { amount: 60 * MINUTE, pending: { amount: null, effectiveAt: T } }, time_week: NO_LIMIT } }).timeLimits[0]!;
      assert.deepEqual(applied, { kind: 'time_day', amount: null, used: 0, left: null, nextFreeAt: null }, 'a removal applied at its time');
      assert.equal(view({ timeLimits: { time_day: { amount: MINUTE }, time_week: NO_LIMIT }, played: [{ hour, cents: 2 * MINUTE }] }).timeLimits[0]!.left, 0);
    });
  });

  describe("the player's state", () => {
    it("counts the operator's weekly limit as a limit set, not its daily one", () => {
      assert.equal(view({}).stakeLimitSet, false);
      assert.equal(view({ operatorLimits: { stake_week: 1000, stake_day: null } }).stakeLimitSet, true);
      assert.equal(view({ operatorLimits: { stake_week: null, stake_day: 1000 } }).stakeLimitSet, false);
      assert.equal(view({ limits: { ...RECORD.limits, stake_week: { amount: 1 } } }).stakeLimitSet, true);
    });

    it('shows an exclusion and a block until their end, not from it', () => {
      assert.equal(view({ excludedUntil: T + 1 }).excludedUntil, T + 1);
      assert.equal(view({ excludedUntil: T }).excludedUntil, null);
      assert.deepEqual(view({ blocked: { reason: 'minor', until: null } }).blocked, { reason: 'minor', until: null });
      assert.deepEqual(view({ blocked: { reason: 'identity', until: T + 1 } }).blocked, { reason: 'identity', until: T + 1 });
      assert.equal(view({ blocked: { reason: 'identity', until: T } }).blocked, null);
    });

    it('gives the open session its time and money, and a closed one none', () => {
      const session = { startedAt: T - 20 * MINUTE, lastAt: T - MINUTE, checkedAt: T - 20 * MINUTE };
      const open = view({ session, realityCheckMs: 15 * MINUTE }, T, { staked: 500, won: 200 }).session;
      assert.deepEqual(open, {
        startedAt: T - 20 * MINUTE, playedMs: 20 * MINUTE, staked: 500, won: 200, net: -300,
        realityCheckEveryMs: 15 * MINUTE, realityCheckChosenMs: 15 * MINUTE, realityCheckServerMs: SETTINGS.realityCheckMs, realityCheckDue: true,
      });
      const closed = view({ session }, T + SETTINGS.sessionIdleMs, { staked: 500, won: 200 }).session;
      assert.deepEqual(closed, {
        startedAt: null, playedMs: 0, staked: 0, won: 0, net: 0,
        realityCheckEveryMs: SETTINGS.realityCheckMs, realityCheckChosenMs: null, realityCheckServerMs: SETTINGS.realityCheckMs, realityCheckDue: false,
      });
    });

    it('keeps the newest 50 changes of the history', () => {
      const history = Array.from({ length: 60 }, (_, i): ProtectionChange => ({ at: T - i, by: 'player', what: 'limit' }));
      const shown = view({}, T, undefined, history).history;
      assert.equal(shown.length, 50);
      assert.equal(shown[0]!.at, T);
      assert.equal(view({}).now, T);
    });
  });

  describe('the refusals', () => {
    it('says when a playing-time limit frees, or nothing when it cannot say', () => {
      const refusal = timeLimitRefusal('time_day', 0, T);
      assert.equal(refusal.code, 'limit/time_day');
      assert.equal(refusal.message, `your playing time of the last 24 hours reached your limit: play again from ${new Date(T).toISOString()}`);
      assert.equal(timeLimitRefusal('time_week', 0, null).message, 'your playing time of the last 7 days reached your limit');
      assert.deepEqual(refusal.details, { limit: 'time_day', left: 0, nextFreeAt: T });
    });

    it('say why in words: a block, an exclusion and its end, a limit not set', () => {
      assert.equal(blockedRefusal(null).message, 'play is blocked on this account');
      assert.equal(excludedRefusal(T).message, `you excluded yourself from play until ${new Date(T).toISOString()}`);
      assert.equal(limitNotSetRefusal().message, 'set your weekly stake limit before your first stake');
    });

    it("reads a block's reason and end from its text", () => {
      assert.equal(decodeBlock(''), null);
      assert.equal(decodeBlock(undefined), null);
      assert.deepEqual(decodeBlock('minor|'), { reason: 'minor', until: null });
      assert.deepEqual(decodeBlock('minor'), { reason: 'minor', until: null });
      assert.deepEqual(decodeBlock(`identity|${T}`), { reason: 'identity', until: T });
    });
  });
});
