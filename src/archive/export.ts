import type { ArchiveRecord } from './records';
import { dayOf } from './files';

/**
 * What the operator hands the regulator (docs/archive.md, "Export"): one player's or one game's
 * records over a period, and a daily summary per game.
 */

export interface ExportFilter {
  readonly player?: string | undefined;
  readonly game?: string | undefined;
  /** First and last UTC day included, `YYYY-MM-DD`. */
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

function inPeriod(at: number, filter: ExportFilter): boolean {
  const day = dayOf(at);
  return (filter.from === undefined || day >= filter.from) && (filter.to === undefined || day <= filter.to);
}

/** The records of `filter`, in stream order (a game's: its stakes and prizes, and the play records of its tables). */
export function selectRecords(records: readonly ArchiveRecord[], filter: ExportFilter): ArchiveRecord[] {
  return records.filter(
    (r) => inPeriod(r.at, filter) && (filter.player === undefined || r.player === filter.player) && (filter.game === undefined || r.payload['game'] === filter.game),
  );
}

export interface DailyGameSummary {
  readonly day: string;
  readonly game: string;
  /** Units sold (stake records). */
  readonly units: number;
  /** Cents staked, and paid out in prizes. */
  readonly stakes: number;
  readonly prizes: number;
  /** Gross gaming revenue: stakes less prizes, in cents. */
  readonly ggr: number;
}

/** Per UTC day and game: units sold, stakes, prizes and gross gaming revenue, from the money records. */
export function dailySummary(records: readonly ArchiveRecord[], filter: ExportFilter = {}): DailyGameSummary[] {
  const rows = new Map<string, { day: string; game: string; units: number; stakes: number; prizes: number }>();
  for (const r of records) {
    if ((r.kind !== 'stake' && r.kind !== 'prize') || !inPeriod(r.at, filter)) continue;
    const day = dayOf(r.at);
    const game = String(r.payload['game']);
    const key = `${day} ${game}`;
    const row = rows.get(key) ?? { day, game, units: 0, stakes: 0, prizes: 0 };
    const amount = Number(r.payload['amount']);
    if (r.kind === 'stake') {
      row.units++;
      row.stakes -= amount;
    } else row.prizes += amount;
    rows.set(key, row);
  }
  return [...rows.keys()].sort().map((key) => {
    const row = rows.get(key)!;
    return { ...row, ggr: row.stakes - row.prizes };
  });
}
