import { PROTECTION_HISTORY_MAX, type ProtectionChange } from '../protocol/protection';
import { isPlayerId } from '../ids';
import { decodeBlock, decodeLimit, realityCheckRefusal, type HourBucket, type ProtectionRecord, type ProtectionRefusal, type SessionMoney, type StoredSession } from './rules';
import type { ProtectionReply } from '../redis-scripts/errors';
import { changeProtection } from './change-protection';
import type { ProtectionUpdate, Protections } from './types';
import { defineScripts, type RedisClient, type RunScript } from '../redis-scripts/loader';
import type { JournalLine } from '../protocol/wallet';

/** What the Redis protections use of the dealer's Redis store they live in (its `RedisContext`). */
interface ProtectionContext {
  readonly redis: RedisClient;
  /** A player's wallet hash (the protection's `p:…` fields), protection journal and money journal. */
  readonly keys: { player(playerId: string): { readonly wallet: string; readonly protection: string; readonly journal: string } };
  /** The archive stream a change's entry is written to. */
  moneyStream(playerId: string): string;
  /** Waits until the replicas of the server holding `key` have this connection's writes. */
  replicated(key: string): Promise<void>;
}

/** On the per-slot protocol, what relays a player's archive entries to the player's archive shard. */
interface ArchiveRelay {
  announce(playerId: string, now: number): Promise<void>;
  relay(playerId: string, now: number): Promise<unknown>;
}

const PROTECTION_LUA = new URL('./lua/', import.meta.url);

/** Journal lines read at once, from the end, for the session's stakes and prizes. */
const JOURNAL_PAGE = 200;

/**
 * The buckets of a window, oldest first: its `p:s:<hour>` (or `p:d:<hour>`) fields, and the
 * newest, whose hour ends the window's `p:s` (`<oldest>|<oldest in the day>|<newest>`) and
 * whose cents are in `p:sn` plus, for stakes, what the allowance took (lua/includes/protection.lua).
 */
function buckets(fields: Record<string, string>, window: 'p:s' | 'p:d' | 'p:t', taken = 0): HourBucket[] {
  const found: HourBucket[] = [];
  const prefix = `${window}:`;
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith(prefix)) found.push({ hour: Number(field.slice(prefix.length)), cents: Number(value.split('|')[0]) });
  }
  const [, , newest = ''] = (fields[window] ?? '').split('|');
  if (newest !== '') found.push({ hour: Number(newest), cents: Number(fields[`${window}n`]) + taken });
  return found.sort((a, b) => a.hour - b.hour);
}

/** The allowance (`p:ok`: left|last purchase|valid until|granted|settings): what it took, its last purchase. */
function allowance(text: string | undefined): { taken: number; lastAt: number } {
  if (text === undefined) return { taken: 0, lastAt: 0 };
  const [left, lastAt, , granted] = text.split('|').map(Number);
  return { taken: granted! - left!, lastAt: lastAt! };
}

const centsOrNull = (text: string | undefined): number | null => (text === undefined ? null : Number(text));

/**
 * The time played: its last purchase (`p:tp`, or the allowance's if later), and what the
 * allowance's purchases played since it (lua/includes/protection.lua's playedOf).
 */
function played(fields: Record<string, string>, allowedLastAt: number): { lastPlayedAt: number | null; taken: number } {
  if (fields['p:tp'] === undefined) return { lastPlayedAt: null, taken: 0 };
  const last = Number(fields['p:tp']);
  return { lastPlayedAt: Math.max(last, allowedLastAt), taken: Math.max(0, allowedLastAt - last) };
}

/** The reality check's session: its start, last check and last purchase (`p:rs`, `p:rc`, `p:rl` or the allowance's). */
function session(fields: Record<string, string>, allowedLastAt: number): StoredSession | undefined {
  if (fields['p:rs'] === undefined) return undefined;
  return { startedAt: Number(fields['p:rs']), checkedAt: Number(fields['p:rc']), lastAt: Math.max(Number(fields['p:rl']), allowedLastAt) };
}

