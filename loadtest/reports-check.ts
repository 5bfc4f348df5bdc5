import type { RecallRecord } from '../src/protocol/recall';
import type { BlockRow } from '../src/reports/report-rows';
import { parisDay, type DayRow } from '../src/reports/sales-books';
import { formatEurosLabel } from '../src/money';

/**
 * The operator's reports (`GET /admin/reports/days` and `/admin/reports/blocks`,
 * docs/reports.md) against the figures computed here from the recalls of the units the run's
 * players bought: per game × price × day (Europe/Paris, of each unit's `soldAt`) the units,
 * stakes, prizes and GGR; per block the units sold, left and the prizes won. `checkReports` is
 * pure: it gives every difference as a sentence.
 *
 * The reports count every unit the server sold, the recalls the run's own: on the servers the
 * harness started they are the same units, and the reports' figures must equal the recalls'
 * (`exact`). On given servers (`--endpoint`) the reports are also read before the run and the
 * run's figures are after − before (`delta`): equal only if nobody else bought meanwhile, as
 * the block check already assumes.
 */

/** What the check needs of a recall (`GET /history/:unitId`). */
export type RecalledSale = Pick<RecallRecord, 'game' | 'stake' | 'blockId' | 'status' | 'prize' | 'soldAt'>;

/** The reports' rows as far as the check reads them. */
export interface ReportsRead {
  readonly days: readonly Pick<DayRow, 'day' | 'game' | 'stake' | 'units' | 'stakes' | 'prizes' | 'ggr'>[];
  readonly blocks: readonly Pick<BlockRow, 'blockId' | 'game' | 'stake' | 'size' | 'sold' | 'left' | 'prizesWon'>[];
}

/** What was compared. */
export interface ReportsChecked {
  readonly mode: 'exact' | 'delta';
  /** Game × price × day figures and blocks compared, over this many units. */
  readonly days: number;
  readonly blocks: number;
  readonly units: number;
  /** Units whose recall shows no prize yet (unfinished): the prizes of their day and block were not compared. */
  readonly prizesUnknown: number;
  readonly differences: number;
}

/** What was compared, and every difference found as a sentence. */
export interface ReportsComparison {
  readonly checked: ReportsChecked;
  readonly differences: readonly string[];
}

interface Figures {
  units: number;
  stakes: number;
  prizes: number;
  /** Units of unknown prize among them. */
  unknown: number;
}


function tally(map: Map<string, Figures>, key: string, stake: number, prize: number | null): void {
  const f = map.get(key) ?? { units: 0, stakes: 0, prizes: 0, unknown: 0 };
  f.units++;
  f.stakes += stake;
  if (prize === null) f.unknown++;
  else f.prizes += prize;
  map.set(key, f);
}

/** The run's figures from the recalls: per `game|stake|day` and per block. */
export function figuresFromRecalls(recalls: Iterable<RecalledSale>): { days: Map<string, Figures>; blocks: Map<string, Figures> } {
  const days = new Map<string, Figures>();
  const blocks = new Map<string, Figures>();
  for (const r of recalls) {
    const prize = r.status === 'finished' ? r.prize : null;
    tally(days, `${r.game}|${r.stake}|${parisDay(Date.parse(r.soldAt))}`, r.stake, prize);
    tally(blocks, r.blockId, r.stake, prize);
  }
  return { days, blocks };
}

/** The reports' day rows summed per `game|stake|day` (a day may have two emissions of one game and price). */
function reportedDays(read: ReportsRead | undefined): Map<string, { units: number; stakes: number; prizes: number; ggr: number }> {
  const days = new Map<string, { units: number; stakes: number; prizes: number; ggr: number }>();
  for (const row of read?.days ?? []) {
    const key = `${row.game}|${row.stake}|${row.day}`;
    const d = days.get(key) ?? { units: 0, stakes: 0, prizes: 0, ggr: 0 };
    days.set(key, { units: d.units + row.units, stakes: d.stakes + row.stakes, prizes: d.prizes + row.prizes, ggr: d.ggr + row.ggr });
  }
  return days;
}

