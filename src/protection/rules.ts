import type { Cents } from '../money';
import {
  LIMIT_KINDS,
  PROTECTION_HISTORY_MAX,
  TIME_LIMIT_KINDS,
  type BlockReason,
  type ExclusionDuration,
  type LimitKind,
  type LimitView,
  type ProtectionChange,
  type ProtectionRefusalCode,
  type ProtectionState,
  type RefusalDetails,
  type TimeLimitKind,
  type TimeLimitView,
} from '../protocol/protection';

/**
 * Player protection's rules, shared by both stores (docs/responsible-gaming.md): the rolling
 * windows of stakes and deposits, when a limit change applies, the session of the reality
 * check, and the state as the player and the operator read it. The purchase step applies them
 * (memory.ts, lua/includes/protection.lua); nothing here reads a clock.
 */

export const HOUR_MS = 3_600_000;
/** The protection journal keeps its newest lines (changeProtection-3.lua's JOURNAL_KEEP). */
export const PROTECTION_JOURNAL_KEEP = 1000;
/**
 * The windows, in hour buckets. A stake (or deposit) counts in the bucket of its hour, until
 * that hour's end plus the window: never freed early, at most an hour late.
 */
export const WINDOW_HOURS: Readonly<Record<LimitKind | TimeLimitKind, number>> = { stake_week: 168, stake_day: 24, deposit_week: 168, time_week: 168, time_day: 24 };

/**
 * Time played (docs/responsible-gaming.md): the time from each purchase of a player to their
 * next, a pause counted up to this bound (the time of finishing the unit bought, at most), and
 * the time since their last purchase the same way. Each purchase counts the gap it ends in the
 * bucket of its hour; the gap still open counts live.
 */
export const PLAYED_GAP_MS = 2 * 60_000;

/** The part of the gap from the last purchase (`lastAt`) to `now` that counts as time played. */
export function playedSince(lastAt: number | null, now: number): number {
  return lastAt === null ? 0 : Math.min(PLAYED_GAP_MS, Math.max(0, now - lastAt));
}

/** What the purchase step and the state need of the server's settings. */
export interface ProtectionSettings {
  /** REALITY_CHECK_MINUTES in ms: play since the session began (or its last acknowledgement) before a check. */
  readonly realityCheckMs: number;
  /** SESSION_IDLE_MINUTES in ms: a session ends after this long without a purchase. */
  readonly sessionIdleMs: number;
}

/** A limit as stored: its amount, and a raise or removal waiting until `effectiveAt`. */
export interface StoredLimit {
  readonly amount: Cents | null;
  readonly pending?: { readonly amount: Cents | null; readonly effectiveAt: number };
}

export const NO_LIMIT: StoredLimit = { amount: null };

/** The amount that applies at `now`: the pending one once its time came. */
export function effectiveLimit(limit: StoredLimit, now: number): Cents | null {
  return limit.pending && now >= limit.pending.effectiveAt ? limit.pending.amount : limit.amount;
}

/**
 * A limit after the player asks for `amount` (null: none) at `now`: a first limit or a lowering
 * applies at once and cancels a pending raise; a raise or a removal waits `raiseDelayMs`, and
 * the same raise asked again keeps its date.
 */
export function changedLimit(limit: StoredLimit, amount: Cents | null, now: number, raiseDelayMs: number): StoredLimit {
  const current = effectiveLimit(limit, now);
  if (current === null || (amount !== null && amount <= current)) return { amount };
  if (limit.pending && now < limit.pending.effectiveAt && limit.pending.amount === amount) return { amount: current, pending: limit.pending };
  return { amount: current, pending: { amount, effectiveAt: now + raiseDelayMs } };
}

/** A limit's text in the store: `<amount>|<pending amount>|<effective at>`, '' for none. */
export function encodeLimit(limit: StoredLimit): string {
  const pending = limit.pending ? `${limit.pending.amount ?? ''}|${limit.pending.effectiveAt}` : '|';
  return `${limit.amount ?? ''}|${pending}`;
}

export function decodeLimit(text: string | undefined | null): StoredLimit {
  if (!text) return NO_LIMIT;
  const [amount, pending, at] = text.split('|') as [string, string?, string?];
  const stored: StoredLimit = { amount: amount === '' ? null : Number(amount) };
  return at === undefined || at === '' ? stored : { ...stored, pending: { amount: pending === '' ? null : Number(pending), effectiveAt: Number(at) } };
}

const DAY_MS = 24 * HOUR_MS;

/** When a self-exclusion asked at `now` ends: hours and days exactly, months by the calendar (UTC). */
export function exclusionEnd(duration: ExclusionDuration, now: number): number {
  switch (duration) {
    case '24h':
      return now + DAY_MS;
    case '7d':
      return now + 7 * DAY_MS;
    case '30d':
      return now + 30 * DAY_MS;
    default: {
      const end = new Date(now);
      end.setUTCMonth(end.getUTCMonth() + Number(duration.slice(0, -1)));
      return end.getTime();
    }
  }
}

