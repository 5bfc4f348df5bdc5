import type { Presence } from '@colyseus/core';
import { UNKNOWN_PLAYER } from '../auth/pseudonym';
import type { Emissions } from '../dealer/types';
import type { Cents } from '../money';
import type { EndedReveal } from '../play/live-unit';
import type { PrizesLeft, Win } from '../protocol/feed';

/**
 * The live wins feed and the count of prizes left, shared by every process through Colyseus
 * presence (RedisPresence with REDIS_URL, LocalPresence embedded).
 *
 * No spoilers: whoever showed a reveal's last step to its player publishes the win, once the
 * player could see it (the table room after the player's frame went out; the sweeper for a unit
 * no table shows). A win whose player could not see its end (the connection dropped, the seat
 * ran out), or whose end is still under silver on the player's screen (Mine d'or, Le Noël: the
 * table's `uncovered`), is kept `unseen` here until the player is shown it (a new table of that
 * game, the recall, the scratch) or until it is as old as an abandoned unit. The prizes-left count moves at the moment
 * of publication, never at sale: a count that dropped when a unit was sold would tell its buyer
 * that it wins before the reveal.
 *
 * What a spectator gets is a `Win`: game, price, amount, time and the pseudonym masked
 * (`maskPseudonym`: « Ali*** »); never the full pseudonym, the account id, the unit id, a
 * balance or a token.
 */

/** A pseudonym as the public feed shows it: the first three characters (one of a short name) and « *** ». */
export function maskPseudonym(pseudonym: string): string {
  const chars = Array.from(pseudonym.trim());
  return `${chars.slice(0, chars.length > 3 ? 3 : 1).join('')}***`;
}

/** What goes over the presence channel: the win and its place in the shared list. */
export interface WinMessage {
  readonly seq: number;
  readonly win: Win;
}

export interface WinFeedOptions {
  /** Namespaces the presence keys and channels (REDIS_PREFIX). */
  readonly prefix: string;
  /** How many recent wins are kept for late joiners (FEED_RECENT). */
  readonly recent: number;
  /** Smallest amount published (FEED_MIN_PRIZE_CENTS, ≥ 1). */
  readonly minPrize: Cents;
  /** How long a pseudonym is remembered for a unit the server may complete later (s). */
  readonly pseudonymTtlSeconds: number;
  /**
   * True when the presence is shared by processes (Redis): pseudonyms are kept there, with a
   * time to live. False (embedded): they are kept in this process, at most 100,000 of them
   * (LocalPresence's own expiry keeps an unreferenced timer per key, which would hold the
   * process open).
   */
  readonly sharedPresence: boolean;
  readonly log?: (line: string) => void;
}

const LOCAL_PSEUDONYMS = 100_000;

/** A win kept until its player has seen the reveal's end (presence hash, one field per unit). */
interface UnseenWin {
  readonly playerId: string;
  readonly blockId: string;
  readonly tierId: number;
  /** When the reveal ended (ms). */
  readonly endedAt: number;
  readonly win: Win;
}

export class WinFeed {
  /** Presence channel of published wins (`WinMessage`). */
  readonly winsChannel: string;
  /** Presence channel told (empty payload) whenever a prize left the prizes-left count. */
  readonly revealedChannel: string;
  private readonly recentKey: string;
  private readonly seqKey: string;
  private readonly unseenKey: string;
  private readonly localPseudonyms = new Map<string, string>();
  private readonly inFlight = new Set<Promise<void>>();
  private prizesCache: { at: number; value: Promise<PrizesLeft[]> } | undefined;
  private closed = false;

  constructor(
    private readonly presence: Presence,
    private readonly dealer: Pick<Emissions, 'listEmissions'>,
    private readonly options: WinFeedOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.winsChannel = `${options.prefix}:feed:wins`;
    this.revealedChannel = `${options.prefix}:feed:revealed`;
    this.recentKey = `${options.prefix}:feed:recent`;
    this.seqKey = `${options.prefix}:feed:seq`;
    this.unseenKey = `${options.prefix}:feed:unseen`;
  }

  /** The player has seen this reveal's end: its win goes out (nothing for a losing unit). */
  publish(ended: EndedReveal, pseudonym: string): void {
    if (this.closed || ended.unit.sale.prize <= 0) return;
    this.track(this.announce(this.toUnseen(ended, pseudonym)));
  }

