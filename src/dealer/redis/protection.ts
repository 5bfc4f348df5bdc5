import { PROTECTION_HISTORY_MAX, type ProtectionChange } from '../../protocol/protection';
import { isPlayerId } from '../identifiers';
import { decodeBlock, decodeLimit, decodeSession, realityCheckRefusal, type HourBucket, type ProtectionRecord, type ProtectionRefusal, type SessionMoney } from '../protection';
import type { ProtectionReply } from '../scripts/errors';
import { decodeJournalLine } from '../records';
import { changeProtection } from '../scripts/change-protection';
import type { PlayerId, ProtectionUpdate, Protections } from '../types';
import type { RedisContext } from './context';

/** Journal lines read at once, from the end, for the session's stakes and prizes. */
const JOURNAL_PAGE = 200;

/**
 * The buckets of a window, oldest first: its `p:s:<hour>` (or `p:d:<hour>`) fields, and the
 * newest, whose cents the window's own field keeps (`…|<newest hour>|<its cents>`).
 */
function buckets(fields: Record<string, string>, window: 'p:s' | 'p:d'): HourBucket[] {
  const found: HourBucket[] = [];
  const prefix = `${window}:`;
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith(prefix)) found.push({ hour: Number(field.slice(prefix.length)), cents: Number(value.split('|')[0]) });
  }
  const [, , , , newest = '', cents = ''] = (fields[window] ?? '').split('|');
  if (newest !== '') found.push({ hour: Number(newest), cents: Number(cents) });
  return found.sort((a, b) => a.hour - b.hour);
}

/** Player protection on Redis: fields of the wallet hash and a journal list (lua/includes/protection.lua). */
export class RedisProtections implements Protections {
  constructor(private readonly ctx: RedisContext) {}

  async protectionRecord(playerId: PlayerId): Promise<{ record: ProtectionRecord; history: ProtectionChange[] }> {
    const keys = this.ctx.keys.player(isPlayerId(playerId) ? playerId : '_');
    const [fields, lines] = await Promise.all([
      this.ctx.redis.hgetall(keys.wallet),
      this.ctx.redis.lrange(keys.protection, 0, PROTECTION_HISTORY_MAX - 1),
    ]);
    const record: ProtectionRecord = {
      limits: { stake_week: decodeLimit(fields['p:l:stake_week']), stake_day: decodeLimit(fields['p:l:stake_day']), deposit_week: decodeLimit(fields['p:l:deposit_week']) },
      stakes: buckets(fields, 'p:s'),
      deposits: buckets(fields, 'p:d'),
      excludedUntil: fields['p:x'] ? Number(fields['p:x']) : null,
      blocked: decodeBlock(fields['p:b']),
      session: decodeSession(fields['p:r']),
    };
    return { record, history: lines.map((line) => JSON.parse(line) as ProtectionChange) };
  }

  async sessionMoney(playerId: PlayerId, since: number): Promise<SessionMoney> {
    let staked = 0;
    let won = 0;
    if (!isPlayerId(playerId)) return { staked, won };
    const journal = this.ctx.keys.player(playerId).journal;
    for (let end = -1; ; end -= JOURNAL_PAGE) {
      const lines = await this.ctx.redis.lrange(journal, end - JOURNAL_PAGE + 1, end);
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = decodeJournalLine(lines[i]!);
        if (line.at < since) return { staked, won };
        if (line.kind === 'stake') staked -= line.amount;
        else if (line.kind === 'prize') won += line.amount;
      }
      if (lines.length < JOURNAL_PAGE) return { staked, won };
    }
  }

  async changeProtection(playerId: PlayerId, update: ProtectionUpdate, now: number): Promise<void> {
    if (!isPlayerId(playerId)) throw new RangeError(`not a player id: ${playerId}`);
    const keys = this.ctx.keys.player(playerId);
    await changeProtection(this.ctx.run, { ...keys, archive: this.ctx.moneyStream(playerId) }, playerId, update, now);
    await this.ctx.replicated(keys.wallet);
  }
}

/** A script's protection refusal as the player gets it: a reality check's with the session's net. */
export async function protectionAnswer(reply: ProtectionReply, money: (since: number) => Promise<SessionMoney>): Promise<ProtectionRefusal> {
  if (reply.sessionStart === undefined) return reply.refusal;
  const { staked, won } = await money(reply.sessionStart);
  return realityCheckRefusal(reply.refusal.details?.playedMs ?? 0, won - staked);
}
