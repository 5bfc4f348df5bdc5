import { getMessageBytes, Protocol, Room, type Client, type MessageContext } from '@colyseus/core';
import { Batcher } from '../feed/batcher';
import type { WinFeed, WinMessage } from '../feed/win-feed';
import type { FeedMessages, PrizesLeft, Win } from '../protocol/feed';
import { Coalescing, SlicedSender } from './fan-out';
import { prizeChanges } from '../protocol/prize-changes';
import { answerRefusal, readOnly } from './refusals';

/** What a feed room needs, given when the room type is defined (`feedRoomType`). */
export interface FeedServices {
  readonly feed: WinFeed;
  readonly maxMessagesPerSecond: number;
  /** FEED_RECENT, FEED_BATCH_MS, FEED_ROOM_MAX_CLIENTS, PRIZES_LEFT. */
  readonly recent: number;
  readonly batchMs: number;
  readonly maxClients: number;
  readonly prizesLeft: boolean;
  /** Bytes a spectator's socket may hold unsent before its updates are coalesced (SPECTATOR_MAX_UNSENT_BYTES). */
  readonly maxUnsent: number;
  /** Told of each frame dropped for a spectator held back (metrics). */
  readonly coalesced?: () => void;
  /** Told of each batch of wins as it is sent to this room's spectators (metrics). */
  readonly winsSent?: (wins: readonly Win[]) => void;
  readonly logError: (message: string, err: unknown) => void;
}

/** Prizes left go out at most this often, and are checked this often even without a win. */
const PRIZES_EVERY_MS = 1000;
const PRIZES_CHECK_MS = 5000;

/** Request types a feed spectator might try: each is answered `spectator/read_only`. */
const PLAYER_REQUESTS = ['buy', 'act', 'wallet', 'history', 'recall', 'watchers'] as const;

/**
 * The live wins feed: anyone may join (`joinOrCreate('feed')`, no token). A spectator gets
 * `recent` `{ wins }` (the last FEED_RECENT wins, oldest first), then `wins` `{ wins }` with
 * every win published by any process (presence pub/sub), at most one message per FEED_BATCH_MS
 * (one frame per spectator per interval, however many wins), and, with PRIZES_LEFT,
 * `prizes_left` on joining, then `prizes_changed` with the counts that moved (at most once a
 * second; the whole `prizes_left` again when a block opens or closes). No state, no
 * patches: messages only. Whatever a spectator sends is refused with `spectator/read_only`.
 *
 * `recent` holds only wins already sent: a win still waiting for its batch reaches a spectator
 * who joins meanwhile in that batch, so a joiner gets each win once.
 *
 * A spectator whose socket falls behind is held back (`Coalescing`): once caught up, it gets
 * one `wins` with the wins it missed among the last FEED_RECENT, and the prizes left whole.
 */
export abstract class FeedRoom extends Room {
  protected abstract readonly services: FeedServices;
  private feed!: WinFeed;
  private recentLimit = 0;
  /** The last wins sent, in feed order (`seq`). */
  private readonly recentWins: WinMessage[] = [];
  /** Sequence numbers of the wins in `recentWins` or waiting in the batch: a second copy is dropped. */
  private readonly seen = new Set<number>();
  private batch!: Batcher<WinMessage>;
  private readonly fanOut = new SlicedSender();
  private coalescing!: Coalescing;
  /** The last win each spectator was sent (its `seq`): one caught up after being held back gets the later ones. */
  private readonly lastSent = new WeakMap<Client, number>();
  /** The prizes left as the spectators here hold them (joiners get it whole). */
  private prizes: PrizesLeft[] | undefined;
  private prizesTimer: { clear(): void } | undefined;
  private lastPrizesAt = 0;

  override async onCreate(): Promise<void> {
    const { feed, batchMs, recent, maxClients, maxMessagesPerSecond, prizesLeft } = this.services;
    // First: Colyseus calls onDispose (which stops it) even when onCreate fails.
    this.batch = new Batcher(batchMs, (messages) => this.sendWins(messages));
    this.coalescing = new Coalescing(this.services.maxUnsent, (client) => this.catchUp(client), this.services.coalesced);
    this.feed = feed;
    this.recentLimit = recent;
    this.maxClients = maxClients;
    this.maxMessagesPerSecond = maxMessagesPerSecond;

    // Subscribe first, then read the shared list: a win published in between is in one or
    // both, and the sequence numbers drop the duplicate.
    const early: WinMessage[] = [];
    let loaded = false;
    await this.presence.subscribe(feed.winsChannel, (message: WinMessage) => {
      if (loaded) this.onWin(message);
      else early.push(message);
    });
    for (const message of [...(await feed.recent()), ...early]) {
      if (this.remember(message)) this.keep(message);
    }
    loaded = true;

    if (prizesLeft) {
      this.prizes = await feed.prizesLeft();
      this.lastPrizesAt = Date.now();
      await this.presence.subscribe(feed.revealedChannel, () => this.prizesChanged());
      this.clock.setInterval(() => this.schedulePrizes(), PRIZES_CHECK_MS);
    }

    for (const type of PLAYER_REQUESTS) this.onMessage(type, (client, _message, ctx) => this.refuse(client, ctx));
    this.onMessage('*', (client) => this.refuse(client, undefined));
  }

