import type { Client, Room } from '@colyseus/sdk';
import type { FeedMessages, Win } from '../src/protocol/feed';
import { inShare, type FinishBoard, type SyntheticPlayer } from './player';
import { playerIndexOf } from './pseudonyms';
import { joinWithin, withTimeout, type Stats } from './stats';

const JOIN_TIMEOUT_MS = 20_000;

/**
 * Spectators, without an account: on the live-wins feed (`joinOrCreate('feed')`, `recent` then
 * `wins` messages, each a batch of wins), or watching a player's table (`joinOrCreate('watch', { table: roomId })`, a
 * relay of it on any process; the echo baseline's `joinById(roomId, { watch: true })`), the same
 * state patches as the player). Each measures how long after the player's own client it got
 * what it got.
 */

/**
 * Wins announced before the player's client saw the result wait for it, at most 10 s; a win is
 * matched only to a result the player saw in the last 10 s (a later one is not timed, its age is).
 */
const EARLY_WIN_MS = 10_000;
const MATCH_WINDOW_MS = 10_000;

/**
 * Feed spectators that time every win they get (delay and age); the others only count. Timing
 * a win costs the harness a few µs, and every feed spectator gets every win: timed at a
 * thousand spectators it cost the load generator more CPU than the server spent sending them.
 */
export const TIMED_FEED_SPECTATORS = 100;

export class FeedSpectator {
  room: Room | undefined;
  private early: { index: number; win: Win; at: number }[] = [];
  /** Per player: the number of the last of its wins this spectator matched. */
  private readonly matched: Int32Array;
  /** The measuring window in which it was last counted as served (Stats.served). */
  private servedIn = -1;

  constructor(
    private readonly client: InstanceType<typeof Client>,
    private readonly stats: Stats,
    private readonly board: FinishBoard,
    /** The run's prefix (pseudonyms.ts): wins of other players are not ours to time. */
    private readonly prefix: string,
    /** Times each win it gets (see TIMED_FEED_SPECTATORS); otherwise only counts them. */
    private readonly timed: boolean,
  ) {
    this.matched = new Int32Array(board.players).fill(-1);
  }

  async join(): Promise<void> {
    const room = await joinWithin(this.client.joinOrCreate('feed'), JOIN_TIMEOUT_MS);
    this.room = room;
    // Results seen before this spectator was in the room are not its to time (their wins went
    // out before it joined): start matching from here, as the handlers go on.
    for (let i = 0; i < this.matched.length; i++) this.matched[i] = this.board.lastSeq(i);
    room.onMessage('recent', () => this.stats.count.received++);
    room.onMessage('wins', (batch: FeedMessages['wins'] | undefined) => this.onWins(batch?.wins ?? []));
    room.onMessage('*', () => this.stats.count.received++);
    room.onStateChange(() => {
      this.stats.count.received++;
      this.stats.count.patches++;
    });
    room.onLeave((code) => {
      if (this.room === room && code !== 1000 && code !== 4000) this.stats.error(`connection/feed_left_${code}`);
    });
  }

  private indexOf(pseudonym: unknown): number | undefined {
    const index = playerIndexOf(pseudonym, this.prefix);
    return index !== undefined && index < this.matched.length ? index : undefined;
  }

  /** One message, timed per win: every win of the batch arrived now. */
  private onWins(wins: readonly Win[]): void {
    this.stats.count.received++;
    this.stats.count.feedWins += wins.length;
    if (wins.length > 0) this.servedIn = this.stats.served('feedSpectatorsServed', this.servedIn);
    if (!this.timed) return;
    const now = performance.now();
    this.settleEarly(now);
    for (const win of wins) this.onWin(win, now);
  }

