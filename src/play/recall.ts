import { pageOf } from '../fairness/merkle';
import type { DealerStore, JournalEntry, Sale } from '../dealer/types';

/** What a recall reads of the dealer. */
export type RecallDealer = Pick<DealerStore, 'sales' | 'wallets' | 'emissions' | 'pages'>;
import { DECOR_SYMBOLS, GAME_SYMBOLS } from '../games/noel-de-la-chance';
import type { HistoryLine, RecallRecord, RecalledFairness } from '../protocol/recall';
import type { LiveUnit } from './live-unit';

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
    const other = await dealer.sales.getSale(entry.ref);
    if (other && other.requestId === wanted && other.game === sale.game) return other.unitId;
  }
  return null;
}

async function fairnessOf(dealer: RecallDealer, sale: Sale, finished: boolean, server: string | null): Promise<RecalledFairness> {
  const [block, pages, proof] = await Promise.all([
    dealer.emissions.block(sale.blockId),
    dealer.pages.pageCommitments(sale.blockId),
    finished ? dealer.pages.unitProof(sale.unitId) : undefined,
  ]);
  if (!block) throw new Error(`recall ${sale.unitId}: block ${sale.blockId} is not listed`);
  const page = block.scheme >= 2 ? pages?.find((p) => p.page === pageOf(block.size, sale.position)) : undefined;
  return {
    scheme: block.scheme,
    server,
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

/**
 * The unit's recall record (the protocol's format, docs/recall.md), rebuilt from what was stored;
 * `server` is the public origin that publishes its block. Only a finished unit's carries the
 * proof (scheme 3: with the unit seed, from which its whole scenario re-generates).
 */
export async function toRecall(dealer: RecallDealer, unit: LiveUnit, server: string | null): Promise<RecallRecord> {
  const { sale, finished } = unit;
  const journal = await dealer.wallets.journal(sale.playerId);
  const last = unit.steps[unit.steps.length - 1]!;
  const stakeAt = journal.findIndex((e) => e.kind === 'stake' && e.ref === sale.unitId);
  const prizeAt = journal.findIndex((e) => e.kind === 'prize' && e.ref === sale.unitId);
  // A losing or unfinished unit's ledger is its stake line alone.
  const ledger = stakeAt < 0 ? [] : journal.slice(stakeAt, finished && prizeAt > stakeAt ? prizeAt + 1 : stakeAt + 1);
  const [pairedUnit, fairness] = await Promise.all([pairedUnitId(dealer, sale, journal, stakeAt), fairnessOf(dealer, sale, finished, server)]);
  return {
    format: 'unit-recall/v3',
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