  override onJoin(client: Client): void {
    // Synchronous on purpose: `recent` is queued before any `wins` can reach this client.
    client.send('recent', { wins: this.recentWins.map((m) => m.win) } satisfies FeedMessages['recent']);
    this.lastSent.set(client, this.recentWins.at(-1)?.seq ?? 0);
    if (this.prizes) client.send('prizes_left', this.prizes satisfies FeedMessages['prizes_left']);
  }

  override onLeave(client: Client): void {
    this.coalescing.forget(client);
  }

  override onDispose(): void {
    this.coalescing?.stop();
    this.prizesTimer?.clear();
    this.batch.stop();
  }

  private onWin(message: WinMessage): void {
    if (this.remember(message)) this.batch.add(message);
  }

  /**
   * Wins reach the rooms of every process in whatever order: each batch goes out in feed order,
   * encoded once, to the spectators here now, in slices. One who joins meanwhile has these wins
   * in its `recent`.
   */
  private sendWins(messages: WinMessage[]): void {
    messages.sort((a, b) => a.seq - b.seq);
    for (const message of messages) this.keep(message);
    const wins = messages.map((m) => m.win);
    const last = messages.at(-1)!.seq;
    this.sendToAll('wins', { wins } satisfies FeedMessages['wins'], (client) => this.lastSent.set(client, last));
    this.services.winsSent?.(wins);
  }

  /**
   * One message to every spectator here now: encoded once, sent in slices (not in one turn of
   * the event loop), but not to one held back (`sent` is told of each it went to).
   */
  private sendToAll(type: string, message: unknown, sent?: (client: Client) => void): void {
    const frame = getMessageBytes.raw(Protocol.ROOM_DATA, type, message);
    for (const client of this.clients) {
      this.fanOut.push(() => {
        if (this.coalescing.holds(client)) return;
        client.enqueueRaw(frame);
        sent?.(client);
      });
    }
    this.fanOut.flush();
  }

  /** A spectator held back has caught up: the wins it missed (of the last FEED_RECENT) in one message, and the prizes left. */
  private catchUp(client: Client): void {
    if (!this.clients.includes(client)) return;
    const after = this.lastSent.get(client) ?? 0;
    const missed = this.recentWins.filter((m) => m.seq > after);
    if (missed.length > 0) {
      client.send('wins', { wins: missed.map((m) => m.win) } satisfies FeedMessages['wins']);
      this.lastSent.set(client, missed.at(-1)!.seq);
    }
    if (this.prizes) client.send('prizes_left', this.prizes satisfies FeedMessages['prizes_left']);
  }

  /** False when this win was already here (kept or waiting). */
  private remember(message: WinMessage): boolean {
    if (this.seen.has(message.seq)) return false;
    this.seen.add(message.seq);
    return true;
  }

  /** Keeps the last N wins sent, in feed order. */
  private keep(message: WinMessage): void {
    let i = this.recentWins.length;
    while (i > 0 && this.recentWins[i - 1]!.seq > message.seq) i--;
    this.recentWins.splice(i, 0, message);
    while (this.recentWins.length > this.recentLimit) this.seen.delete(this.recentWins.shift()!.seq);
  }

  /** A prize left the count somewhere: recompute soon (at most once a second). */
  private prizesChanged(): void {
    this.feed.forgetPrizesLeft();
    this.schedulePrizes();
  }

  private schedulePrizes(): void {
    if (this.prizesTimer) return;
    const delay = Math.max(0, this.lastPrizesAt + PRIZES_EVERY_MS - Date.now());
    this.prizesTimer = this.clock.setTimeout(() => {
      this.lastPrizesAt = Date.now();
      this.feed.prizesLeft(PRIZES_EVERY_MS / 2).then(
        (prizes) => {
          this.prizesTimer = undefined;
          const changes = prizeChanges(this.prizes ?? [], prizes);
          if (changes?.length === 0) return;
          this.prizes = prizes;
          if (changes) this.sendToAll('prizes_changed', changes satisfies FeedMessages['prizes_changed']);
          else this.sendToAll('prizes_left', prizes satisfies FeedMessages['prizes_left']);
        },
        (err: unknown) => {
          this.prizesTimer = undefined;
          this.services.logError('prizes left failed', err);
        },
      );
    }, delay);
  }

  private refuse(client: Client, ctx: MessageContext | undefined): unknown {
    return answerRefusal(client, ctx, readOnly('the feed'));
  }
}
