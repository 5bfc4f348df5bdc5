import '../node-websocket';
import { Client, type Room } from '@colyseus/sdk';
import { joinWithin, withTimeout } from '../stats';
import { playerIndexOf, playerPseudonym } from '../pseudonyms';
import type { FeedWinSeen } from './feed-order';

/**
 * Feed spectators of a chaos run: each stays on the wins feed through the faults (its
 * connection lost, it joins again on the next endpoint) and keeps every win of this run's
 * players it gets, with the end of the event-loop turn that read it, for `checkFeedOrder`.
 * Like the page's lobby, each also reads `GET /tables` of its process every 2 s, so that the
 * faults meet the room listing's reads as they meet the page's.
 */

const JOIN_TIMEOUT_MS = 10_000;
const REJOIN_MS = 500;
/** The page's lobby reads the open tables this often (web/src/lobby.tsx). */
const TABLES_EVERY_MS = 2000;

interface Win {
  readonly game?: unknown;
  readonly stake?: unknown;
  readonly amount?: unknown;
  readonly pseudonym?: unknown;
}

export class FeedWatch {
  readonly wins: FeedWinSeen[] = [];
  rejoins = 0;
  private room: Room | undefined;
  private stopped = false;
  private endpointIndex: number;

  constructor(
    readonly index: number,
    private readonly endpoints: readonly string[],
    /** Pseudonyms of this run's players start with it; other wins are not ours to check. */
    private readonly prefix: string,
    private readonly onError: (code: string, detail?: unknown) => void,
  ) {
    this.endpointIndex = index % endpoints.length;
  }

  private tablesTimer: NodeJS.Timeout | undefined;

  /** Reads `/tables` of its current process every 2 s until stopped; a failure is counted (`tables/http_<status>`, `tables/failed`). */
  private pollTables(): void {
    this.tablesTimer = setInterval(() => {
      fetch(`${this.endpoints[this.endpointIndex]!}/tables`, { signal: AbortSignal.timeout(JOIN_TIMEOUT_MS) }).then(
        async (res) => {
          await res.arrayBuffer();
          if (!res.ok) this.onError(`tables/http_${res.status}`);
        },
        () => this.onError('tables/failed'),
      );
    }, TABLES_EVERY_MS);
    this.tablesTimer.unref();
  }

  async join(): Promise<void> {
    if (!this.tablesTimer) this.pollTables();
    const room = await joinWithin(new Client(this.endpoints[this.endpointIndex]!).joinOrCreate('feed'), JOIN_TIMEOUT_MS);
    room.reconnection.enabled = false;
    this.room = room;
    room.onMessage('wins', (batch: { wins?: Win[] }) => this.onWins(batch?.wins ?? []));
    room.onMessage('*', () => undefined);
    room.onLeave((code) => {
      if (this.room !== room || this.stopped) return;
      this.room = undefined;
      this.onError(`connection/feed_left_${code}`);
      void this.rejoin();
    });
  }

  private async rejoin(): Promise<void> {
    while (!this.stopped) {
      await new Promise((resolve) => setTimeout(resolve, REJOIN_MS));
      if (this.stopped) return;
      this.endpointIndex = (this.endpointIndex + 1) % this.endpoints.length;
      try {
        await this.join();
        this.rejoins++;
        return;
      } catch (err) {
        this.onError('join/feed_failed', err);
      }
    }
  }

  /** Only `wins` (live) are checked; `recent` on joining repeats wins already out. */
  private onWins(wins: readonly Win[]): void {
    const wallAt = Date.now();
    const got: Omit<FeedWinSeen, 'checkedAt'>[] = [];
    for (const w of wins) {
      // The feed masks pseudonyms; the first characters still name this run's player (pseudonyms.ts).
      const player = playerIndexOf(w.pseudonym, this.prefix);
      if (player === undefined) continue;
      got.push({ spectator: this.index, pseudonym: playerPseudonym(this.prefix, player), game: String(w.game), stake: Number(w.stake), amount: Number(w.amount), wallAt });
    }
    if (got.length === 0) return;
    // After the poll phase: the player's frames read in this same turn count as before the win.
    setImmediate(() => {
      const checkedAt = performance.now();
      for (const g of got) this.wins.push({ ...g, checkedAt });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.tablesTimer);
    const room = this.room;
    this.room = undefined;
    if (room) await withTimeout(room.leave(true), JOIN_TIMEOUT_MS, 'leave/timeout').catch(() => undefined);
  }
}