function compareDays(mine: Map<string, Figures>, after: ReportsRead, before: ReportsRead | undefined, differences: string[]): number {
  const a = reportedDays(after);
  const b = reportedDays(before);
  let compared = 0;
  for (const key of new Set([...a.keys(), ...mine.keys()])) {
    const [game, stake, day] = key.split('|');
    const was = b.get(key) ?? { units: 0, stakes: 0, prizes: 0, ggr: 0 };
    const now = a.get(key) ?? { units: 0, stakes: 0, prizes: 0, ggr: 0 };
    const r = { units: now.units - was.units, stakes: now.stakes - was.stakes, prizes: now.prizes - was.prizes, ggr: now.ggr - was.ggr };
    const m = mine.get(key) ?? { units: 0, stakes: 0, prizes: 0, unknown: 0 };
    if (r.units === 0 && m.units === 0) continue;
    compared++;
    const what = `${game} at ${formatEurosLabel(Number(stake))} on ${day}`;
    if (r.units !== m.units || r.stakes !== m.stakes) differences.push(`${what}: the reports say ${r.units} units, stakes ${formatEurosLabel(r.stakes)}; the recalls ${m.units} units, stakes ${formatEurosLabel(m.stakes)}`);
    if (m.unknown > 0) continue;
    if (r.prizes !== m.prizes) differences.push(`${what}: the reports say prizes ${formatEurosLabel(r.prizes)}, the recalls ${formatEurosLabel(m.prizes)}`);
    if (r.ggr !== m.stakes - m.prizes) differences.push(`${what}: the reports say GGR ${formatEurosLabel(r.ggr)}, the recalls stakes − prizes = ${formatEurosLabel(m.stakes - m.prizes)}`);
  }
  return compared;
}

function compareBlocks(mine: Map<string, Figures>, after: ReportsRead, before: ReportsRead | undefined, differences: string[]): number {
  const was = new Map((before?.blocks ?? []).map((b) => [b.blockId, b]));
  const listed = new Set(after.blocks.map((b) => b.blockId));
  for (const blockId of mine.keys()) if (!listed.has(blockId)) differences.push(`block ${blockId}: ${mine.get(blockId)!.units} units recalled from it, the reports do not list it`);
  let compared = 0;
  for (const block of after.blocks) {
    const b = was.get(block.blockId) ?? { sold: 0, left: block.size, prizesWon: 0 };
    const [sold, taken, prizesWon] = [block.sold - b.sold, b.left - block.left, block.prizesWon - b.prizesWon];
    const m = mine.get(block.blockId) ?? { units: 0, stakes: 0, prizes: 0, unknown: 0 };
    if (sold === 0 && taken === 0 && m.units === 0) continue;
    compared++;
    const what = `block ${block.blockId} (${block.game} at ${formatEurosLabel(block.stake)})`;
    if (sold !== m.units || taken !== m.units) differences.push(`${what}: the reports say ${sold} units sold and ${taken} fewer left (${block.left} of ${block.size}), the recalls ${m.units} units`);
    else if (m.unknown === 0 && prizesWon !== m.prizes) differences.push(`${what}: the reports say prizes won ${formatEurosLabel(prizesWon)}, the recalls ${formatEurosLabel(m.prizes)}`);
  }
  return compared;
}

/**
 * The reports read after the run (and before it, `delta`) against the recalls of the run's
 * units; a unit of unknown prize (unfinished) leaves its day's and block's prizes uncompared.
 */
export function checkReports(recalls: readonly RecalledSale[], after: ReportsRead, before?: ReportsRead): ReportsComparison {
  const mine = figuresFromRecalls(recalls);
  const differences: string[] = [];
  const days = compareDays(mine.days, after, before, differences);
  const blocks = compareBlocks(mine.blocks, after, before, differences);
  return {
    checked: {
      mode: before ? 'delta' : 'exact',
      days,
      blocks,
      units: recalls.length,
      prizesUnknown: recalls.filter((r) => r.status !== 'finished').length,
      differences: differences.length,
    },
    differences,
  };
}
