import { DECOR_SYMBOLS } from '../../games/noel-de-la-chance';
import type { UnitCheck } from '../../protocol/verification';
import { timeOf, type RecallRead } from './recall-shape';
import { sameJson } from './same-json';

/**
 * What the recall says of itself beside the outcome: its times, who finished it, its purchase
 * and what the game offered. None of it changes the prize, but a record whose fields contradict
 * one another is not one the server wrote: each field is held to the others it must agree with.
 */

const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : 'not a date');

/** The sale comes first, the finish last: sale ≤ every step ≤ finish, the page published before the sale, the stake journalled at the sale. */
export function timesCheck(recall: RecallRead): UnitCheck {
  const { soldAt, finishedAt, steps, ledger, fairness } = recall;
  const sold = iso(soldAt);
  const problem = ((): string | undefined => {
    if (!Number.isFinite(finishedAt)) return 'the finish time (finishedAt) of a finished unit is not a date';
    if (finishedAt < soldAt) return `the unit finished at ${iso(finishedAt)}, before its sale at ${sold}`;
    for (const [i, step] of steps.entries()) {
      const at = timeOf(step.at);
      if (!Number.isFinite(at)) return `step ${i}'s time is not a date`;
      if (at < soldAt) return `step ${i} is dated ${iso(at)}, before the sale at ${sold}`;
      if (at > finishedAt) return `step ${i} is dated ${iso(at)}, after the finish at ${iso(finishedAt)}`;
    }
    const published = timeOf(fairness.pagePublishedAt);
    if (!Number.isFinite(published)) return 'the page\'s publication time (pagePublishedAt) is not a date';
    if (published > soldAt) return `the recall says page ${String(fairness.page)} was published at ${iso(published)}, after the sale at ${sold}`;
    const stake = ledger[0];
    if (stake && stake.at !== soldAt) return `the stake's journal line is dated ${iso(stake.at)}, the sale ${sold}: they are one write`;
    return undefined;
  })();
  return problem === undefined
    ? { id: 'times', ok: true, detail: `sold at ${sold}, after its page was published and before each of its ${steps.length} steps, finished at ${iso(finishedAt)}, after the last` }
    : { id: 'times', ok: false, detail: problem };
}

/** `completedBy` is the author of the last step: `server` when the server finished it (`server_complete`), else `player`. */
export function completedByCheck(recall: RecallRead): UnitCheck {
  const last = recall.steps[recall.steps.length - 1];
  const expected = last?.by === 'server' ? 'server' : 'player';
  return recall.completedBy === expected
    ? { id: 'completed-by', ok: true, detail: `completed by the ${expected}, as its last step says` }
    : { id: 'completed-by', ok: false, detail: `the recall says completed by ${JSON.stringify(recall.completedBy)}, but its last step is by ${String(last?.by)}: completed by the ${expected}` };
}

/** The request id of one unit of a lamp pair: `<id>-0` or `<id>-1` (a single purchase's has no `-`). */
const PAIR_REQUEST = /^.+-[01]$/;

/** The purchase: a request id, and a pair link only on a unit of a lamp pair, naming another unit. */
export function purchaseCheck(recall: RecallRead): UnitCheck {
  const p = recall.purchase as { requestId?: unknown; pairedUnitId?: unknown } | null;
  const problem = ((): string | undefined => {
    if (typeof p !== 'object' || p === null || typeof p.requestId !== 'string') return 'the recall has no purchase with a request id';
    const paired = p.pairedUnitId;
    if (paired !== null && typeof paired !== 'string') return 'the pair link (purchase.pairedUnitId) is neither a unit id nor null';
    const pairRequest = PAIR_REQUEST.test(p.requestId);
    if (pairRequest && recall.game !== 'mysteres-de-la-lampe') return `the request id ${p.requestId} is one of a lamp pair's, on a unit of ${recall.game}`;
    if (paired === null) return undefined;
    if (recall.game !== 'mysteres-de-la-lampe') return `a pair link to ${paired} on a unit of ${recall.game}: only the lamp sells two units at once`;
    if (!pairRequest) return `a pair link to ${paired}, but the request id ${p.requestId} is a single purchase's (a pair's end in -0 or -1)`;
    if (paired === recall.unitId || !/^.+:\d+$/.test(paired)) return `the pair link ${paired} does not name another unit`;
    return undefined;
  })();
  if (problem !== undefined) return { id: 'purchase', ok: false, detail: problem };
  const paired = (p as { pairedUnitId: string | null }).pairedUnitId;
  return { id: 'purchase', ok: true, detail: paired === null ? 'bought alone, with no pair link' : `one unit of a lamp pair, with ${paired}` };
}

/**
 * What the game offered beside the scenario: Noël's symbols offered, exactly as its purchase
 * step deals them (`purchaseEvents`: re-generated from the unit seed under scheme 3), and its
 * decor symbols; null for the other games.
 */
export function presentationCheck(recall: RecallRead, purchaseEvents: readonly unknown[] | undefined): UnitCheck {
  if (recall.game !== 'noel-de-la-chance') {
    return recall.presentation === null
      ? { id: 'presentation', ok: true, detail: `${recall.game} shows nothing beside its scenario, and none is recalled` }
      : { id: 'presentation', ok: false, detail: `a presentation is recalled for ${recall.game}, which has none` };
  }
  const offered = purchaseEvents?.find((e) => (e as { type?: unknown } | null)?.type === 'symbols_offered') as { symbols?: unknown } | undefined;
  if (!offered) return { id: 'presentation', ok: false, detail: 'the purchase step cannot be dealt again: the symbols offered are not known' };
  const expected = { offeredSymbols: offered.symbols, decorSymbols: DECOR_SYMBOLS };
  return sameJson(recall.presentation, expected)
    ? { id: 'presentation', ok: true, detail: `the symbols offered (${JSON.stringify(offered.symbols)}) are the ones the purchase step deals, in order, and the decor is the game's` }
    : { id: 'presentation', ok: false, detail: `the recall presents ${JSON.stringify(recall.presentation)?.slice(0, 160)}, but the purchase step deals ${JSON.stringify(expected)}` };
}
