import type { Cents } from '../money';
import { LIMIT_KINDS, PROTECTION_HISTORY_MAX, TIME_LIMIT_KINDS, type BlockReason, type LimitKind, type ProtectionChange, type TimeLimitKind } from '../protocol/protection';
import { isPlayerId } from '../ids';
import {
  blockedRefusal,
  changedLimit,
  effectiveLimit,
  encodeLimit,
  excludedRefusal,
  freedAt,
  HOUR_MS,
  limitNotSetRefusal,
  limitRefusal,
  NO_LIMIT,
  NO_OPERATOR_LIMITS,
  openSession,
  PLAYED_GAP_MS,
  playedSince,
  PROTECTION_JOURNAL_KEEP,
  realityCheckDue,
  realityCheckRefusal,
  stricterLimit,
  timeLimitRefusal,
  WINDOW_HOURS,
  withPlayerInterval,
  type HourBucket,
  type OperatorLimits,
  type ProtectionRecord,
  type ProtectionRefusal,
  type ProtectionSettings,
  type SessionMoney,
  type StoredLimit,
  type StoredSession,
} from './rules';
import type { JournalLine } from '../protocol/wallet';
import type { ProtectionUpdate, Protections } from './types';

/** What the checks read of a player's wallet in the memory books (books.ts's wallets). */
export interface ProtectedWallet {
  readonly protection: MemoryProtection;
  readonly journal: readonly JournalLine[];
}

/** What `MemoryProtections` reads of the memory books (books.ts). */
interface ProtectedBooks {
  readonly wallets: ReadonlyMap<string, ProtectedWallet>;
  walletOf(playerId: string): ProtectedWallet;
  /** The archive's outbox: each protection journal line added is also an entry. */
  readonly outbox: { protection(playerId: string, change: object): void };
}

/**
 * A rolling window of hour buckets with running totals over the week and the last day: each
 * bucket is added once and passed once by each total's start, so O(1) amortized per stake.
 * Its amounts are cents, or ms of time played.
 */
export class HourWindow {
  private buckets: { hour: number; cents: Cents }[] = [];
  private weekStart = 0;
  private dayStart = 0;
  private weekSum = 0;
  private daySum = 0;

  /** Drops what left the week and the day at hour `nowHour`; the totals then. */
  advance(nowHour: number): { week: Cents; day: Cents; weekFreeAt: number | null; dayFreeAt: number | null } {
    const { buckets } = this;
    while (this.dayStart < buckets.length && buckets[this.dayStart]!.hour < nowHour - WINDOW_HOURS.stake_day) this.daySum -= buckets[this.dayStart++]!.cents;
    while (this.weekStart < buckets.length && buckets[this.weekStart]!.hour < nowHour - WINDOW_HOURS.stake_week) this.weekSum -= buckets[this.weekStart++]!.cents;
    if (this.weekStart > 64) {
      this.buckets = buckets.slice(this.weekStart);
      this.dayStart -= this.weekStart;
      this.weekStart = 0;
    }
    const week = this.buckets[this.weekStart];
    const day = this.buckets[this.dayStart];
    return {
      week: this.weekSum,
      day: this.daySum,
      weekFreeAt: week ? freedAt('stake_week', week.hour) : null,
      dayFreeAt: day ? freedAt('stake_day', day.hour) : null,
    };
  }

  /** Counts `cents` at `hour`, or in the newest bucket when a clock behind gives an earlier hour (later is never early). */
  add(hour: number, cents: Cents): void {
    const last = this.buckets[this.buckets.length - 1];
    if (last && hour <= last.hour && this.weekStart < this.buckets.length) last.cents += cents;
    else this.buckets.push({ hour, cents });
    this.weekSum += cents;
    this.daySum += cents;
  }

  counted(): HourBucket[] {
    return this.buckets.slice(this.weekStart).map((b) => ({ ...b }));
  }