  /** Published by the server for a unit no table showed: the player's last known pseudonym. */
  publishUnshown(ended: EndedReveal): void {
    if (this.closed || ended.unit.sale.prize <= 0) return;
    this.track(this.pseudonymOf(ended.unit.sale.playerId).then((pseudonym) => this.announce(this.toUnseen(ended, pseudonym))));
  }

  /** The player could not see this reveal's end: its win waits until they do (`releaseUnseen`). */
  keepUnseen(ended: EndedReveal, pseudonym: string): void {
    if (ended.unit.sale.prize <= 0) return;
    this.track(this.keep(ended, pseudonym));
  }

  /**
   * Kept as `keepUnseen` does, under the player's last known pseudonym: a reveal whose end no
   * table showed (its credit, left undone by a crash, done at a process's start). Resolves once kept.
   */
  keepUnshown(ended: EndedReveal): Promise<void> {
    if (ended.unit.sale.prize <= 0) return Promise.resolve();
    const kept = this.pseudonymOf(ended.unit.sale.playerId).then((pseudonym) => this.keep(ended, pseudonym));
    this.track(kept);
    return kept.catch(() => undefined);
  }

  private async keep(ended: EndedReveal, pseudonym: string): Promise<void> {
    await this.presence.hset(this.unseenKey, ended.unit.sale.unitId, JSON.stringify(this.toUnseen(ended, pseudonym)));
  }

  /** The last unit of `game` whose end `playerId` has not seen, if any. */
  async lastUnseen(playerId: string, game: string): Promise<string | undefined> {
    const all = await this.unseenWins();
    return all.filter(([, u]) => u.playerId === playerId && u.win.game === game).map(([unitId]) => unitId).pop();
  }

  /**
   * Publishes the unseen wins that `which` selects: the player has now seen them, or they are
   * as old as an abandoned unit. Each goes out once, whichever process claims it first.
   */
  releaseUnseen(which: { readonly unitIds: readonly string[] } | { readonly endedBefore: number }): void {
    this.track((async () => {
      // By id, each one read alone: every win of a game covered on screen waits here a moment.
      const due = 'unitIds' in which
        ? await Promise.all(which.unitIds.map(async (unitId): Promise<[string, UnseenWin | undefined]> => [unitId, await this.unseenWin(unitId)]))
        : (await this.unseenWins()).filter(([, unseen]) => unseen.endedAt < which.endedBefore);
      for (const [unitId, unseen] of due) {
        if (unseen && (await this.presence.hdel(this.unseenKey, unitId))) await this.announce(unseen);
      }
    })());
  }

  /** Remembers a player's pseudonym for a win the server may publish later (abandoned unit). */
  async rememberPseudonym(playerId: string, pseudonym: string): Promise<void> {
    if (this.options.sharedPresence) {
      await this.presence.setex(this.pseudonymKey(playerId), pseudonym, this.options.pseudonymTtlSeconds);
      return;
    }
    this.localPseudonyms.delete(playerId);
    this.localPseudonyms.set(playerId, pseudonym);
    if (this.localPseudonyms.size > LOCAL_PSEUDONYMS) this.localPseudonyms.delete(this.localPseudonyms.keys().next().value!);
  }

  private async pseudonymOf(playerId: string): Promise<string> {
    const known = this.options.sharedPresence
      ? ((await this.presence.get(this.pseudonymKey(playerId))) as string | null | undefined)
      : this.localPseudonyms.get(playerId);
    return known ?? UNKNOWN_PLAYER;
  }

  /** The last `recent` wins with their places, oldest first; trims what is older. */
  async recent(): Promise<WinMessage[]> {
    const all = await this.presence.hgetall(this.recentKey);
    const entries: WinMessage[] = [];
    for (const [field, json] of Object.entries(all ?? {})) {
      const seq = Number(field);
      if (!Number.isSafeInteger(seq)) continue;
      try {
        entries.push({ seq, win: JSON.parse(json) as Win });
      } catch {
        // a damaged entry is dropped below
      }
    }
    entries.sort((a, b) => a.seq - b.seq);
    const keep = this.options.recent;
    const old = entries.length > keep ? entries.slice(0, entries.length - keep) : [];
    for (const entry of old) await this.presence.hdel(this.recentKey, String(entry.seq));
    return keep === 0 ? [] : entries.slice(-keep);
  }

