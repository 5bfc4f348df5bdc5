import type { JournalEntry, Sale } from '../dealer/types';
import type { Cents } from '../money';
import type { LiveUnit } from './live-unit';
import type { PlayedStep } from './replay';

/**
 * A unit as the player may look it up (GLI-19 2.8.2, 4.14). Finished units carry the whole
 * scenario, so anyone can re-score them by the rules; unfinished ones only what was revealed.
 * The format is documented in docs/recall.md.
 */
export interface RecallRecord {
  readonly format: 'unit-recall/v1';
  readonly unitId: string;
  readonly game: string;
  readonly stake: Cents;
  readonly blockId: string;
  readonly position: number;
  readonly status: 'in_progress' | 'finished';
  readonly soldAt: string;
  readonly finishedAt: string | null;
  readonly completedBy: 'player' | 'server' | null;
  readonly balanceBefore: Cents;
  readonly balanceAfterStake: Cents;
  /** After the prize was credited; null while unfinished. */
  readonly balanceAfterPrize: Cents | null;
  readonly picks: unknown;
  readonly steps: readonly RecalledStep[];
  /** Null while unfinished: the prize must not show before the reveal ends. */
  readonly prize: Cents | null;
  readonly scenario: unknown;
}

/** A played step with its time as ISO text, like every time in the record. */
export type RecalledStep = Omit<PlayedStep, 'at'> & { readonly at: string };

export interface HistoryLine {
  readonly unitId: string;
  readonly game: string;
  readonly stake: Cents;
  readonly soldAt: string;
  readonly status: 'in_progress' | 'finished';
  readonly prize: Cents | null;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function toRecall(unit: LiveUnit, journal: readonly JournalEntry[]): RecallRecord {
  const { sale, finished } = unit;
  const last = unit.steps[unit.steps.length - 1]!;
  const prizeEntry = journal.find((e) => e.kind === 'prize' && e.ref === sale.unitId);
  return {
    format: 'unit-recall/v1',
    unitId: sale.unitId,
    game: sale.game,
    stake: sale.stake,
    blockId: sale.blockId,
    position: sale.position,
    status: finished ? 'finished' : 'in_progress',
    soldAt: iso(sale.soldAt),
    finishedAt: finished ? iso(last.at) : null,
    completedBy: finished ? (last.by === 'server' ? 'server' : 'player') : null,
    balanceBefore: sale.balanceBefore,
    balanceAfterStake: sale.balanceAfter,
    balanceAfterPrize: finished ? (prizeEntry?.balance ?? sale.balanceAfter) : null,
    picks: sale.picks === '' ? null : JSON.parse(sale.picks),
    steps: unit.steps.map((step) => ({ ...step, at: iso(step.at) })),
    prize: finished ? sale.prize : null,
    scenario: finished ? (unit.rules.scenarioOf(unit.state) ?? null) : null,
  };
}

/** A line of the history list: the prize shows only once the unit is finished. */
export function toHistoryLine(sale: Sale): HistoryLine {
  const finished = sale.settledAt !== undefined;
  return {
    unitId: sale.unitId,
    game: sale.game,
    stake: sale.stake,
    soldAt: iso(sale.soldAt),
    status: finished ? 'finished' : 'in_progress',
    prize: finished ? sale.prize : null,
  };
}