  /**
   * When the amounts counted (after `advance`) fall below `below`, bucket after bucket leaving
   * the week or the day: that bucket's end of window; null if none does.
   */
  freedBelow(below: number, window: 'week' | 'day'): number | null {
    const start = window === 'week' ? this.weekStart : this.dayStart;
    let left = window === 'week' ? this.weekSum : this.daySum;
    for (let i = start; i < this.buckets.length; i++) {
      left -= this.buckets[i]!.cents;
      if (left < below) return freedAt(window === 'week' ? 'time_week' : 'time_day', this.buckets[i]!.hour);
    }
    return null;
  }
}

/** One player's protection in memory. */
export interface MemoryProtection {
  readonly limits: Record<LimitKind, StoredLimit>;
  operatorLimits: OperatorLimits;
  readonly stakes: HourWindow;
  readonly deposits: HourWindow;
  excludedUntil: number | null;
  blocked: { reason: BlockReason; until: number | null } | null;
  session: StoredSession | undefined;
  readonly timeLimits: Record<TimeLimitKind, StoredLimit>;
  /** Time played (ms), counted by each purchase in the bucket of its hour. */
  readonly played: HourWindow;
  /** The last purchase (ms), null before the first: the open gap counts from it. */
  lastPlayedAt: number | null;
  /** The player's reality check interval (ms), null for the server's. */
  realityCheckMs: number | null;
  /** Newest first. */
  readonly journal: ProtectionChange[];
}

export function newProtection(): MemoryProtection {
  return {
    limits: { stake_week: NO_LIMIT, stake_day: NO_LIMIT, deposit_week: NO_LIMIT },
    operatorLimits: NO_OPERATOR_LIMITS,
    stakes: new HourWindow(),
    deposits: new HourWindow(),
    excludedUntil: null,
    blocked: null,
    session: undefined,
    timeLimits: { time_day: NO_LIMIT, time_week: NO_LIMIT },
    played: new HourWindow(),
    lastPlayedAt: null,
    realityCheckMs: null,
    journal: [],
  };
}

/**
 * The purchase step's protection checks, in order: block, self-exclusion, (with
 * `request.protection`) a weekly limit set and the reality check, then the week's and the
 * day's stakes. Before the balance's: a blocked player is told so, not that the balance is low.
 */
/** What the checks read of a purchase (the dealer's `PurchaseRequest`). */
interface StakeRequest {
  readonly now: number;
  readonly stake: Cents;
  readonly protection?: ProtectionSettings;
}

export function stakeRefusal(wallet: ProtectedWallet, request: StakeRequest): ProtectionRefusal | undefined {
  const p = wallet.protection;
  const { now, stake } = request;
  const settings = request.protection && withPlayerInterval(request.protection, p.realityCheckMs);
  if (p.blocked && (p.blocked.until === null || p.blocked.until > now)) return blockedRefusal(p.blocked.until);
  if (p.excludedUntil !== null && p.excludedUntil > now) return excludedRefusal(p.excludedUntil);
  // The stricter of the player's limit and the operator's decides (`source` says whose).
  const week = stricterLimit(effectiveLimit(p.limits.stake_week, now), p.operatorLimits.stake_week);
  if (settings && week === null) return limitNotSetRefusal();
  if (settings && realityCheckDue(p.session, now, settings)) {
    const session = p.session!;
    const money = moneySince(wallet, session.startedAt);
    return realityCheckRefusal(now - session.startedAt, money.won - money.staked);
  }
  const timeRefused = playedRefusal(p, now);
  if (timeRefused) return timeRefused;
  const used = p.stakes.advance(Math.floor(now / HOUR_MS));
  if (week !== null && used.week + stake > week.amount) return limitRefusal('stake_week', Math.max(0, week.amount - used.week), used.weekFreeAt, week.source);
  const day = stricterLimit(effectiveLimit(p.limits.stake_day, now), p.operatorLimits.stake_day);
  if (day !== null && used.day + stake > day.amount) return limitRefusal('stake_day', Math.max(0, day.amount - used.day), used.dayFreeAt, day.source);
  return undefined;
}

