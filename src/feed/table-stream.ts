import type { Presence } from '@colyseus/core';
import type { WatcherCloseReason } from '../protocol/table';

/**
 * A table's stream to its watchers, through Colyseus presence (Redis pub/sub across processes,
 * in memory embedded): the table publishes each view its player has seen, once; the watch rooms
 * of every process relay it to their watchers.
 *
 * Every frame is the table's whole view (its units, steps packed), numbered: a relay applies a
 * frame only when its number is higher than the last it applied, so frames met twice (the
 * latest kept in a key for late joiners, and the channel) or late count once, and a relay that
 * missed one loses nothing (the next one holds it all). The latest frame is kept under a key
 * that lives `STREAM_TTL_SECONDS` unless the table keeps it alive: a relay that finds it gone
 * knows the table's process is (its watchers are told `table/lost`).
 *
 * Watchers are counted per relay (a hash `relayId → count`); each relay keeps a key of its own
 * alive the same way, so that the watchers of a relay whose process died stop counting within
 * `STREAM_TTL_SECONDS` (the next count finds its key gone and drops its entry), not when the
 * table closes.
 */

/** A unit as watchers see it: the table state's values, each step packed (src/games/step-codec.ts). */
export interface WatchedUnit {
  readonly unitId: string;
  readonly stake: number;
  readonly status: string;
  readonly prize: number;
  readonly steps: readonly string[];
}

/** One frame of a table's stream: its whole view, numbered. */
export interface TableFrame {
  readonly seq: number;
  readonly game: string;
  readonly units: readonly WatchedUnit[];
  /** The player's connection: `away` while it is down. */
  readonly player: 'here' | 'away';
  /** Only on the last frame: why the table closed to its watchers. */
  readonly end?: WatcherCloseReason;
}

/** How long the latest frame is kept without the table refreshing it (its process may be dead). */
const STREAM_TTL_SECONDS = 6;
/** How often a table open to watchers keeps its frame alive, and how often a relay checks it. */
export const STREAM_HEARTBEAT_MS = 2000;

export class TableStreams {
  constructor(
    private readonly presence: Presence,
    private readonly prefix: string,
  ) {}

  /** Publishes a frame: the key first (for relays starting now), then the channel. */
  async publish(tableId: string, frame: TableFrame): Promise<void> {
    const json = JSON.stringify(frame);
    if (frame.end) await this.presence.del(this.frameKey(tableId));
    else await this.presence.setex(this.frameKey(tableId), json, STREAM_TTL_SECONDS);
    await this.presence.publish(this.channel(tableId), frame);
    if (frame.end) await this.presence.del(this.countsKey(tableId));
  }

  /** The table is alive: its latest frame stays. */
  async keepAlive(tableId: string): Promise<void> {
    await this.presence.expire(this.frameKey(tableId), STREAM_TTL_SECONDS);
  }

  /** The latest frame, or undefined when the table is closed to watchers, gone, or its process dead. */
  async latest(tableId: string): Promise<TableFrame | undefined> {
    const json = (await this.presence.get(this.frameKey(tableId))) as string | null | undefined;
    return json ? (JSON.parse(json) as TableFrame) : undefined;
  }

  /**
   * Calls `onFrame` with the latest frame, then with each one published after it, never one
   * older than the last given (subscribed first, then the key read). Undefined, and nothing
   * subscribed, when there is no latest frame (the table is not open to watchers).
   */
  async follow(tableId: string, onFrame: (frame: TableFrame) => void): Promise<(() => void) | undefined> {
    let last = 0;
    let loaded = false;
    const early: TableFrame[] = [];
    const give = (frame: TableFrame) => {
      if (frame.seq <= last) return;
      last = frame.seq;
      onFrame(frame);
    };
    const listener = (frame: TableFrame) => (loaded ? give(frame) : early.push(frame));
    const channel = this.channel(tableId);
    await this.presence.subscribe(channel, listener);
    const stop = () => this.presence.unsubscribe(channel, listener);
    const latest = await this.latest(tableId).catch((err: unknown) => {
      stop();
      throw err;
    });
    if (!latest) {
      stop();
      return undefined;
    }
    loaded = true;
    for (const frame of [latest, ...early].sort((a, b) => a.seq - b.seq)) give(frame);
    return stop;
  }

  /** The relay `relayId` of the table is alive: its watchers count (see `total`). */
  async relayAlive(tableId: string, relayId: string): Promise<void> {
    await this.presence.setex(this.relayKey(tableId, relayId), '1', STREAM_TTL_SECONDS);
  }

  /**
   * Counts a watcher in for `relayId` unless the table has `max` already (every live relay's
   * count summed).
   */
  async admit(tableId: string, relayId: string, max: number): Promise<boolean> {
    const key = this.countsKey(tableId);
    await this.presence.hincrby(key, relayId, 1);
    if ((await this.total(tableId)) <= max) return true;
    await this.presence.hincrby(key, relayId, -1);
    return false;
  }

  async leave(tableId: string, relayId: string): Promise<void> {
    await this.presence.hincrby(this.countsKey(tableId), relayId, -1);
  }

  /** A relay going away: its count goes with it. */
  async forget(tableId: string, relayId: string): Promise<void> {
    await Promise.all([this.presence.hdel(this.countsKey(tableId), relayId), this.presence.del(this.relayKey(tableId, relayId))]);
  }

  /** Watchers of the table over every live relay; a relay whose key expired (its process died) is dropped. */
  async total(tableId: string): Promise<number> {
    const counts = Object.entries((await this.presence.hgetall(this.countsKey(tableId))) ?? {});
    const alive = await Promise.all(counts.map(([relayId]) => this.presence.exists(this.relayKey(tableId, relayId))));
    let sum = 0;
    for (const [i, [relayId, n]] of counts.entries()) {
      if (alive[i]) sum += Math.max(0, Number(n) || 0);
      else await this.presence.hdel(this.countsKey(tableId), relayId);
    }
    return sum;
  }

  private channel(tableId: string): string {
    return `${this.prefix}:watch:${tableId}`;
  }

  private frameKey(tableId: string): string {
    return `${this.prefix}:watch:${tableId}:frame`;
  }

  private countsKey(tableId: string): string {
    return `${this.prefix}:watch:${tableId}:watchers`;
  }

  private relayKey(tableId: string, relayId: string): string {
    return `${this.prefix}:watch:${tableId}:relay:${relayId}`;
  }
}
