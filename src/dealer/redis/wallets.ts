import type { Cents } from '../../money';
import { assertDeposit, journalPage } from '../identifiers';
import { isPlayerId } from '../../ids';
import { decodeJournalLine } from '../records';
import { deposit } from '../scripts/deposit';
import type { FundingArgs, FundingKeys } from '../scripts/funding-reply';
import { withdraw } from '../scripts/withdraw';
import type { DepositResult, JournalEntry, JournalPageRequest, PlayerId, Wallet, Wallets, WithdrawResult } from '../types';
import type { ArchiveRelay } from './archive-relay';
import type { RedisContext } from './context';

/**
 * Wallets on Redis: one hash, one deposits hash and one journal list per player (keys.ts). On
 * the per-slot protocol (`relay` given) a deposit's or withdrawal's archive entry is relayed
 * to the player's archive shard before it is answered, repeats included (archive-relay.ts).
 */
export class RedisWallets implements Wallets {
  constructor(
    private readonly ctx: RedisContext,
    private readonly relay: ArchiveRelay | undefined,
  ) {}

  deposit(playerId: PlayerId, amount: Cents, ref: string, now: number, otherRef?: string): Promise<DepositResult> {
    return this.fund(deposit, playerId, amount, ref, now, otherRef);
  }

  withdraw(playerId: PlayerId, amount: Cents, ref: string, now: number, otherRef?: string): Promise<WithdrawResult> {
    return this.fund(withdraw, playerId, amount, ref, now, otherRef);
  }

  /** A deposit or a withdrawal: checked, announced to the relay, run, replicated, then relayed. */
  private async fund<Result>(script: (run: RedisContext['run'], keys: FundingKeys, args: FundingArgs) => Promise<Result>, playerId: PlayerId, amount: Cents, ref: string, now: number, otherRef: string | undefined): Promise<Result> {
    assertDeposit(playerId, amount, ref, now, otherRef);
    const keys = this.ctx.keys.player(playerId);
    await this.relay?.announce(playerId, now);
    const result = await script(this.ctx.run, { ...keys, archive: this.ctx.moneyStream(playerId) }, { playerId, amount, ref, now, ...(otherRef === undefined ? {} : { otherRef }) });
    await this.ctx.replicated(keys.wallet);
    await this.relay?.relay(playerId, now);
    return result;
  }

  async balance(playerId: PlayerId): Promise<Cents> {
    if (!isPlayerId(playerId)) return 0;
    return Number((await this.ctx.redis.hget(this.ctx.keys.player(playerId).wallet, 'balance')) ?? 0);
  }

  async wallet(playerId: PlayerId): Promise<Wallet> {
    if (!isPlayerId(playerId)) return { balance: 0, held: 0 };
    // Fields the scripts keep: neither the journal nor the units in play are read. A stake held
    // by a purchase pending on Redis Cluster (its first step done, reservePurchase-4.lua) is
    // shown as it will be once finished: out of the balance, held.
    const [balance, staked, pending] = (await this.ctx.redis.hmget(this.ctx.keys.player(playerId).wallet, 'balance', 'staked', 'held')).map((v) => Number(v ?? 0));
    return { balance: balance! - pending!, held: staked! + pending! };
  }

  async journal(playerId: PlayerId): Promise<JournalEntry[]> {
    if (!isPlayerId(playerId)) return [];
    const lines = await this.ctx.redis.lrange(this.ctx.keys.player(playerId).journal, 0, -1);
    return lines.map((line, i) => ({ seq: i + 1, ...decodeJournalLine(line) }));
  }

  /**
   * The journal's length (LLEN), then one LRANGE of the lines asked for: seq = index + 1, the
   * journal being only appended to, so lines appended meanwhile shift nothing.
   */
  async journalPage(playerId: PlayerId, request: JournalPageRequest): Promise<JournalEntry[]> {
    const { before, offset, limit } = journalPage(request);
    if (!isPlayerId(playerId) || limit === 0) return [];
    const journal = this.ctx.keys.player(playerId).journal;
    const length = await this.ctx.redis.llen(journal);
    const end = Math.min(length, (before ?? Infinity) - 1) - offset;
    if (end < 1) return [];
    const start = Math.max(1, end - limit + 1);
    const lines = await this.ctx.redis.lrange(journal, start - 1, end - 1);
    return lines.map((line, i) => ({ seq: start + i, ...decodeJournalLine(line) })).reverse();
  }
}