/**
 * The playing-time limits (weekly, then daily): refused once the time played at `now`, the
 * open gap counted, reaches a limit; play is possible again when what is counted falls one
 * pause bound below it.
 */
function playedRefusal(p: MemoryProtection, now: number): ProtectionRefusal | undefined {
  const played = p.played.advance(Math.floor(now / HOUR_MS));
  const open = playedSince(p.lastPlayedAt, now);
  for (const [kind, used, window] of [['time_week', played.week, 'week'], ['time_day', played.day, 'day']] as const) {
    const limit = effectiveLimit(p.timeLimits[kind], now);
    if (limit !== null && used + open >= limit) return timeLimitRefusal(kind, 0, p.played.freedBelow(limit - PLAYED_GAP_MS, window));
  }
  return undefined;
}

/** Counts the gap a purchase ends as time played, in the bucket of its hour. */
function countPlayed(p: MemoryProtection, now: number): void {
  p.played.add(Math.floor(now / HOUR_MS), playedSince(p.lastPlayedAt, now));
  p.lastPlayedAt = Math.max(p.lastPlayedAt ?? now, now);
}

/** Counts a sold stake in the windows and its time played, and keeps the session (with `request.protection`). */
export function countStake(wallet: ProtectedWallet, request: StakeRequest): void {
  const p = wallet.protection;
  const { now, protection: settings } = request;
  p.stakes.add(Math.floor(now / HOUR_MS), request.stake);
  countPlayed(p, now);
  if (!settings) return;
  const session = openSession(p.session, now, settings);
  p.session = session ? { ...session, lastAt: Math.max(session.lastAt, now) } : { startedAt: now, lastAt: now, checkedAt: now };
}

/** The weekly deposit limit's check; on a pass the deposit is counted. */
export function depositRefusal(wallet: ProtectedWallet, amount: Cents, now: number): ProtectionRefusal | undefined {
  const p = wallet.protection;
  const hour = Math.floor(now / HOUR_MS);
  const used = p.deposits.advance(hour);
  const limit = effectiveLimit(p.limits.deposit_week, now);
  if (limit !== null && used.week + amount > limit) return limitRefusal('deposit_week', Math.max(0, limit - used.week), used.weekFreeAt);
  p.deposits.add(hour, amount);
  return undefined;
}

/** The stakes and prizes of a journal at or after `since`, read from its end. */
function moneySince(wallet: ProtectedWallet | undefined, since: number): SessionMoney {
  let staked = 0;
  let won = 0;
  const journal = wallet?.journal ?? [];
  for (let i = journal.length - 1; i >= 0 && journal[i]!.at >= since; i--) {
    const line = journal[i]!;
    if (line.kind === 'stake') staked -= line.amount;
    else if (line.kind === 'prize') won += line.amount;
  }
  return { staked, won };
}

/** The playing-time limits of a `limits` change: the stake limits' rules, journaled the same way. */
function changeTimeLimits(
  p: MemoryProtection,
  update: Extract<ProtectionUpdate, { what: 'limits' }>,
  now: number,
  journal: (change: Omit<ProtectionChange, 'at' | 'by'>) => void,
): void {
  for (const kind of TIME_LIMIT_KINDS) {
    const amount = update.limits[kind];
    if (amount === undefined) continue;
    const next = changedLimit(p.timeLimits[kind], amount, now, update.raiseDelayMs);
    if (encodeLimit(next) === encodeLimit(p.timeLimits[kind])) continue;
    p.timeLimits[kind] = next;
    journal({ what: 'limit', kind, amount, effectiveAt: next.pending?.effectiveAt ?? now });
  }
}

export class MemoryProtections implements Protections {
  constructor(private readonly books: ProtectedBooks) {}