/**
 * Player protection on Redis: fields of the wallet hash and a journal list
 * (lua/includes/protection.lua). On the per-slot protocol (`relay` given) a change's archive
 * entry is relayed to the player's archive shard before it is answered (archive-relay.ts).
 */
export class RedisProtections implements Protections {
  private readonly run: RunScript<'changeProtection'>;

  constructor(
    private readonly ctx: ProtectionContext,
    private readonly relay: ArchiveRelay | undefined,
    /** The dealer's reader of a money journal line (its format is the dealer's). */
    private readonly readJournalLine: (line: string) => Pick<JournalLine, 'kind' | 'amount' | 'at'>,
  ) {
    this.run = defineScripts(ctx.redis, PROTECTION_LUA, 'protection');
  }

  async protectionRecord(playerId: string): Promise<{ record: ProtectionRecord; history: ProtectionChange[] }> {
    const keys = this.ctx.keys.player(isPlayerId(playerId) ? playerId : '_');
    const [fields, lines] = await Promise.all([
      this.ctx.redis.hgetall(keys.wallet),
      this.ctx.redis.lrange(keys.protection, 0, PROTECTION_HISTORY_MAX - 1),
    ]);
    const allowed = allowance(fields['p:ok']);
    const time = played(fields, allowed.lastAt);
    const record: ProtectionRecord = {
      limits: { stake_week: decodeLimit(fields['p:l:stake_week']), stake_day: decodeLimit(fields['p:l:stake_day']), deposit_week: decodeLimit(fields['p:l:deposit_week']) },
      operatorLimits: { stake_week: centsOrNull(fields['p:o:stake_week']), stake_day: centsOrNull(fields['p:o:stake_day']) },
      stakes: buckets(fields, 'p:s', allowed.taken),
      deposits: buckets(fields, 'p:d'),
      excludedUntil: fields['p:x'] ? Number(fields['p:x']) : null,
      blocked: decodeBlock(fields['p:b']),
      session: session(fields, allowed.lastAt),
      timeLimits: { time_day: decodeLimit(fields['p:l:time_day']), time_week: decodeLimit(fields['p:l:time_week']) },
      played: buckets(fields, 'p:t', time.taken),
      lastPlayedAt: time.lastPlayedAt,
      realityCheckMs: fields['p:ri'] ? Number(fields['p:ri']) : null,
    };
    return { record, history: lines.map((line) => JSON.parse(line) as ProtectionChange) };
  }

  async sessionMoney(playerId: string, since: number): Promise<SessionMoney> {
    let staked = 0;
    let won = 0;
    if (!isPlayerId(playerId)) return { staked, won };
    const journal = this.ctx.keys.player(playerId).journal;
    for (let end = -1; ; end -= JOURNAL_PAGE) {
      const lines = await this.ctx.redis.lrange(journal, end - JOURNAL_PAGE + 1, end);
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = this.readJournalLine(lines[i]!);
        if (line.at < since) return { staked, won };
        if (line.kind === 'stake') staked -= line.amount;
        else if (line.kind === 'prize') won += line.amount;
      }
      if (lines.length < JOURNAL_PAGE) return { staked, won };
    }
  }

  async changeProtection(playerId: string, update: ProtectionUpdate, now: number): Promise<void> {
    if (!isPlayerId(playerId)) throw new RangeError(`not a player id: ${playerId}`);
    const keys = this.ctx.keys.player(playerId);
    await this.relay?.announce(playerId, now);
    await changeProtection(this.run, { ...keys, archive: this.ctx.moneyStream(playerId) }, playerId, update, now);
    await this.ctx.replicated(keys.wallet);
    await this.relay?.relay(playerId, now);
  }
}

/** A script's protection refusal as the player gets it: a reality check's with the session's net. */
export async function protectionAnswer(reply: ProtectionReply, money: (since: number) => Promise<SessionMoney>): Promise<ProtectionRefusal> {
  if (reply.sessionStart === undefined) return reply.refusal;
  const { staked, won } = await money(reply.sessionStart);
  return realityCheckRefusal(reply.refusal.details?.playedMs ?? 0, won - staked);
}