  /**
   * Prizes left per tier of every open block. Cached for `maxAgeMs` (the HTTP route and the
   * feed rooms of one process share one computation).
   */
  prizesLeft(maxAgeMs = 1000): Promise<PrizesLeft[]> {
    const at = this.now();
    if (this.prizesCache && at - this.prizesCache.at < maxAgeMs) return this.prizesCache.value;
    const value = this.computePrizesLeft();
    this.prizesCache = { at, value };
    value.catch(() => {
      if (this.prizesCache?.value === value) this.prizesCache = undefined;
    });
    return value;
  }

  /** A prize left the count (told by the presence channel): the next read recomputes. */
  forgetPrizesLeft(): void {
    this.prizesCache = undefined;
  }

  /** Waits for every publication in flight (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Waits for what is being published, then publishes nothing more. */
  async close(): Promise<void> {
    await this.settled();
    this.closed = true;
  }

  private track(task: Promise<void>): void {
    const tracked = task.catch((err: unknown) => (this.options.log ?? console.error)(`win feed: ${String(err)}`));
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  private toUnseen(ended: EndedReveal, pseudonym: string): UnseenWin {
    const { sale, steps } = ended.unit;
    const endedAt = steps[steps.length - 1]?.at ?? this.now();
    const shown = pseudonym === UNKNOWN_PLAYER ? pseudonym : maskPseudonym(pseudonym);
    const win: Win = { game: sale.game, stake: sale.stake, amount: sale.prize, at: new Date(endedAt).toISOString(), pseudonym: shown };
    return { playerId: sale.playerId, blockId: sale.blockId, tierId: sale.tierId, endedAt, win };
  }

  private async unseenWin(unitId: string): Promise<UnseenWin | undefined> {
    const json = await this.presence.hget(this.unseenKey, unitId);
    return json ? (JSON.parse(json) as UnseenWin) : undefined;
  }

  private async unseenWins(): Promise<[string, UnseenWin][]> {
    const all = (await this.presence.hgetall(this.unseenKey)) ?? {};
    return Object.entries(all)
      .map(([unitId, json]): [string, UnseenWin] => [unitId, JSON.parse(json) as UnseenWin])
      .sort((a, b) => a[1].endedAt - b[1].endedAt);
  }

  private async announce({ blockId, tierId, win }: UnseenWin): Promise<void> {
    // The prize leaves the count now that its reveal has been seen (and not before).
    await this.presence.hincrby(this.revealedKey(blockId), String(tierId), 1);
    this.prizesCache = undefined;
    await this.presence.publish(this.revealedChannel, 1);
    if (win.amount < this.options.minPrize) return;
    const seq = await this.presence.incr(this.seqKey);
    if (this.options.recent > 0) {
      await this.presence.hset(this.recentKey, String(seq), JSON.stringify(win));
      if (seq > this.options.recent) await this.presence.hdel(this.recentKey, String(seq - this.options.recent));
    }
    const message: WinMessage = { seq, win };
    await this.presence.publish(this.winsChannel, message);
  }

  private async computePrizesLeft(): Promise<PrizesLeft[]> {
    const emissions = await this.dealer.listEmissions();
    const out: PrizesLeft[] = [];
    for (const emission of emissions) {
      for (const block of emission.blocks) {
        if (block.state !== 'open') continue;
        const revealed = (await this.presence.hgetall(this.revealedKey(block.blockId))) ?? {};
        out.push({
          game: emission.game,
          stake: emission.stake,
          blockId: block.blockId,
          tiers: emission.table.tiers.map((tier, i) => {
            const tierId = i + 1;
            return { tierId, prize: tier.prize, left: Math.max(0, tier.count - Number(revealed[String(tierId)] ?? 0)) };
          }),
        });
      }
    }
    out.sort((a, b) => (a.game < b.game ? -1 : a.game > b.game ? 1 : a.stake - b.stake));
    return out;
  }

  private revealedKey(blockId: string): string {
    return `${this.options.prefix}:feed:revealed:${blockId}`;
  }

  private pseudonymKey(playerId: string): string {
    return `${this.options.prefix}:feed:pseudonym:${playerId}`;
  }
}
