import type { Room } from '@colyseus/core';
import { joinRefused } from './refusals';

/** A table's listing in the matchmaker (`GET /tables` reads it, from any process). */
export interface TableMetadata {
  readonly game: string;
  readonly pseudonym: string;
  /** Open to watchers. */
  readonly watchable: boolean;
  readonly watchers: number;
}

/** How often at most the watcher count is written to the listing. */
const LISTING_EVERY_MS = 1000;

/**
 * Who watches a table, and the table's listing: open or not, how many watchers. The count is
 * written at most once a second (a thousand joins are one write), the rest at once.
 */
export class Watchers {
  private readonly sessions = new Set<string>();
  private open = false;
  private pseudonym = '';
  private due = false;
  private timer: { clear(): void } | undefined;

  constructor(
    private readonly room: Room<{ metadata: TableMetadata }>,
    private readonly game: string,
    /** Most watchers a table takes (WATCHERS_MAX). */
    readonly max: number,
    private readonly logError: (message: string, err: unknown) => void,
  ) {}

  get isOpen(): boolean {
    return this.open;
  }

  get count(): number {
    return this.sessions.size;
  }

  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /** Takes a spectator in, or refuses it (403): table not open, or all the watchers it takes. */
  admit(sessionId: string): void {
    if (!this.open) throw joinRefused(403, 'table/not_watchable', 'this table is not open to watchers');
    if (this.sessions.size >= this.max) throw joinRefused(403, 'table/full', 'this table has all the watchers it takes');
    this.sessions.add(sessionId);
    this.countChanged();
  }

  /** False when `sessionId` was not a watcher. */
  remove(sessionId: string): boolean {
    if (!this.sessions.delete(sessionId)) return false;
    this.countChanged();
    return true;
  }

  /** Opens or closes the table to watchers (closing does not send anyone away: the room does). */
  setOpen(open: boolean): Promise<void> {
    this.open = open;
    return this.write();
  }

  setPseudonym(pseudonym: string): Promise<void> {
    this.pseudonym = pseudonym;
    return this.write();
  }

  stop(): void {
    this.timer?.clear();
  }

  private countChanged(): void {
    this.due = true;
    if (this.timer) return;
    void this.write();
    this.timer = this.room.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.due) this.countChanged();
    }, LISTING_EVERY_MS);
  }

  private write(): Promise<void> {
    this.due = false;
    const metadata: TableMetadata = { game: this.game, pseudonym: this.pseudonym, watchable: this.open, watchers: this.sessions.size };
    return this.room.setMetadata(metadata).catch((err: unknown) => this.logError('table listing failed', err));
  }
}
