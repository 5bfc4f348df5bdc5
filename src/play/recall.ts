import { pageOf, type UnitProof } from '../dealer/merkle';
import type { Emissions, FairnessPages, JournalEntry, Sale, Sales, Wallets } from '../dealer/types';

/** What a recall reads of the dealer. */
export type RecallDealer = Pick<Sales, 'getSale'> & Pick<Wallets, 'journal'> & Pick<Emissions, 'block'> & Pick<FairnessPages, 'pageCommitments' | 'unitProof'>;
import { DECOR_SYMBOLS, GAME_SYMBOLS } from '../games/noel-de-la-chance';
import type { Cents } from '../money';
import type { LiveUnit } from './live-unit';
import type { PlayedStep } from './replay';

/**
 * A unit as the player may look it up (GLI-19 2.8.2, 4.14). Finished units carry the whole
 * scenario and the Merkle proof of their outcome, so anyone can re-score them by the rules and
 * check them against the published commitments (`npm run verify-unit`); unfinished ones only
 * what was revealed. The format is documented in docs/recall.md.
 */
export interface RecallRecord {
  readonly format: 'unit-recall/v2';
  readonly unitId: string;
  readonly game: string;
  readonly stake: Cents;
  readonly blockId: string;
  readonly position: number;
  readonly status: 'in_progress' | 'finished';
  readonly soldAt: string;
  readonly finishedAt: string | null;
  readonly completedBy: 'player' | 'server' | null;
  readonly purchase: RecalledPurchase;
  readonly balanceBefore: Cents;
  readonly balanceAfterStake: Cents;
  /** After the prize was credited (other lines of the ledger included); null while unfinished. */
  readonly balanceAfterPrize: Cents | null;
  /** The player's journal from this unit's stake to its prize credit, every line in between included. */
  readonly ledger: readonly RecalledJournalLine[];
  readonly picks: unknown;
  /** What the game offered beside the scenario (Noël: its three symbols and the decor); null for the others. */
  readonly presentation: unknown;
  readonly steps: readonly RecalledStep[];
  /** Null while unfinished: the prize must not show before the reveal ends. */
  readonly prize: Cents | null;
  readonly scenario: unknown;
  readonly fairness: RecalledFairness;
}

/** The purchase that bought the unit: its request id and, for a lamp pair, the other unit. */
export interface RecalledPurchase {
  readonly requestId: string;
  readonly pairedUnitId: string | null;
}

export type RecalledJournalLine = Omit<JournalEntry, 'at'> & { readonly at: string };

/** What ties the unit to the published commitments (docs/fairness.md). */
export interface RecalledFairness {
  /** 1: the block's commitment only, checked once it closes; 2: also a Merkle proof. */
  readonly scheme: 1 | 2;
  readonly blockId: string;
  readonly blockSize: number;
  readonly position: number;
  /** SHA-256(seed ‖ printed block), published when the block was printed. */
  readonly commitment: string;
  /** Scheme 2: the page holding the position, its published root and when it was published. */
  readonly page: number | null;
  readonly pageRoot: string | null;
  readonly pagePublishedAt: string | null;
  /** Scheme 2, once the unit is finished (it reveals the tier): the proof against `pageRoot`. */
  readonly proof: UnitProof | null;
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

/** The request id of the other unit of a lamp pair (`<id>-0` and `<id>-1`), if this is one. */
function pairedRequestId(sale: Sale): string | undefined {
  const m = sale.game === 'mysteres-de-la-lampe' ? /^(.*)-([01])$/.exec(sale.requestId) : null;
  return m ? `${m[1]}-${m[2] === '0' ? '1' : '0'}` : undefined;
}

/** A lamp pair's two stakes are journalled one after the other: the other unit's is next to this one's. */
async function pairedUnitId(dealer: RecallDealer, sale: Sale, journal: readonly JournalEntry[], stakeAt: number): Promise<string | null> {
  const wanted = pairedRequestId(sale);
  if (wanted === undefined) return null;
  const near = journal.slice(Math.max(0, stakeAt - 4), stakeAt + 5).filter((e) => e.kind === 'stake' && e.ref !== sale.unitId);
  for (const entry of near) {
    const other = await dealer.getSale(entry.ref);
    if (other && other.requestId === wanted && other.game === sale.game) return other.unitId;
  }
  return null;
}

async function fairnessOf(dealer: RecallDealer, sale: Sale, finished: boolean): Promise<RecalledFairness> {
  const [block, pages, proof] = await Promise.all([
    dealer.block(sale.blockId),
    dealer.pageCommitments(sale.blockId),
    finished ? dealer.unitProof(sale.unitId) : undefined,
  ]);
  if (!block) throw new Error(`recall ${sale.unitId}: block ${sale.blockId} is not listed`);
  const page = block.scheme === 2 ? pages?.find((p) => p.page === pageOf(block.size, sale.position)) : undefined;
  return {
    scheme: block.scheme,
    blockId: sale.blockId,
    blockSize: block.size,
    position: sale.position,
    commitment: block.commitment,
    page: page?.page ?? null,
    pageRoot: page?.root ?? null,
    pagePublishedAt: page ? iso(page.publishedAt) : null,
    proof: proof ?? null,
  };
}

/** Noël's look beyond its scenario: the three symbols offered for the pick, and the decor. */
function presentationOf(game: string): unknown {
  return game === 'noel-de-la-chance' ? { offeredSymbols: [...GAME_SYMBOLS], decorSymbols: [...DECOR_SYMBOLS] } : null;
}

export async function toRecall(dealer: RecallDealer, unit: LiveUnit): Promise<RecallRecord> {
  const { sale, finished } = unit;
  const journal = await dealer.journal(sale.playerId);
  const last = unit.steps[unit.steps.length - 1]!;
  const stakeAt = journal.findIndex((e) => e.kind === 'stake' && e.ref === sale.unitId);
  const prizeAt = journal.findIndex((e) => e.kind === 'prize' && e.ref === sale.unitId);
  // A losing or unfinished unit's ledger is its stake line alone.
  const ledger = stakeAt < 0 ? [] : journal.slice(stakeAt, finished && prizeAt > stakeAt ? prizeAt + 1 : stakeAt + 1);
  const [pairedUnit, fairness] = await Promise.all([pairedUnitId(dealer, sale, journal, stakeAt), fairnessOf(dealer, sale, finished)]);
  return {
    format: 'unit-recall/v2',
    unitId: sale.unitId,
    game: sale.game,
    stake: sale.stake,
    blockId: sale.blockId,
    position: sale.position,
    status: finished ? 'finished' : 'in_progress',
    soldAt: iso(sale.soldAt),
    finishedAt: finished ? iso(last.at) : null,
    completedBy: finished ? (last.by === 'server' ? 'server' : 'player') : null,
    purchase: { requestId: sale.requestId, pairedUnitId: pairedUnit },
    balanceBefore: sale.balanceBefore,
    balanceAfterStake: sale.balanceAfter,
    balanceAfterPrize: finished ? (prizeAt >= 0 ? journal[prizeAt]!.balance : sale.balanceAfter) : null,
    ledger: ledger.map((e) => ({ ...e, at: iso(e.at) })),
    picks: sale.picks === '' ? null : JSON.parse(sale.picks),
    presentation: presentationOf(sale.game),
    steps: unit.steps.map((step) => ({ ...step, at: iso(step.at) })),
    prize: finished ? sale.prize : null,
    scenario: finished ? (unit.rules.scenarioOf(unit.state) ?? null) : null,
    fairness,
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
