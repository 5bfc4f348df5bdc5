import { blockedRefusal, excludedRefusal, exclusionEnd, limitNotSetRefusal, limitRefusal, protectionView, realityCheckRefusal, type OperatorLimits, type ProtectionRefusal, type ProtectionSettings } from '../protection/rules';
import type { Cents } from '../money';
import type { PlayerId } from '../dealer/types';
import type { ProtectionUpdate, Protections } from '../protection/types';
import type { BlockReason, ExclusionDuration, LimitsRequest, ProtectionRefusalCode, ProtectionState } from '../protocol/protection';

export interface ProtectionServiceSettings extends ProtectionSettings {
  /** LIMIT_RAISE_DELAY_HOURS in ms. */
  readonly raiseDelayMs: number;
}

/**
 * A player's protection as the routes use it (docs/responsible-gaming.md): each change made by
 * the store atomically and journaled, each answer the state after it. The purchase step
 * enforces it (PlayService passes `settings` with every purchase, and journals its refusals here).
 */
export class ProtectionService {
  constructor(
    private readonly dealer: Protections,
    readonly settings: ProtectionServiceSettings,
    private readonly now: () => number,
  ) {}

  async state(playerId: PlayerId): Promise<ProtectionState> {
    const now = this.now();
    const { record, history } = await this.dealer.protectionRecord(playerId);
    const since = record.session?.startedAt;
    const money = since === undefined ? { staked: 0, won: 0 } : await this.dealer.sessionMoney(playerId, since);
    return protectionView(record, money, history, now, this.settings);
  }

  /**
   * What the purchase's atomic step would refuse a stake for, read ahead of it: the seamless
   * wallet asks it before debiting the operator (the purchase's step checks again, and a stake
   * it refuses after all — two purchases racing at a limit — is rolled back).
   */
  async purchaseRefusal(playerId: PlayerId, stake: Cents): Promise<ProtectionRefusal | undefined> {
    const state = await this.state(playerId);
    if (state.blocked && (state.blocked.until === null || state.blocked.until > state.now)) return blockedRefusal(state.blocked.until);
    if (state.excludedUntil !== null) return excludedRefusal(state.excludedUntil);
    if (!state.stakeLimitSet) return limitNotSetRefusal();
    if (state.session.realityCheckDue) return realityCheckRefusal(state.session.playedMs, state.session.net);
    for (const limit of state.limits) {
      if (limit.kind === 'deposit_week') continue;
      // The stricter of the player's limit and the operator's (the player's on a tie), as the purchase step decides.
      const own = limit.left === null ? undefined : { left: limit.left, source: 'player' as const };
      const operator = limit.operator && { left: limit.operator.left, source: 'operator' as const };
      const stricter = own && operator ? (operator.left < own.left ? operator : own) : (own ?? operator);
      if (stricter && stricter.left < stake) return limitRefusal(limit.kind, stricter.left, limit.nextFreeAt, stricter.source);
    }
    return undefined;
  }

  setLimits(playerId: PlayerId, limits: LimitsRequest): Promise<ProtectionState> {
    return this.change(playerId, { what: 'limits', limits, raiseDelayMs: this.settings.raiseDelayMs });
  }

  exclude(playerId: PlayerId, duration: ExclusionDuration): Promise<ProtectionState> {
    return this.change(playerId, { what: 'exclusion', until: exclusionEnd(duration, this.now()) });
  }

  /**
   * The operator's block; one whose end is already past (0, a date in seconds read as ms)
   * would block nothing while the journal and the archive said "blocked": refused, nothing
   * changed or journaled (`'ended'`).
   */
  block(playerId: PlayerId, reason: BlockReason, until: number | null): Promise<ProtectionState | 'ended'> {
    if (until !== null && until <= this.now()) return Promise.resolve('ended');
    return this.change(playerId, { what: 'block', reason, until });
  }

  unblock(playerId: PlayerId): Promise<ProtectionState> {
    return this.change(playerId, { what: 'unblock' });
  }

  /**
   * The player's acknowledgement of the reality check shown to them: only of a check that is
   * due, decided in the store's step (many at once journal one). One asked before changes
   * nothing and journals nothing (the state as it is): else a client acknowledging ahead of
   * each check would put it off for ever, and fill the journal with checks never shown.
   */
  acknowledgeRealityCheck(playerId: PlayerId): Promise<ProtectionState> {
    const { realityCheckMs, sessionIdleMs } = this.settings;
    return this.change(playerId, { what: 'reality_check_ack', settings: { realityCheckMs, sessionIdleMs } });
  }

  /**
   * What the operator holds of the player's protection, given at launch: its limits (each launch
   * says them all: one absent is lifted), applied at once beside the player's own, the stricter
   * of the two deciding; its exclusion, applied as the operator's block until then, unless a
   * block already runs as long (a block is never shortened here).
   */
  async fromOperator(playerId: PlayerId, limits: OperatorLimits, excludedUntil: number | undefined): Promise<void> {
    await this.dealer.changeProtection(playerId, { what: 'operator_limits', limits }, this.now());
    if (excludedUntil === undefined || excludedUntil <= this.now()) return;
    const { blocked } = (await this.dealer.protectionRecord(playerId)).record;
    if (blocked && (blocked.until === null || blocked.until >= excludedUntil)) return;
    await this.dealer.changeProtection(playerId, { what: 'block', reason: 'operator_exclusion', until: excludedUntil }, this.now());
  }

  /** The player's reality check interval (ms, whole minutes from REALITY_CHECK_MIN_MS to the server's), or null for the server's. */
  setRealityCheckInterval(playerId: PlayerId, ms: number | null): Promise<ProtectionState> {
    return this.change(playerId, { what: 'reality_check_interval', ms });
  }

  /** Journals a purchase refused for the player's protection (the purchase step moved no money). */
  async refused(playerId: PlayerId, code: ProtectionRefusalCode): Promise<void> {
    await this.dealer.changeProtection(playerId, { what: 'refusal', code }, this.now());
  }

  private async change(playerId: PlayerId, update: ProtectionUpdate): Promise<ProtectionState> {
    await this.dealer.changeProtection(playerId, update, this.now());
    return this.state(playerId);
  }
}
