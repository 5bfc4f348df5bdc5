import { rulesOf } from '../../../src/games/registry';
import type { GameId } from '../../../src/games/types';
import type { UnitCheckId } from '../../../src/protocol/verification';

/**
 * Alterations of real recalls (recalls.ts), each with the check of verifyUnit that must catch
 * it: run on the core in Node (verify-unit.test.ts) and on the page's own chunk in the browser
 * (test/web/verify.test.ts).
 */

/** A deep copy to alter: alterations reach into the recall's JSON untyped. */
export const copy = <T>(x: T): any => JSON.parse(JSON.stringify(x));
export const flipHex = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
export const failed = (result: { checks: readonly { id: UnitCheckId; ok: boolean }[] }) => result.checks.filter((c) => !c.ok).map((c) => c.id);

/** Every event of every step, with the step index, for alterations that look for one. */
function eventsOf(r: any): { step: number; event: any }[] {
  return r.steps.flatMap((s: any, step: number) => s.events.map((event: any) => ({ step, event })));
}

function findEvent(r: any, type: string, where: (e: any) => boolean = () => true): any {
  const found = eventsOf(r).find((x) => x.event.type === type && where(x.event));
  if (!found) throw new Error(`no ${type} event to alter`);
  return found.event;
}

export interface Alteration {
  readonly what: string;
  readonly game: GameId;
  readonly kind: 'win' | 'lose';
  /** The check that must fail. */
  readonly check: UnitCheckId;
  readonly change: (recall: any, published: any) => void;
}

const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const lastStep = (r: any) => r.steps[r.steps.length - 1];

/**
 * The recall against itself: its times, labels and links each contradicting another field (or
 * what the server publishes) while the outcome, the steps' events and the money stay true.
 */
export const CONTRADICTIONS: Alteration[] = [
  { what: 'the last step dated before the sale', game: 'rain-diamonds', kind: 'win', check: 'times', change: (r) => { lastStep(r).at = at(r.soldAt, -1); } },
  { what: 'the purchase step dated a minute before the sale', game: 'noel-de-la-chance', kind: 'lose', check: 'times', change: (r) => { r.steps[0].at = at(r.soldAt, -60_000); } },
  { what: 'a step dated after the finish', game: '500000-carats', kind: 'win', check: 'times', change: (r) => { r.steps[1].at = at(r.finishedAt, 1); } },
  { what: 'the sale dated after the finish', game: 'mine-d-or', kind: 'lose', check: 'times', change: (r) => { r.soldAt = at(r.finishedAt, 1); } },
  { what: 'the finish dated before the last step', game: 'mysteres-de-la-lampe', kind: 'win', check: 'times', change: (r) => { r.finishedAt = at(lastStep(r).at, -1); } },
  { what: 'no finish time on a finished unit', game: 'rain-diamonds', kind: 'lose', check: 'times', change: (r) => { r.finishedAt = null; } },
  { what: 'a step\'s time that is not a date', game: '500000-carats', kind: 'lose', check: 'times', change: (r) => { r.steps[0].at = 'yesterday'; } },
  { what: 'the stake journalled an hour before the sale', game: 'noel-de-la-chance', kind: 'win', check: 'times', change: (r) => { r.ledger[0].at = at(r.soldAt, -3_600_000); } },
  { what: 'the recalled page publication after the sale', game: 'mine-d-or', kind: 'win', check: 'times', change: (r) => { r.fairness.pagePublishedAt = at(r.soldAt, 1); } },
  { what: 'the recalled page publication before the time the server publishes', game: 'rain-diamonds', kind: 'win', check: 'published-in-time', change: (r) => { r.fairness.pagePublishedAt = at(r.fairness.pagePublishedAt, -60_000); } },
  { what: 'the recalled page publication after the time the server publishes, still before the sale', game: 'mysteres-de-la-lampe', kind: 'lose', check: 'published-in-time', change: (r) => { r.fairness.pagePublishedAt = at(r.fairness.pagePublishedAt, 1); } },
  { what: 'completedBy flipped to the server', game: 'mine-d-or', kind: 'win', check: 'completed-by', change: (r) => { r.completedBy = 'server'; } },
  { what: 'completedBy null on a finished unit', game: 'noel-de-la-chance', kind: 'lose', check: 'completed-by', change: (r) => { r.completedBy = null; } },
  { what: 'a pair link on a Noël unit', game: 'noel-de-la-chance', kind: 'win', check: 'purchase', change: (r) => { r.purchase.pairedUnitId = `${r.blockId}:${r.position + 1}`; } },
  { what: 'a pair link and a pair\'s request id on a RAIN DIAMONDS unit', game: 'rain-diamonds', kind: 'win', check: 'purchase', change: (r) => { r.purchase = { requestId: `${r.purchase.requestId}-0`, pairedUnitId: `${r.blockId}:${r.position + 1}` }; } },
  { what: 'a pair link on a lamp unit bought alone', game: 'mysteres-de-la-lampe', kind: 'win', check: 'purchase', change: (r) => { r.purchase.pairedUnitId = `${r.blockId}:${r.position + 1}`; } },
  { what: 'a lamp unit paired with itself', game: 'mysteres-de-la-lampe', kind: 'lose', check: 'purchase', change: (r) => { r.purchase = { requestId: `${r.purchase.requestId}-1`, pairedUnitId: r.unitId }; } },
  { what: 'the purchase removed', game: '500000-carats', kind: 'win', check: 'purchase', change: (r) => { r.purchase = null; } },
  { what: 'the Noël symbols offered reordered', game: 'noel-de-la-chance', kind: 'win', check: 'presentation', change: (r) => { r.presentation.offeredSymbols.reverse(); } },
  { what: 'a Noël symbol offered replaced by a decor symbol', game: 'noel-de-la-chance', kind: 'lose', check: 'presentation', change: (r) => { r.presentation.offeredSymbols[0] = r.presentation.decorSymbols[0]; } },
  { what: 'a Noël decor symbol dropped', game: 'noel-de-la-chance', kind: 'win', check: 'presentation', change: (r) => { r.presentation.decorSymbols.pop(); } },
  { what: 'a presentation given to a Mine d\'or unit', game: 'mine-d-or', kind: 'lose', check: 'presentation', change: (r) => { r.presentation = { offeredSymbols: ['diamant'] }; } },
  { what: 'the format label set to v2 on a v3 recall', game: 'mine-d-or', kind: 'win', check: 'format', change: (r) => { r.format = 'unit-recall/v2'; } },
  { what: 'the format label set to v2, the server\'s origin dropped, on a scheme 3 recall', game: 'rain-diamonds', kind: 'lose', check: 'format', change: (r) => { r.format = 'unit-recall/v2'; delete r.fairness.server; } },
  { what: 'the server\'s origin dropped from a v3 recall', game: '500000-carats', kind: 'lose', check: 'format', change: (r) => { delete r.fairness.server; } },
];

