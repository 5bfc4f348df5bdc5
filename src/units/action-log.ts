/**
 * The append-only log of what the player (or the server, for an abandoned unit) did in a unit's
 * reveal. With the sale (outcome, seed, picks) it is all a recall or a resume needs: the games
 * are deterministic, so replaying the log rebuilds every step exactly.
 */
export interface LoggedAction {
  /** The parsed action as the game's reducer took it (JSON). */
  readonly action: unknown;
  readonly at: number;
  readonly by: 'player' | 'server';
}

export interface ActionLog {
  /**
   * Appends `entry` only if the unit's log holds exactly `expectedLength` entries: two processes
   * acting on one unit at once cannot interleave (the loser re-reads and retries or refuses).
   */
  append(unitId: string, expectedLength: number, entry: LoggedAction): Promise<boolean>;
  read(unitId: string): Promise<LoggedAction[]>;
  close(): Promise<void>;
}

export class MemoryActionLog implements ActionLog {
  private readonly logs = new Map<string, LoggedAction[]>();

  async append(unitId: string, expectedLength: number, entry: LoggedAction): Promise<boolean> {
    const log = this.logs.get(unitId) ?? [];
    if (log.length !== expectedLength) return false;
    // Stored as JSON text, as in Redis, so that no caller can mutate what was logged.
    log.push(JSON.parse(JSON.stringify(entry)) as LoggedAction);
    this.logs.set(unitId, log);
    return true;
  }

  async read(unitId: string): Promise<LoggedAction[]> {
    return (this.logs.get(unitId) ?? []).map((e) => JSON.parse(JSON.stringify(e)) as LoggedAction);
  }

  async close(): Promise<void> {}
}
