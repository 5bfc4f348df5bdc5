import { readOffloadedUnit } from '../offload/unit-files';
import { parseUnitId } from '../ids';
import type { LoggedAction } from '../games/replay';

/**
 * The append-only log of what the player (or the server, for an abandoned unit) did in a unit's
 * reveal (`LoggedAction`, defined with `replay` in src/games/replay.ts). With the sale (outcome,
 * seed, picks) it is all a recall or a resume needs: the games are deterministic, so replaying
 * the log rebuilds every step exactly.
 */
export type { LoggedAction };

export interface ActionLog {
  /**
   * Appends `entry` only if the unit's log holds exactly `expectedLength` entries: two processes
   * acting on one unit at once cannot interleave (the loser re-reads and retries or refuses).
   */
  append(unitId: string, expectedLength: number, entry: LoggedAction): Promise<boolean>;
  /** A unit's log; from its block's offloaded files once offloaded. */
  read(unitId: string): Promise<LoggedAction[]>;
  /**
   * Drops the logs of `unitIds`, units of `blockId` written to the files at `path`
   * (src/offload/unit-files.ts); `read` answers them from there after that.
   */
  offload(blockId: string, path: string, unitIds: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** The logged actions of an offloaded unit, or undefined when its block is not offloaded at `path`. */
export async function offloadedActions(path: string | null | undefined, unitId: string): Promise<LoggedAction[] | undefined> {
  const ref = parseUnitId(unitId);
  if (!path || !ref) return undefined;
  return (await readOffloadedUnit(path, unitId, ref.position))?.actions as LoggedAction[] | undefined;
}

export class MemoryActionLog implements ActionLog {
  /**
   * Each unit's entries as the JSON text of their list, and how many: no caller can mutate what
   * was logged. One flat text a unit, extended at each append without being parsed: an array of
   * one text per entry kept ~950 bytes a unit, this ~450 with its count; parsing the whole log
   * at each append cost ~20 µs a unit (docs/lab/performance.md, "Memory kept a unit, embedded
   * default" and "CPU a unit, before and after").
   */
  private readonly logs = new Map<string, { readonly count: number; readonly json: string }>();
  /** blockId → where its units were offloaded. */
  private readonly offloaded = new Map<string, string>();

  async append(unitId: string, expectedLength: number, entry: LoggedAction): Promise<boolean> {
    const log = this.logs.get(unitId);
    if ((log?.count ?? 0) !== expectedLength) return false;
    const json = JSON.stringify(entry);
    this.logs.set(unitId, log ? { count: log.count + 1, json: `${log.json.slice(0, -1)},${json}]` } : { count: 1, json: `[${json}]` });
    return true;
  }

  async read(unitId: string): Promise<LoggedAction[]> {
    const log = this.logs.get(unitId);
    if (log) return JSON.parse(log.json) as LoggedAction[];
    return (await offloadedActions(this.offloaded.get(parseUnitId(unitId)?.blockId ?? ''), unitId)) ?? [];
  }

  async offload(blockId: string, path: string, unitIds: readonly string[]): Promise<void> {
    this.offloaded.set(blockId, path);
    for (const unitId of unitIds) this.logs.delete(unitId);
  }

  /** Drops the logs of units the embedded dealer forgot (`MemoryStoreOptions.keepSettled`). */
  forget(unitIds: readonly string[]): void {
    for (const unitId of unitIds) this.logs.delete(unitId);
  }

  async close(): Promise<void> {}
}