  private onWin(win: Win, now: number): void {
    const index = this.indexOf(win?.pseudonym);
    if (index === undefined) return;
    const at = typeof win.at === 'string' ? Date.parse(win.at) : NaN;
    if (Number.isFinite(at)) this.stats.record(this.stats.feedAge, Math.max(0, Date.now() - at));
    // A player of another worker thread: its client's clock is not this thread's to match.
    if (!inShare(this.board.share, index)) return;
    const seen = this.board.match(index, win.game, win.amount, this.matched[index]!, now - MATCH_WINDOW_MS);
    if (seen) {
      this.matched[index] = seen.seq;
      this.stats.record(this.stats.feedDelay, now - seen.at);
    } else {
      this.early.push({ index, win, at: now });
    }
  }

  /** Early wins whose result the player has seen since: ahead of the player; too old: unmatched. */
  private settleEarly(now: number): void {
    if (this.early.length === 0) return;
    this.early = this.early.filter(({ index, win, at }) => {
      const seen = this.board.match(index, win.game, win.amount, this.matched[index]!, at - MATCH_WINDOW_MS);
      if (seen) {
        this.matched[index] = seen.seq;
        this.stats.count.feedAheadOfPlayer++;
        this.stats.lead('feed', seen.at - at);
        return false;
      }
      if (now - at > EARLY_WIN_MS) {
        this.stats.count.feedUnmatched++;
        return false;
      }
      return true;
    });
  }

  async leave(): Promise<void> {
    this.settleEarly(performance.now());
    const room = this.room;
    this.room = undefined;
    if (room) await withTimeout(room.leave(true), JOIN_TIMEOUT_MS, 'leave/timeout').catch(() => undefined);
  }
}

interface UnitView {
  unitId: string;
  steps: { length: number };
}

export class TableWatcher {
  room: Room | undefined;

  constructor(
    private readonly client: InstanceType<typeof Client>,
    private readonly stats: Stats,
    private readonly player: SyntheticPlayer,
    private readonly roomId: string,
    /** The echo baseline's watchers join its table itself (it has no watch rooms). */
    private readonly atTheTable = false,
  ) {}

  /** Steps of each unit this watcher has seen. */
  private seen = new Map<string, number>();
  private first = true;
  /** The measuring window in which it was last counted as served (Stats.served). */
  private servedIn = -1;

  async join(): Promise<void> {
    const joining = this.atTheTable ? this.client.joinById(this.roomId, { watch: true }) : this.client.joinOrCreate('watch', { table: this.roomId });
    const room = await joinWithin(joining, JOIN_TIMEOUT_MS);
    this.room = room;
    room.onStateChange(() => this.onPatch());
    room.onMessage('*', () => this.stats.count.received++);
    room.onLeave((code) => {
      if (this.room === room && code !== 1000 && code !== 4000) this.stats.error(`connection/watch_left_${code}`);
    });
  }

  private onPatch(): void {
    const now = performance.now();
    this.stats.count.received++;
    this.stats.count.patches++;
    const state = this.room?.state as { units?: Iterable<UnitView> } | undefined;
    if (!state?.units) return;
    // The state at join holds steps played before: only steps after it are timed. A new
    // purchase replaces the units, and their steps count from the first.
    const first = this.first;
    this.first = false;
    const next = new Map<string, number>();
    for (const unit of state.units) {
      const count = unit.steps.length;
      next.set(unit.unitId, count);
      for (let seq = this.seen.get(unit.unitId) ?? (first ? count : 0); seq < count; seq++) {
        this.stats.count.watchSteps++;
        this.servedIn = this.stats.served('watchersServed', this.servedIn);
        const key = `${unit.unitId}:${seq}`;
        const delay = this.player.stepClock.watcher(key, now);
        if (delay !== undefined) this.stats.record(this.stats.watchDelay, delay);
      }
    }
    this.seen = next;
  }

  async leave(): Promise<void> {
    const room = this.room;
    this.room = undefined;
    if (room) await withTimeout(room.leave(true), JOIN_TIMEOUT_MS, 'leave/timeout').catch(() => undefined);
  }
}
