import type { Room } from '@colyseus/core';
import { STREAM_HEARTBEAT_MS, type TableFrame, type TableStreams, type WatchedUnit } from '../feed/table-stream';
import type { WatcherCloseReason } from '../protocol/table';

/** A table's listing in the matchmaker (`GET /tables` reads it, from any process). */
export interface TableMetadata {
  readonly game: string;
  readonly pseudonym: string;
  /** Open to watchers. */
  readonly watchable: boolean;
  readonly watchers: number;
}

/**
 * A table's side of watching: its listing (open or not, how many watch it over every relay,
 * refreshed with the heartbeat) and its stream (src/feed/table-stream.ts). The table gives it
 * each view its player has seen; it publishes it once, numbered, for the watch rooms of every
 * process, and keeps the latest alive while the table is open (a relay that finds it gone
 * knows the table's process died).
 */
export class Watchers {
  private open = false;
  private pseudonym = '';
  private count = 0;
  private seq = 0;
  private units: readonly WatchedUnit[] = [];
  private player: TableFrame['player'] = 'here';
  private heartbeat: { clear(): void } | undefined;
  /** The last write to the stream (the presence's one connection keeps them in order). */
  private lastWrite: Promise<void> = Promise.resolve();

  constructor(
    private readonly room: Room<{ metadata: TableMetadata }>,
    private readonly game: string,
    private readonly streams: TableStreams,
    /** Most watchers a table takes (WATCHERS_MAX); 0: tables cannot be opened. */
    readonly max: number,
    private readonly logError: (message: string, err: unknown) => void,
  ) {}

  get isOpen(): boolean {
    return this.open;
  }

  /** Opens the table to watchers with the view its player has now; resolves once relays can find it. */
  async openWith(units: readonly WatchedUnit[]): Promise<void> {
    if (!this.open) {
      this.open = true;
      this.heartbeat = this.room.clock.setInterval(() => this.beat(), STREAM_HEARTBEAT_MS);
    }
    this.show(units);
    await Promise.all([this.lastWrite, this.writeListing()]);
  }

  /** A view the player has seen: published to the relays. */
  show(units: readonly WatchedUnit[]): void {
    this.units = units;
    this.publish();
  }

  /** The player's connection dropped (`away`) or is back (`here`): the relays tell their watchers at once. */
  playerIs(player: TableFrame['player']): void {
    if (this.player === player) return;
    this.player = player;
    this.publish();
  }

  /** Closes the table to watchers: the relays send theirs away with `reason`. */
  async close(reason: WatcherCloseReason): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.heartbeat?.clear();
    this.count = 0;
    this.publish(reason);
    await Promise.all([this.lastWrite, this.writeListing()]);
  }

  setPseudonym(pseudonym: string): Promise<void> {
    this.pseudonym = pseudonym;
    return this.writeListing();
  }

  stop(): void {
    this.heartbeat?.clear();
  }

  private publish(end?: WatcherCloseReason): void {
    if (!this.open && !end) return;
    const frame: TableFrame = { seq: ++this.seq, game: this.game, units: this.units, player: this.player, ...(end ? { end } : {}) };
    this.enqueue(() => this.streams.publish(this.room.roomId, frame));
  }

  /** Keeps the latest frame alive, and the listing's count up to date. */
  private beat(): void {
    this.enqueue(() => this.streams.keepAlive(this.room.roomId));
    this.streams.total(this.room.roomId).then((count) => {
      if (!this.open || count === this.count) return;
      this.count = count;
      return this.writeListing();
    }).catch((err: unknown) => this.logError('watcher count failed', err));
  }

  private enqueue(write: () => Promise<void>): void {
    this.lastWrite = write().catch((err: unknown) => this.logError('table stream failed', err));
  }

  private writeListing(): Promise<void> {
    const metadata: TableMetadata = { game: this.game, pseudonym: this.pseudonym, watchable: this.open, watchers: this.count };
    return this.room.setMetadata(metadata).catch((err: unknown) => this.logError('table listing failed', err));
  }
}