/** The session of the reality check as stored: when it began, its last purchase, its last check. */
export interface StoredSession {
  readonly startedAt: number;
  readonly lastAt: number;
  readonly checkedAt: number;
}

/** The settings with the player's reality check interval, when shorter than the server's. */
export function withPlayerInterval(settings: ProtectionSettings, chosenMs: number | null): ProtectionSettings {
  return chosenMs !== null && chosenMs < settings.realityCheckMs ? { ...settings, realityCheckMs: chosenMs } : settings;
}

/** The session still open at `now` (a purchase less than `sessionIdleMs` ago), if any. */
export function openSession(session: StoredSession | undefined, now: number, settings: ProtectionSettings): StoredSession | undefined {
  return session && now - session.lastAt < settings.sessionIdleMs ? session : undefined;
}

/** Whether the open session's reality check is due at `now`: its interval run since the session began or was last checked. */
export function realityCheckDue(session: StoredSession | undefined, now: number, settings: ProtectionSettings): boolean {
  const open = openSession(session, now, settings);
  return open !== undefined && now - open.checkedAt >= settings.realityCheckMs;
}

export function decodeBlock(text: string | undefined | null): { reason: BlockReason; until: number | null } | null {
  if (!text) return null;
  const [reason, until] = text.split('|') as [string, string?];
  return { reason: reason as BlockReason, until: until === undefined || until === '' ? null : Number(until) };
}

/** An hour bucket of a rolling window: the cents counted in hour `hour` (⌊time / HOUR_MS⌋). */
export interface HourBucket {
  readonly hour: number;
  readonly cents: Cents;
}

/** The stake limits the operator holds for a player (given at launch): null, none. */
export interface OperatorLimits {
  readonly stake_week: Cents | null;
  readonly stake_day: Cents | null;
}

export const NO_OPERATOR_LIMITS: OperatorLimits = { stake_week: null, stake_day: null };

/** The limit that decides: the stricter of the player's own and the operator's, and whose it is; null without either. */
export function stricterLimit(own: Cents | null, operator: Cents | null): { readonly amount: Cents; readonly source: LimitSource } | null {
  if (operator !== null && (own === null || operator < own)) return { amount: operator, source: 'operator' };
  return own === null ? null : { amount: own, source: 'player' };
}

/** Whose rule refused: the player's own, or the operator's. */
export type LimitSource = NonNullable<RefusalDetails['source']>;

/** Everything a store holds of a player's protection, as both stores read it. */
export interface ProtectionRecord {
  readonly limits: Readonly<Record<LimitKind, StoredLimit>>;
  readonly operatorLimits: OperatorLimits;
  /** The stake buckets still counted in the week, oldest first. */
  readonly stakes: readonly HourBucket[];
  /** The deposit buckets still counted in the week, oldest first. */
  readonly deposits: readonly HourBucket[];
  readonly excludedUntil: number | null;
  readonly blocked: { readonly reason: BlockReason; readonly until: number | null } | null;
  readonly session: StoredSession | undefined;
  readonly timeLimits: Readonly<Record<TimeLimitKind, StoredLimit>>;
  /** Time played (ms) in hour buckets still counted in the week, oldest first. */
  readonly played: readonly HourBucket[];
  /** The player's last purchase (ms), from which the open gap counts; null before the first. */
  readonly lastPlayedAt: number | null;
  /** The player's reality check interval (ms), null for the server's. */
  readonly realityCheckMs: number | null;
}

/** What the journal says of the open session: the stakes and prizes since it began. */
export interface SessionMoney {
  readonly staked: Cents;
  readonly won: Cents;
}

function limitView(kind: LimitKind, limit: StoredLimit, operator: Cents | null, buckets: readonly HourBucket[], now: number): LimitView {
  const amount = effectiveLimit(limit, now);
  const firstCounted = Math.floor(now / HOUR_MS) - WINDOW_HOURS[kind];
  const counted = buckets.filter((b) => b.hour >= firstCounted && b.cents > 0);
  const used = counted.reduce((sum, b) => sum + b.cents, 0);
  const pending = limit.pending && now < limit.pending.effectiveAt ? { pending: limit.pending } : {};
  return {
    kind,
    amount,
    ...pending,
    used,
    left: amount === null ? null : Math.max(0, amount - used),
    nextFreeAt: counted.length === 0 ? null : freedAt(kind, counted[0]!.hour),
    ...(operator === null ? {} : { operator: { amount: operator, left: Math.max(0, operator - used) } }),
  };
}

/** A playing-time limit as the player reads it: the buckets counted in its window, and the open gap. */
function timeLimitView(kind: TimeLimitKind, limit: StoredLimit, record: ProtectionRecord, now: number): TimeLimitView {
  const amount = effectiveLimit(limit, now);
  const firstCounted = Math.floor(now / HOUR_MS) - WINDOW_HOURS[kind];
  const counted = record.played.filter((b) => b.hour >= firstCounted && b.cents > 0);
  const used = counted.reduce((sum, b) => sum + b.cents, 0) + playedSince(record.lastPlayedAt, now);
  const pending = limit.pending && now < limit.pending.effectiveAt ? { pending: limit.pending } : {};
  return { kind, amount, ...pending, used, left: amount === null ? null : Math.max(0, amount - used), nextFreeAt: counted.length === 0 ? null : freedAt(kind, counted[0]!.hour) };
}

