import type { Cents } from './money';

/**
 * Player protection as the page and the operator see it (docs/responsible-gaming.md): the
 * limits a player sets, their self-exclusion, the operator's block, the session's reality check,
 * and the journal of every change. The dealer enforces all of it in the purchase step itself.
 */

/** The limits a player may set, in the order `ProtectionState.limits` lists them. */
export const LIMIT_KINDS = ['stake_week', 'stake_day', 'deposit_week'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/**
 * The playing-time limits, in ms of time played (docs/responsible-gaming.md, "Time played"):
 * over the last 24 hours and the last 7 days, with the stake limits' rules of change.
 */
export const TIME_LIMIT_KINDS = ['time_day', 'time_week'] as const;
export type TimeLimitKind = (typeof TIME_LIMIT_KINDS)[number];

/** A playing-time limit as the player reads it: `LimitView`'s fields in ms of time played. */
export interface TimeLimitView {
  readonly kind: TimeLimitKind;
  readonly amount: number | null;
  readonly pending?: { readonly amount: number | null; readonly effectiveAt: number };
  /** Time played in the window, the time since the last purchase counted (up to the pause bound). */
  readonly used: number;
  readonly left: number | null;
  /** When the oldest counted time leaves the window (ms), null if none is counted. */
  readonly nextFreeAt: number | null;
}

export interface LimitView {
  readonly kind: LimitKind;
  /** null: no limit of this kind set. */
  readonly amount: Cents | null;
  /** A raise (or removal) waiting `LIMIT_RAISE_DELAY_HOURS` before it applies. */
  readonly pending?: { readonly amount: Cents | null; readonly effectiveAt: number };
  /** Stakes (or deposits) counted in the rolling window. */
  readonly used: Cents;
  /** amount − used, at least 0; null without a limit. */
  readonly left: Cents | null;
  /** When the oldest counted cent leaves the window (ms), null if none is counted. */
  readonly nextFreeAt: number | null;
  /** The operator's limit of this kind (given at launch), if it holds one: the stricter of the two applies. */
  readonly operator?: { readonly amount: Cents; readonly left: Cents };
}

/** The self-exclusion lengths a player may choose. */
export const EXCLUSION_DURATIONS = ['24h', '7d', '30d', '3m', '6m', '12m'] as const;
export type ExclusionDuration = (typeof EXCLUSION_DURATIONS)[number];

/** Why the operator blocked a player (`operator_exclusion`: an exclusion the operator gave at launch). */
export const BLOCK_REASONS = ['national_ban', 'minor', 'identity', 'operator_exclusion'] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

/**
 * The refusals for the player's protection that a purchase (or a deposit) meets, journaled as
 * `what: 'refusal'`: rows of the refusal table (src/protocol/refusals.ts), listed here because
 * that table's details are these module's shapes.
 */
const PROTECTION_REFUSALS = [
  'limit/not_set',
  'limit/stake_week',
  'limit/stake_day',
  'limit/deposit_week',
  'limit/time_week',
  'limit/time_day',
  'protection/excluded',
  'protection/blocked',
  'protection/reality_check',
] as const;
export type ProtectionRefusalCode = (typeof PROTECTION_REFUSALS)[number];

export function isProtectionRefusal(code: string): code is ProtectionRefusalCode {
  return (PROTECTION_REFUSALS as readonly string[]).includes(code);
}

/**
 * One line of the protection journal (the history shown in « Mes limites »): a change, or a
 * purchase refused for the player's protection (`refusal`, by the player who tried to buy).
 */
export interface ProtectionChange {
  readonly at: number;
  readonly by: 'player' | 'operator';
  readonly what: 'limit' | 'exclusion' | 'block' | 'unblock' | 'reality_check_ack' | 'reality_check_interval' | 'refusal';
  readonly kind?: LimitKind | TimeLimitKind;
  /** Cents, or ms for a playing-time limit or the reality check's interval (null: the server's). */
  readonly amount?: Cents | null;
  readonly effectiveAt?: number;
  readonly until?: number;
  readonly reason?: BlockReason;
  /** `refusal`: the purchase's refusal code. */
  readonly code?: ProtectionRefusalCode;
  /**
   * `refusal`: refusals of this code in a row, the first at `firstAt`, the last at `at` (a
   * player retrying makes one line, not a thousand that would push the changes out).
   */
  readonly count?: number;
  readonly firstAt?: number;
}

export interface ProtectionState {
  /** Always the three kinds, in the order of `LIMIT_KINDS`. */
  readonly limits: readonly LimitView[];
  /** Always the two kinds, in the order of `TIME_LIMIT_KINDS`. */
  readonly timeLimits: readonly TimeLimitView[];
  /** false: the player cannot buy before setting a weekly stake limit. */
  readonly stakeLimitSet: boolean;
  /** The self-exclusion's end (ms), null if none is running. */
  readonly excludedUntil: number | null;
  /** The operator's block; `until` null: until lifted. */
  readonly blocked: { readonly reason: BlockReason; readonly until: number | null } | null;
  readonly session: {
    readonly startedAt: number | null;
    readonly playedMs: number;
    readonly staked: Cents;
    readonly won: Cents;
    /** won − staked. */
    readonly net: Cents;
    /** The interval in force: the player's choice, or the server's REALITY_CHECK_MINUTES (the longest). */
    readonly realityCheckEveryMs: number;
    /** The player's choice of interval, null when none (the server's then). */
    readonly realityCheckChosenMs: number | null;
    /** The server's interval (REALITY_CHECK_MINUTES): the longest a player may choose. */
    readonly realityCheckServerMs: number;
    readonly realityCheckDue: boolean;
  };
  /** Newest first, at most `PROTECTION_HISTORY_MAX`. */
  readonly history: readonly ProtectionChange[];
  /** The server's time of this answer (ms). */
  readonly now: number;
}

export const PROTECTION_HISTORY_MAX = 50;

/** The reality check's interval a player may choose: whole minutes from 15 to the server's REALITY_CHECK_MINUTES. */
export const REALITY_CHECK_MIN_MS = 15 * 60_000;

/** Details sent with `limit/…` and `protection/…` refusals (`RefusalMessage.details`). */
export interface RefusalDetails {
  readonly limit?: LimitKind | TimeLimitKind;
  /** Cents, or ms for a playing-time limit. */
  readonly left?: Cents;
  readonly nextFreeAt?: number | null;
  readonly until?: number | null;
  readonly playedMs?: number;
  readonly net?: Cents;
  /** A limit's refusal: whose limit refused it, the player's own or the one the operator gave at launch. */
  readonly source?: 'player' | 'operator';
  /** `pace/too_fast`: when the purchase may come again. */
  readonly retryAfterMs?: number;
}

/**
 * `PUT /protection/limits`: each field absent leaves that limit as it is; null removes it.
 * Stake and deposit limits in cents, playing-time limits in ms (whole minutes).
 */
export type LimitsRequest = { readonly [K in LimitKind | TimeLimitKind]?: number | null };

/** A limit's bounds, in whole cents (1 € to 1 000 000 €). */
export const LIMIT_MIN_CENTS = 100;
export const LIMIT_MAX_CENTS = 100_000_000;

/**
 * A playing-time limit's bounds: whole minutes, from 15 minutes (well above the 2 minutes a
 * pause counts, so that a window emptied always lets play again) to its window's length.
 */
export const TIME_LIMIT_MIN_MS = 15 * 60_000;
export const TIME_LIMIT_MAX_MS: Readonly<Record<TimeLimitKind, number>> = { time_day: 24 * 3_600_000, time_week: 168 * 3_600_000 };