export const ALTERATIONS: Alteration[] = [
  // Every field a player saw.
  { what: 'a RAIN DIAMONDS grid cell', game: 'rain-diamonds', kind: 'win', check: 'steps', change: (r) => { const g = findEvent(r, 'grid_shown').grid; g[0][0] = g[0][0] === 'red' ? 'blue' : 'red'; r.scenario.grid[0][0] = g[0][0]; } },
  { what: 'the RAIN DIAMONDS gems collected', game: 'rain-diamonds', kind: 'win', check: 'steps', change: (r) => { findEvent(r, 'gems_collected').total += 1; } },
  { what: 'a RAIN DIAMONDS box\'s colour', game: 'rain-diamonds', kind: 'lose', check: 'steps', change: (r) => { const e = findEvent(r, 'box_opened'); e.colour = e.colour === 'red' ? 'blue' : 'red'; } },
  { what: 'the order of a RAIN DIAMONDS cascade\'s moves', game: 'rain-diamonds', kind: 'win', check: 'steps', change: (r) => { const e = findEvent(r, 'gems_fell', (x) => x.moves.length > 1); e.moves.reverse(); } },
  // To 500,000 €, or to 100,000 € when the unit showed 500,000 € there (a decoy): it must change.
  { what: 'an unmatched 500 000 CARATS amount changed to 500,000 €', game: '500000-carats', kind: 'win', check: 'steps', change: (r) => { const e = findEvent(r, 'number_revealed', (x) => !x.matched); e.amount = e.amount === 50_000_000 ? 10_000_000 : 50_000_000; r.scenario.amounts[e.index] = e.amount; } },
  { what: 'a 500 000 CARATS winning number', game: '500000-carats', kind: 'lose', check: 'steps', change: (r) => { const e = findEvent(r, 'winning_numbers_revealed'); e.numbers[0] = e.numbers[0] === 1 ? 2 : 1; r.scenario.winning = e.numbers; } },
  { what: 'a 500 000 CARATS number shown as matched', game: '500000-carats', kind: 'lose', check: 'steps', change: (r) => { findEvent(r, 'number_revealed').matched = true; } },
  { what: 'two swapped Noël cells', game: 'noel-de-la-chance', kind: 'win', check: 'steps', change: (r) => {
    const cells = eventsOf(r).filter((x) => x.event.type === 'cell_revealed').map((x) => x.event);
    const other = cells.find((c: any) => c.symbol !== cells[0].symbol);
    [cells[0].symbol, other.symbol] = [other.symbol, cells[0].symbol];
    r.scenario.cells = cells.map((c: any) => c.symbol);
  } },
  { what: 'the Noël symbols offered', game: 'noel-de-la-chance', kind: 'lose', check: 'steps', change: (r) => { findEvent(r, 'symbols_offered').symbols.reverse(); } },
  { what: 'the Noël symbol picked', game: 'noel-de-la-chance', kind: 'win', check: 'steps', change: (r) => { const e = findEvent(r, 'symbol_picked'); e.symbol = e.symbol === 'star' ? 'bell' : 'star'; } },
  { what: 'a Mine d\'or grid symbol', game: 'mine-d-or', kind: 'win', check: 'steps', change: (r) => { const e = findEvent(r, 'grid_revealed'); e.symbols[0] = e.symbols[0] === 'diamant' ? 'cactus' : 'diamant'; } },
  { what: 'a Mine d\'or stage gain', game: 'mine-d-or', kind: 'win', check: 'steps', change: (r) => { findEvent(r, 'grid_revealed').gain += 100; } },
  { what: 'a losing lamp showing a decoy (the pick\'s own result)', game: 'mysteres-de-la-lampe', kind: 'lose', check: 'steps', change: (r) => { const e = findEvent(r, 'lamp_opened'); e.result = r.picks.choice; r.scenario.result = r.picks.choice; } },
  { what: 'the lamp\'s potential gain shown', game: 'mysteres-de-la-lampe', kind: 'win', check: 'steps', change: (r) => { findEvent(r, 'potential_gain_shown').amount *= 10; } },
  { what: 'the prize in the finished event', game: '500000-carats', kind: 'win', check: 'steps', change: (r) => { findEvent(r, 'finished').prize += 100; } },
  { what: 'a step dropped', game: 'rain-diamonds', kind: 'win', check: 'steps', change: (r) => { r.steps.splice(1, 1); } },
  { what: 'the last step dropped (renumbered)', game: '500000-carats', kind: 'lose', check: 'steps', change: (r) => { r.steps.pop(); } },
  { what: 'a recorded action', game: '500000-carats', kind: 'win', check: 'steps', change: (r) => { const s = r.steps.find((x: any) => x.action?.type === 'reveal'); s.action.index = (s.action.index + 1) % 24; } },
  { what: 'the scenario swapped for another of the same score', game: 'noel-de-la-chance', kind: 'win', check: 'scenario', change: (r) => { r.scenario = rulesOf('noel-de-la-chance').generate({ stake: r.stake, prize: r.prize }, new Uint8Array(32).fill(7), { symbol: r.scenario.symbol }); } },
  { what: 'the scenario swapped (RAIN DIAMONDS)', game: 'rain-diamonds', kind: 'win', check: 'scenario', change: (r) => { r.scenario = rulesOf('rain-diamonds').generate({ stake: r.stake, prize: r.prize }, new Uint8Array(32).fill(9), undefined); } },
  // The prize and the ledger.
  { what: 'the finished prize', game: 'mine-d-or', kind: 'win', check: 'prize', change: (r) => { r.prize += 100; } },
  { what: 'a losing unit given a prize', game: 'rain-diamonds', kind: 'lose', check: 'prize', change: (r) => { r.prize = 100; } },
  { what: 'the ledger paying less than the proven prize', game: 'noel-de-la-chance', kind: 'win', check: 'ledger', change: (r) => { const last = r.ledger[r.ledger.length - 1]; last.amount -= 1; last.balance -= 1; r.balanceAfterPrize -= 1; } },
  { what: 'the ledger without the prize credit', game: 'mine-d-or', kind: 'win', check: 'ledger', change: (r) => { r.ledger.pop(); r.balanceAfterPrize = r.balanceAfterStake; } },
  { what: 'the stake debited twice as much', game: 'rain-diamonds', kind: 'lose', check: 'ledger', change: (r) => { r.ledger[0].amount *= 2; } },
  { what: 'a losing unit credited', game: '500000-carats', kind: 'lose', check: 'ledger', change: (r) => { r.ledger.push({ ...r.ledger[0], seq: r.ledger[0].seq + 1, kind: 'prize', amount: 500, balance: r.ledger[0].balance + 500 }); r.balanceAfterPrize += 500; } },
  // The picks.
  { what: 'the lamp\'s pick', game: 'mysteres-de-la-lampe', kind: 'win', check: 'picks', change: (r) => { r.picks.choice = r.picks.choice === 'red' ? 'blue' : 'red'; } },
  { what: 'the lamp\'s pick made invalid', game: 'mysteres-de-la-lampe', kind: 'lose', check: 'picks', change: (r) => { r.picks = { kind: 'colour', choice: 'purple' }; } },
  { what: 'picks added to a game that takes none', game: 'mine-d-or', kind: 'lose', check: 'picks', change: (r) => { r.picks = { kind: 'colour', choice: 'red' }; } },
  // The proof, the position, the unit seed, the domain.
  { what: 'the proven tier', game: 'noel-de-la-chance', kind: 'win', check: 'proof', change: (r) => { r.fairness.proof.tierId = (r.fairness.proof.tierId % 5) + 1; } },
  { what: 'a sibling hash', game: 'mine-d-or', kind: 'lose', check: 'proof', change: (r) => { r.fairness.proof.siblings[3] = flipHex(r.fairness.proof.siblings[3]); } },
  { what: 'a sibling dropped', game: 'rain-diamonds', kind: 'win', check: 'proof', change: (r) => { r.fairness.proof.siblings.pop(); } },
  { what: 'the recalled page root', game: 'rain-diamonds', kind: 'lose', check: 'proof', change: (r) => { r.fairness.pageRoot = flipHex(r.fairness.pageRoot); } },
  { what: 'the unit seed', game: '500000-carats', kind: 'win', check: 'proof', change: (r) => { r.fairness.proof.unitSeed = flipHex(r.fairness.proof.unitSeed); } },
  { what: 'the unit seed replaced by another', game: 'mine-d-or', kind: 'lose', check: 'proof', change: (r) => { r.fairness.proof.unitSeed = '00'.repeat(32); } },
  { what: 'the position, everywhere', game: 'noel-de-la-chance', kind: 'lose', check: 'proof', change: (r) => { for (const o of [r, r.fairness, r.fairness.proof]) o.position += 1; r.unitId = `${r.blockId}:${r.position}`; } },
  { what: 'the position of the proof alone', game: 'mysteres-de-la-lampe', kind: 'win', check: 'position', change: (r) => { r.fairness.proof.position += 1; } },
  { what: 'the unit id', game: 'rain-diamonds', kind: 'win', check: 'position', change: (r) => { r.unitId = `${r.blockId}:${r.position + 1}`; } },
  { what: 'the page', game: 'mine-d-or', kind: 'win', check: 'position', change: (r) => { r.fairness.page += 1; } },
  { what: 'the block id (domain), everywhere in the recall', game: 'noel-de-la-chance', kind: 'win', check: 'proof', change: (r) => { r.blockId = r.fairness.blockId = `${r.blockId}x`; r.unitId = `${r.blockId}:${r.position}`; } },
  { what: 'the price (domain)', game: 'noel-de-la-chance', kind: 'lose', check: 'proof', change: (r) => { r.stake = 100; r.ledger[0].amount = -100; r.balanceAfterStake = r.balanceBefore - 100; r.ledger[0].balance = r.balanceAfterStake; r.balanceAfterPrize = r.balanceAfterStake; } },
  { what: 'the game (domain)', game: 'mysteres-de-la-lampe', kind: 'lose', check: 'proof', change: (r) => { r.game = 'noel-de-la-chance'; } },
  // What was published.
  { what: 'the published page root', game: '500000-carats', kind: 'lose', check: 'published-root', change: (_r, p) => { for (const page of p.pages) page.root = flipHex(page.root); } },
  { what: 'the published commitment', game: 'mine-d-or', kind: 'win', check: 'published-root', change: (_r, p) => { p.commitment = flipHex(p.commitment); } },
  { what: 'another block published', game: 'rain-diamonds', kind: 'win', check: 'published-root', change: (_r, p) => { p.blockId = `${p.blockId}x`; } },
  { what: 'a page published after the sale', game: 'noel-de-la-chance', kind: 'win', check: 'published-in-time', change: (r, p) => { for (const page of p.pages) page.publishedAt = new Date(Date.parse(r.soldAt) + 1).toISOString(); } },
  { what: 'the format', game: 'mine-d-or', kind: 'win', check: 'format', change: (r) => { r.format = 'unit-recall/v9'; } },
  { what: 'an unfinished status', game: 'mine-d-or', kind: 'lose', check: 'format', change: (r) => { r.status = 'in_progress'; } },
  ...CONTRADICTIONS,
];