/** When the cents (or ms) of bucket `hour` leave the window of `kind`. */
export function freedAt(kind: LimitKind | TimeLimitKind, hour: number): number {
  return (hour + 1 + WINDOW_HOURS[kind]) * HOUR_MS;
}

/** The state a player (or the operator) reads, from the store's record, journal and history. */
export function protectionView(
  record: ProtectionRecord,
  money: SessionMoney,
  history: readonly ProtectionChange[],
  now: number,
  settings: ProtectionSettings,
): ProtectionState {
  const serverMs = settings.realityCheckMs;
  settings = withPlayerInterval(settings, record.realityCheckMs);
  const operatorLimit = (kind: LimitKind) => (kind === 'deposit_week' ? null : record.operatorLimits[kind]);
  const limits = LIMIT_KINDS.map((kind) => limitView(kind, record.limits[kind], operatorLimit(kind), kind === 'deposit_week' ? record.deposits : record.stakes, now));
  const session = openSession(record.session, now, settings);
  return {
    limits,
    timeLimits: TIME_LIMIT_KINDS.map((kind) => timeLimitView(kind, record.timeLimits[kind], record, now)),
    // The operator's weekly limit is one set: the player may play within it.
    stakeLimitSet: limits[0]!.amount !== null || record.operatorLimits.stake_week !== null,
    excludedUntil: record.excludedUntil !== null && record.excludedUntil > now ? record.excludedUntil : null,
    blocked: record.blocked && (record.blocked.until === null || record.blocked.until > now) ? record.blocked : null,
    session: {
      startedAt: session?.startedAt ?? null,
      playedMs: session ? now - session.startedAt : 0,
      staked: session ? money.staked : 0,
      won: session ? money.won : 0,
      net: session ? money.won - money.staked : 0,
      realityCheckEveryMs: settings.realityCheckMs,
      realityCheckChosenMs: record.realityCheckMs,
      realityCheckServerMs: serverMs,
      realityCheckDue: realityCheckDue(record.session, now, settings),
    },
    history: history.slice(0, PROTECTION_HISTORY_MAX),
    now,
  };
}

/** A refusal of the purchase step or of a deposit for the player's protection. */
export interface ProtectionRefusal {
  readonly ok: false;
  readonly code: ProtectionRefusalCode;
  readonly message: string;
  readonly details?: RefusalDetails;
}

export function blockedRefusal(until: number | null): ProtectionRefusal {
  // The reason is the operator's: the player's answer never says it.
  return { ok: false, code: 'protection/blocked', message: 'play is blocked on this account', details: { until } };
}

export function excludedRefusal(until: number): ProtectionRefusal {
  return { ok: false, code: 'protection/excluded', message: `you excluded yourself from play until ${new Date(until).toISOString()}`, details: { until } };
}

export function limitNotSetRefusal(): ProtectionRefusal {
  return { ok: false, code: 'limit/not_set', message: 'set your weekly stake limit before your first stake' };
}

export function realityCheckRefusal(playedMs: number, net: Cents): ProtectionRefusal {
  return {
    ok: false,
    code: 'protection/reality_check',
    message: `you have played ${Math.floor(playedMs / 60_000)} minutes this session: acknowledge the summary to go on`,
    details: { playedMs, net },
  };
}

export function limitRefusal(limit: LimitKind, left: Cents, nextFreeAt: number | null, source: LimitSource = 'player'): ProtectionRefusal {
  const what = limit === 'deposit_week' ? 'deposits of the last 7 days' : limit === 'stake_day' ? 'stakes of the last 24 hours' : 'stakes of the last 7 days';
  const whose = source === 'operator' ? "the operator's limit" : 'your limit';
  return {
    ok: false,
    code: `limit/${limit}`,
    message: `this would take your ${what} above ${whose}: ${left} cents left`,
    details: { limit, left, nextFreeAt, source },
  };
}

/** A purchase refused because the time played in `limit`'s window reached it: play again from `nextFreeAt`. */
export function timeLimitRefusal(limit: TimeLimitKind, left: number, nextFreeAt: number | null): ProtectionRefusal {
  const what = limit === 'time_day' ? 'the last 24 hours' : 'the last 7 days';
  return {
    ok: false,
    code: `limit/${limit}`,
    message: `your playing time of ${what} reached your limit${nextFreeAt === null ? '' : `: play again from ${new Date(nextFreeAt).toISOString()}`}`,
    details: { limit, left, nextFreeAt },
  };
}

/** Thrown by `Wallets.deposit` when the weekly deposit limit refuses it (deposits answer a balance). */
