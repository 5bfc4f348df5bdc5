import type { Cents } from '../money';

/**
 * The shapes of the operator's reports as `/admin/reports/*` sends them (the console reads
 * them): one page of rows, and the rows the routes build beside the sales books'.
 */

/** The reports' books are read again at most this often (each reading reads only what was sold since). */
export const BOOKS_AGE_MS = 5_000;

/** A page of a report: `next` is the offset of the page after (null at the end). */
export interface ReportPage<T> {
  readonly rows: T[];
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  readonly next: number | null;
}

/** One printed block: its stock, what it paid, what it has left. */
export interface BlockRow {
  readonly emissionId: string;
  readonly game: string;
  readonly stake: Cents;
  readonly blockId: string;
  readonly index: number;
  readonly state: string;
  readonly size: number;
  readonly sold: number;
  readonly left: number;
  readonly prizesWon: Cents;
  readonly prizesLeft: Cents;
  /** The table's largest prize, and the units of it the block has left. */
  readonly topPrize: Cents | null;
  readonly topPrizesLeft: number | null;
  /** Per tier, `prize×left`, the largest prize first, losing units last (as prize 0). */
  readonly tiersLeft: string;
}

/** One line of a player's protection journal (docs/responsible-gaming.md), times in ISO. */
export interface ProtectionRow {
  readonly at: string;
  readonly playerId: string;
  readonly by: string;
  readonly what: string;
  readonly kind: string | null;
  readonly amount: Cents | null;
  readonly until: string | null;
  readonly reason: string | null;
  readonly code: string | null;
  readonly count: number | null;
}

/** Who is in the rooms of every process now, and the regulator's archive. */
export interface LiveState {
  readonly at: string;
  readonly players: number;
  readonly watchers: number;
  readonly feedSpectators: number;
  /** Whether this process writes an archive (ARCHIVE_DIR), how far it is behind, its day files. */
  readonly archive: boolean;
  readonly archiveLagSeconds: number | null;
  readonly archiveDayFiles: number;
  readonly archiveNewestDay: string | null;
}
