import type { BlockReason, LimitsRequest, ProtectionChange, ProtectionRefusalCode } from '../protocol/protection';
import type { OperatorLimits, ProtectionRecord, ProtectionSettings, SessionMoney } from './rules';

/** A change of a player's protection, made and journaled atomically (`ProtectionChange`). */
export type ProtectionUpdate =
  /** The operator's limits, each applied at once (the operator keeps its own rules on raises); journaled when one changes. */
  | { readonly what: 'operator_limits'; readonly limits: OperatorLimits }
  | { readonly what: 'limits'; readonly limits: LimitsRequest; readonly raiseDelayMs: number }
  /** Extends only: an end before the one running changes nothing. */
  | { readonly what: 'exclusion'; readonly until: number }
  | { readonly what: 'block'; readonly reason: BlockReason; readonly until: number | null }
  | { readonly what: 'unblock' }
  /** The player's reality check interval (ms; null: the server's), the shorter of it and the server's applying. */
  | { readonly what: 'reality_check_interval'; readonly ms: number | null }
  /** Of a check that is due under `settings` (the session open, its interval run): else nothing changes. */
  | { readonly what: 'reality_check_ack'; readonly settings: ProtectionSettings }
  /**
   * A purchase refused for the player's protection: no money moved, the refusal is only
   * journaled; the same code again right after the last line counts in that line.
   */
  | { readonly what: 'refusal'; readonly code: ProtectionRefusalCode };

/** Players' protection (docs/responsible-gaming.md): what the purchase step and deposits check. */
export interface Protections {
  /** The player's protection as stored, and the newest changes first (at most 50). */
  protectionRecord(playerId: string): Promise<{ record: ProtectionRecord; history: ProtectionChange[] }>;
  /** The player's stakes and prizes journaled at or after `since`. */
  sessionMoney(playerId: string, since: number): Promise<SessionMoney>;
  /** Applies and journals a change (`by` the player, or the operator for blocks). */
  changeProtection(playerId: string, update: ProtectionUpdate, now: number): Promise<void>;
}
