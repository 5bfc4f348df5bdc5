/**
 * What the operator's launches keep in the store (docs/server.md, "Launch"), shared by every
 * process: the signatures already seen (a captured request makes no second launch), the one-use
 * codes and session handles with their short lives, and when the operator last ended a player's
 * sessions (a token of a session started before is refused from then on).
 */
export interface LaunchStore {
  /** True the first time `key` is seen within `ttlMs`; false after (a replay). */
  firstSight(key: string, ttlMs: number): Promise<boolean>;
  /** Keeps `value` under `key` for `ttlMs`. */
  put(key: string, value: string, ttlMs: number): Promise<void>;
  /** The value under `key`, removed: the first call gets it, every other nothing. */
  take(key: string): Promise<string | undefined>;
  /** The value under `key`, left there. */
  get(key: string): Promise<string | undefined>;
  /** The player's sessions started at or before `at` are ended; kept `keepMs` (a token's longest life). */
  endSessions(playerId: string, at: number, keepMs: number): Promise<void>;
  /** When the operator last ended the player's sessions, if it did within their keeping. */
  sessionsEndedAt(playerId: string): Promise<number | undefined>;
}

/** Entries the memory store holds at most: past it the oldest go first (a demo, not a fleet). */
const MEMORY_MAX_ENTRIES = 100_000;

/** The embedded default's launch store: bounded maps, read by the store clock. */
export class MemoryLaunchStore implements LaunchStore {
  private readonly entries = new Map<string, { value: string; until: number }>();

  constructor(private readonly now: () => number) {}

  async firstSight(key: string, ttlMs: number): Promise<boolean> {
    if (this.live(`seen:${key}`) !== undefined) return false;
    this.keep(`seen:${key}`, '1', ttlMs);
    return true;
  }

  async put(key: string, value: string, ttlMs: number): Promise<void> {
    this.keep(`once:${key}`, value, ttlMs);
  }

  async take(key: string): Promise<string | undefined> {
    const value = this.live(`once:${key}`);
    this.entries.delete(`once:${key}`);
    return value;
  }

  async get(key: string): Promise<string | undefined> {
    return this.live(`once:${key}`);
  }

  async endSessions(playerId: string, at: number, keepMs: number): Promise<void> {
    this.keep(`ended:${playerId}`, String(at), keepMs);
  }

  async sessionsEndedAt(playerId: string): Promise<number | undefined> {
    const at = this.live(`ended:${playerId}`);
    return at === undefined ? undefined : Number(at);
  }

  private live(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.until > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  private keep(key: string, value: string, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until: this.now() + ttlMs });
    // Oldest written first: a full map drops those (most have expired by then).
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MEMORY_MAX_ENTRIES) break;
      this.entries.delete(oldest);
    }
  }
}
