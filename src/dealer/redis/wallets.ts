import type { Cents } from '../../money';
import { assertDeposit, isPlayerId, parseUnitId } from '../identifiers';
import { decodeJournalLine } from '../records';
import { deposit } from '../scripts/deposit';
import { withdraw } from '../scripts/withdraw';
import type { JournalEntry, PlayerId, Wallet, Wallets, WithdrawResult } from '../types';
import type { EmissionCatalog } from './catalog';
import type { RedisContext } from './context';

/** Wallets on Redis: one hash, one deposits hash and one journal list per player (keys.ts). */
export class RedisWallets implements Wallets {
  constructor(
    private readonly ctx: RedisContext,
    private readonly catalog: EmissionCatalog,
  ) {}

  async deposit(playerId: PlayerId, amount: Cents, ref: string, now: number): Promise<Cents> {
    assertDeposit(playerId, amount, ref, now);
    const keys = this.ctx.keys.player(playerId);
    const balance = await deposit(this.ctx.run, keys, { amount, ref, now });
    await this.ctx.replicated(keys.wallet);
    return balance;
  }

  async withdraw(playerId: PlayerId, amount: Cents, ref: string, now: number): Promise<WithdrawResult> {
    assertDeposit(playerId, amount, ref, now);
    const keys = this.ctx.keys.player(playerId);
    const result = await withdraw(this.ctx.run, keys, { amount, ref, now });
    await this.ctx.replicated(keys.wallet);
    return result;
  }

  async balance(playerId: PlayerId): Promise<Cents> {
    if (!isPlayerId(playerId)) return 0;
    return Number((await this.ctx.redis.hget(this.ctx.keys.player(playerId).wallet, 'balance')) ?? 0);
  }

  async wallet(playerId: PlayerId): Promise<Wallet> {
    if (!isPlayerId(playerId)) return { balance: 0, held: 0 };
    // One read: the wallet holds the balance and a `u:<unitId>` field per unsettled unit, whose
    // stake its emission gives (the ids name it; emissions are cached once read).
    const fields = await this.ctx.redis.hgetall(this.ctx.keys.player(playerId).wallet);
    let held = 0;
    for (const field of Object.keys(fields)) {
      const ref = field.startsWith('u:') ? parseUnitId(field.slice(2)) : undefined;
      const meta = ref && (await this.catalog.meta(ref.emissionId));
      if (meta) held += meta.stake;
    }
    return { balance: Number(fields.balance ?? 0), held };
  }

  async journal(playerId: PlayerId): Promise<JournalEntry[]> {
    if (!isPlayerId(playerId)) return [];
    const lines = await this.ctx.redis.lrange(this.ctx.keys.player(playerId).journal, 0, -1);
    return lines.map((line, i) => ({ seq: i + 1, ...decodeJournalLine(line) }));
  }
}