  async protectionRecord(playerId: string): Promise<{ record: ProtectionRecord; history: ProtectionChange[] }> {
    const p = (isPlayerId(playerId) ? this.books.wallets.get(playerId)?.protection : undefined) ?? newProtection();
    return {
      record: {
        limits: { ...p.limits },
        operatorLimits: p.operatorLimits,
        stakes: p.stakes.counted(),
        deposits: p.deposits.counted(),
        excludedUntil: p.excludedUntil,
        blocked: p.blocked && { ...p.blocked },
        session: p.session,
        timeLimits: { ...p.timeLimits },
        played: p.played.counted(),
        lastPlayedAt: p.lastPlayedAt,
        realityCheckMs: p.realityCheckMs,
      },
      history: p.journal.slice(0, PROTECTION_HISTORY_MAX),
    };
  }

  async sessionMoney(playerId: string, since: number): Promise<SessionMoney> {
    return moneySince(this.books.wallets.get(playerId), since);
  }

  async changeProtection(playerId: string, update: ProtectionUpdate, now: number): Promise<void> {
    if (!isPlayerId(playerId)) throw new RangeError(`not a player id: ${playerId}`);
    const p = this.books.walletOf(playerId).protection;
    const journal = (change: Omit<ProtectionChange, 'at' | 'by'>, by: ProtectionChange['by'] = 'player') => {
      const line: ProtectionChange = { at: now, by, ...change };
      p.journal.unshift(line);
      p.journal.length = Math.min(p.journal.length, PROTECTION_JOURNAL_KEEP);
      this.books.outbox.protection(playerId, line);
    };
    switch (update.what) {
      case 'limits':
        for (const kind of LIMIT_KINDS) {
          const amount = update.limits[kind];
          if (amount === undefined) continue;
          const next = changedLimit(p.limits[kind], amount, now, update.raiseDelayMs);
          // Asked again as it stands (the same limit, the same pending raise): nothing changes, nothing is journaled.
          if (encodeLimit(next) === encodeLimit(p.limits[kind])) continue;
          p.limits[kind] = next;
          journal({ what: 'limit', kind, amount, effectiveAt: next.pending?.effectiveAt ?? now });
        }
        changeTimeLimits(p, update, now, journal);
        return;
      case 'operator_limits':
        for (const kind of ['stake_week', 'stake_day'] as const) {
          const amount = update.limits[kind];
          if (amount !== p.operatorLimits[kind]) journal({ what: 'limit', kind, amount, effectiveAt: now }, 'operator');
        }
        p.operatorLimits = update.limits;
        return;
      case 'exclusion':
        // An end no later than the one set changes nothing, and journals nothing.
        if (p.excludedUntil !== null && update.until <= p.excludedUntil) return;
        p.excludedUntil = update.until;
        journal({ what: 'exclusion', until: p.excludedUntil });
        return;
      case 'block':
        p.blocked = { reason: update.reason, until: update.until };
        journal({ what: 'block', reason: update.reason, ...(update.until === null ? {} : { until: update.until }) }, 'operator');
        return;
      case 'unblock':
        p.blocked = null;
        journal({ what: 'unblock' }, 'operator');
        return;
      case 'reality_check_ack':
        // Only a check that is due: one acknowledged before changes nothing, and journals nothing.
        if (!realityCheckDue(p.session, now, withPlayerInterval(update.settings, p.realityCheckMs))) return;
        p.session = { ...p.session!, checkedAt: now };
        journal({ what: 'reality_check_ack' });
        return;
      case 'reality_check_interval':
        if (p.realityCheckMs === update.ms) return;
        p.realityCheckMs = update.ms;
        journal({ what: 'reality_check_interval', amount: update.ms });
        return;
      case 'refusal': {
        const last = p.journal[0];
        if (last?.what === 'refusal' && last.code === update.code) {
          p.journal[0] = { ...last, at: Math.max(last.at, now), count: (last.count ?? 1) + 1 };
        } else journal({ what: 'refusal', code: update.code, count: 1, firstAt: now });
        return;
      }
    }
  }
}
