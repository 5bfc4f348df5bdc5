import { rulesOf } from '../src/games/registry';
import { GAME_IDS, type GameId } from '../src/games/types';
import type { HistoryLine as ProtocolHistoryLine, RecallRecord } from '../src/protocol/recall';
import type { ReportsChecked, ReportsComparison } from './reports-check';
import { formatEurosLabel } from '../src/money';

/**
 * The books of a run, checked after it: what the synthetic players paid and were shown, against
 * what the server says (wallet, history, recall, blocks). `checkBooks` is pure: it takes what
 * was collected and gives every mismatch as a sentence.
 *
 * 1. For every player: final balance = initial − stakes + prizes, from its own ledger (the
 *    stakes it paid, the prizes its reveals ended with) and from its history; `held` is the
 *    stakes of its unfinished units.
 * 2. Every unit sold appears in exactly one history, the buyer's, with the stake, the game and
 *    the prize the player saw; nothing else is in the history.
 * 3. Units dealt per block (the operator's block report, after − before) equal units bought,
 *    and, per prize, the units dealt equal the units whose recall shows that prize.
 * 4. No finished unit paid anything other than its dealt outcome: its recall's scenario, scored
 *    by the game's evaluator, gives exactly the prize (and the recall agrees with the history).
 * 5. When given, the operator's reports equal the figures of the recalls (reports-check.ts).
 */

/** A unit as the player's client saw it: bought (the reply's unit id) and, if finished, its prize. */
export interface LedgerUnit {
  readonly unitId: string;
  readonly game: string;
  readonly stake: number;
  readonly prize: number | null;
}

export interface PlayerBooks {
  readonly playerId: string;
  readonly pseudonym: string;
  readonly initialBalance: number;
  readonly units: readonly LedgerUnit[];
  /** The wallet at the end, as the server answers it; undefined if it could not be read. */
  readonly wallet: { readonly balance: number; readonly held: number } | undefined;
  /** Why the wallet could not be read (the last attempt's error). */
  readonly walletError?: string;
  /** `GET /history`, every page; undefined if it could not be read. */
  readonly history: readonly HistoryLine[] | undefined;
  /** Why the history could not be read. */
  readonly historyError?: string;
}

/** What the books need of a history line (`GET /history`). */
export type HistoryLine = Pick<ProtocolHistoryLine, 'unitId' | 'game' | 'stake' | 'status' | 'prize'>;

/** What the books need of a recall record (`GET /history/:unitId`). */
export type RecallFacts = Pick<RecallRecord, 'unitId' | 'game' | 'stake' | 'blockId' | 'position' | 'status' | 'prize' | 'scenario' | 'soldAt'> & Partial<Pick<RecallRecord, 'completedBy' | 'finishedAt'>>;

/** Sold units of one block and, per prize (0: losing), how many were dealt. */
export interface BlockCount {
  readonly blockId: string;
  readonly game: string;
  readonly stake: number;
  readonly sold: number;
  readonly perPrize: Readonly<Record<string, number>>;
}

export interface BooksInput {
  readonly players: readonly PlayerBooks[];
  /** unitId → recall; a unit missing here could not be recalled. */
  readonly recalls: ReadonlyMap<string, RecallFacts | { readonly error: string }>;
  /** The block report before and after the run; undefined: it could not be read (a mismatch). */
  readonly blocksBefore: readonly BlockCount[] | undefined;
  readonly blocksAfter: readonly BlockCount[] | undefined;
  /** Why the block report could not be read. */
  readonly blocksError?: string;
  /** The operator's reports against the recalls (check 5), or why they could not be compared; absent: not compared. */
  readonly reports?: ReportsComparison | { readonly error: string };
}

export interface BooksResult {
  readonly ok: boolean;
  readonly checked: {
    readonly players: number;
    readonly units: number;
    readonly unitsFinished: number;
    readonly recallsRescored: number;
    readonly blocks: number;
    readonly stakes: number;
    readonly prizes: number;
    /** Check 5, when it ran. */
    readonly reports?: ReportsChecked;
  };
  /** Every mismatch, one sentence each (the first `MAX_PROBLEMS`; `problemCount` has them all). */
  readonly problems: readonly string[];
  readonly problemCount: number;
}

const MAX_PROBLEMS = 200;


export function blockIdOfUnit(unitId: string): string {
  const i = unitId.lastIndexOf(':');
  return i < 0 ? unitId : unitId.slice(0, i);
}

/** Every mismatch found, the first `MAX_PROBLEMS` kept as sentences, all counted. */
class Problems {
  readonly list: string[] = [];
  count = 0;

  add(text: string): void {
    this.count++;
    if (this.list.length < MAX_PROBLEMS) this.list.push(text);
  }
}

/** unitId → the players whose history lists it (check 2: exactly one). */
function historyOwners(players: readonly PlayerBooks[]): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const p of players) {
    for (const line of p.history ?? []) {
      const list = owners.get(line.unitId);
      if (list) list.push(p.playerId);
      else owners.set(line.unitId, [p.playerId]);
    }
  }
  return owners;
}

/** 1. The balance from the player's own ledger, and what it holds. */
function checkWallet(p: PlayerBooks, who: string, problems: Problems): void {
  const ledgerStakes = p.units.reduce((s, u) => s + u.stake, 0);
  const ledgerPrizes = p.units.reduce((s, u) => s + (u.prize ?? 0), 0);
  const ledgerHeld = p.units.reduce((s, u) => s + (u.prize === null ? u.stake : 0), 0);
  const expected = p.initialBalance - ledgerStakes + ledgerPrizes;
  if (!p.wallet) return problems.add(`${who}: the final wallet could not be read${p.walletError ? ` (${p.walletError})` : ''}`);
  if (p.wallet.balance !== expected) {
    problems.add(`${who}: balance ${formatEurosLabel(p.wallet.balance)} ≠ initial ${formatEurosLabel(p.initialBalance)} − stakes ${formatEurosLabel(ledgerStakes)} + prizes ${formatEurosLabel(ledgerPrizes)} = ${formatEurosLabel(expected)} (off by ${formatEurosLabel(p.wallet.balance - expected)}) over ${p.units.length} units`);
  }
  if (p.wallet.held !== ledgerHeld) problems.add(`${who}: held ${formatEurosLabel(p.wallet.held)} ≠ stakes of its unfinished units ${formatEurosLabel(ledgerHeld)}`);
}

/** 2. The history lists exactly the units bought, as the player saw them, and adds up to the balance. */
function checkHistory(p: PlayerBooks, who: string, history: readonly HistoryLine[], owners: ReadonlyMap<string, string[]>, problems: Problems): void {
  const historyStakes = history.reduce((s, l) => s + l.stake, 0);
  const historyPrizes = history.reduce((s, l) => s + (l.status === 'finished' ? (l.prize ?? 0) : 0), 0);
  const fromHistory = p.initialBalance - historyStakes + historyPrizes;
  if (p.wallet && p.wallet.balance !== fromHistory) {
    problems.add(`${who}: balance ${formatEurosLabel(p.wallet.balance)} ≠ initial − stakes + prizes of its history = ${formatEurosLabel(fromHistory)} (off by ${formatEurosLabel(p.wallet.balance - fromHistory)})`);
  }
  const lines = new Map<string, HistoryLine>();
  for (const line of history) {
    if (lines.has(line.unitId)) problems.add(`${who}: unit ${line.unitId} is twice in the history`);
    lines.set(line.unitId, line);
  }
  const bought = new Set<string>();
  for (const u of p.units) {
    if (bought.has(u.unitId)) problems.add(`${who}: unit ${u.unitId} was handed out twice by purchases`);
    bought.add(u.unitId);
    const line = lines.get(u.unitId);
    if (!line) {
      const elsewhere = owners.get(u.unitId);
      problems.add(`${who}: bought unit ${u.unitId}, which is not in its history${elsewhere ? ` (it is in the history of ${elsewhere.join(', ')})` : ''}`);
      continue;
    }
    if (line.game !== u.game || line.stake !== u.stake) problems.add(`${who}: unit ${u.unitId} was bought as ${u.game} at ${formatEurosLabel(u.stake)}, the history says ${line.game} at ${formatEurosLabel(line.stake)}`);
    const historyPrize = line.status === 'finished' ? line.prize : null;
    if (historyPrize !== u.prize) {
      problems.add(`${who}: unit ${u.unitId}: the reveal showed ${u.prize === null ? 'no result (unfinished)' : formatEurosLabel(u.prize)}, the history says ${historyPrize === null ? 'unfinished' : formatEurosLabel(historyPrize)}`);
    }
  }
  for (const line of history) {
    if (!bought.has(line.unitId)) problems.add(`${who}: history lists unit ${line.unitId} (${line.game}, ${formatEurosLabel(line.stake)}), which this player never got from a purchase`);
  }
}

/** 4. One unit's recall agrees with what its player saw; finished, its scenario re-scored by the rules. Returns whether it was re-scored. */
function checkRecall(u: LedgerUnit, r: RecallFacts, problems: Problems): boolean {
  if (r.game !== u.game || r.stake !== u.stake) problems.add(`unit ${u.unitId}: recall says ${r.game} at ${formatEurosLabel(r.stake)}, it was bought as ${u.game} at ${formatEurosLabel(u.stake)}`);
  if (blockIdOfUnit(u.unitId) !== r.blockId) problems.add(`unit ${u.unitId}: recall names block ${r.blockId}`);
  const finished = r.status === 'finished';
  if (finished !== (u.prize !== null)) problems.add(`unit ${u.unitId}: recall says ${r.status}, the player's reveal ${u.prize === null ? 'did not end' : 'ended'}`);
  if (!finished) {
    if (r.prize !== null) problems.add(`unit ${u.unitId}: unfinished, yet its recall shows a prize (${formatEurosLabel(r.prize)})`);
    return false;
  }
  if (r.prize !== u.prize) problems.add(`unit ${u.unitId}: recall prize ${r.prize === null ? 'none' : formatEurosLabel(r.prize)} ≠ the prize the reveal showed ${formatEurosLabel(u.prize ?? 0)}`);
  if (!(GAME_IDS as readonly string[]).includes(r.game)) {
    problems.add(`unit ${u.unitId}: recall names an unknown game ${r.game}`);
    return false;
  }
  if (r.scenario === null || r.scenario === undefined) {
    problems.add(`unit ${u.unitId}: finished, but its recall carries no scenario`);
    return false;
  }
  let scored: number;
  try {
    scored = rulesOf(r.game as GameId).evaluate(r.scenario);
  } catch (err) {
    problems.add(`unit ${u.unitId}: the ${r.game} evaluator cannot score its scenario: ${(err as Error).message}`);
    return false;
  }
  if (scored !== r.prize) problems.add(`unit ${u.unitId} (${r.game} at ${formatEurosLabel(r.stake)}): paid ${formatEurosLabel(r.prize ?? 0)}, but its scenario scores ${formatEurosLabel(scored)} by the rules`);
  return true;
}

/** 4. Every unit's recall; gives the recalls read and how many were re-scored. */
function checkRecalls(input: BooksInput, problems: Problems): { recalled: Map<string, RecallFacts>; rescored: number } {
  const recalled = new Map<string, RecallFacts>();
  let rescored = 0;
  for (const p of input.players) {
    for (const u of p.units) {
      const r = input.recalls.get(u.unitId);
      if (!r) problems.add(`unit ${u.unitId}: no recall was collected`);
      else if ('error' in r) problems.add(`unit ${u.unitId}: recall failed: ${r.error}`);
      else {
        recalled.set(u.unitId, r);
        if (checkRecall(u, r, problems)) rescored++;
      }
    }
  }
  return { recalled, rescored };
}

/** Units bought per block, and of those finished, per prize (the recall's); unfinished ones hide their prize. */
interface BoughtInBlock {
  count: number;
  readonly perPrize: Map<number, number>;
  unknown: number;
}

function boughtPerBlock(players: readonly PlayerBooks[], recalled: ReadonlyMap<string, RecallFacts>): Map<string, BoughtInBlock> {
  const perBlock = new Map<string, BoughtInBlock>();
  for (const p of players) {
    for (const u of p.units) {
      const blockId = blockIdOfUnit(u.unitId);
      let entry = perBlock.get(blockId);
      if (!entry) perBlock.set(blockId, (entry = { count: 0, perPrize: new Map(), unknown: 0 }));
      entry.count++;
      const r = recalled.get(u.unitId);
      const prize = r && r.status === 'finished' ? r.prize : null;
      if (prize === null) entry.unknown++;
      else entry.perPrize.set(prize, (entry.perPrize.get(prize) ?? 0) + 1);
    }
  }
  return perBlock;
}

/** 3. One block's units dealt per prize over the run (after − before) against what the units bought from it show. */
function perPrizeMismatches(a: BlockCount, b: BlockCount | undefined, mine: BoughtInBlock | undefined): string[] {
  const prizesSeen = new Set([...Object.keys(a.perPrize), ...Object.keys(b?.perPrize ?? {})].map(Number));
  for (const prize of mine?.perPrize.keys() ?? []) prizesSeen.add(prize);
  let surplus = 0;
  const mismatches: string[] = [];
  for (const prize of [...prizesSeen].sort((x, y) => y - x)) {
    const dealtAtPrize = (a.perPrize[prize] ?? 0) - (b?.perPrize[prize] ?? 0);
    const shown = mine?.perPrize.get(prize) ?? 0;
    if (dealtAtPrize < shown) mismatches.push(`${shown} units show ${formatEurosLabel(prize)} but only ${dealtAtPrize} were dealt at that prize`);
    surplus += dealtAtPrize - shown;
  }
  // Units still unfinished hide their prize: the surplus dealt must be exactly theirs.
  if (surplus !== (mine?.unknown ?? 0)) mismatches.push(`${surplus} units dealt at prizes no finished unit shows, ${mine?.unknown ?? 0} units unfinished`);
  return mismatches;
}

/** 3. Units dealt per block, and per prize, equal units bought; gives how many blocks were checked. */
function checkBlocks(input: BooksInput, recalled: ReadonlyMap<string, RecallFacts>, problems: Problems): number {
  if (!input.blocksBefore || !input.blocksAfter) {
    problems.add(`units dealt per block could not be checked: ${input.blocksError ?? 'the block report could not be read'}`);
    return 0;
  }
  let blocks = 0;
  const before = new Map(input.blocksBefore.map((b) => [b.blockId, b]));
  const after = new Map(input.blocksAfter.map((b) => [b.blockId, b]));
  const bought = boughtPerBlock(input.players, recalled);
  for (const blockId of new Set([...after.keys(), ...bought.keys()])) {
    const a = after.get(blockId);
    const b = before.get(blockId);
    const mine = bought.get(blockId);
    const dealt = (a?.sold ?? 0) - (b?.sold ?? 0);
    const boughtHere = mine?.count ?? 0;
    if (dealt === 0 && boughtHere === 0) continue;
    blocks++;
    if (!a) {
      problems.add(`block ${blockId}: ${boughtHere} units bought from it, but the block report does not list it`);
      continue;
    }
    if (dealt !== boughtHere) {
      problems.add(`block ${blockId} (${a.game} at ${formatEurosLabel(a.stake)}): ${dealt} units dealt during the run, ${boughtHere} bought by the players (${dealt > boughtHere ? `${dealt - boughtHere} dealt to no one's purchase` : `${boughtHere - dealt} bought but not dealt`})`);
      continue;
    }
    const mismatches = perPrizeMismatches(a, b, mine);
    if (mismatches.length > 0) problems.add(`block ${blockId} (${a.game} at ${formatEurosLabel(a.stake)}): dealt per prize ≠ shown per prize: ${mismatches.join('; ')}`);
  }
  return blocks;
}

export function checkBooks(input: BooksInput): BooksResult {
  const problems = new Problems();
  const owners = historyOwners(input.players);
  for (const p of input.players) {
    const who = `player ${p.pseudonym} (${p.playerId})`;
    checkWallet(p, who, problems);
    if (p.history) checkHistory(p, who, p.history, owners, problems);
    else problems.add(`${who}: the history could not be read${p.historyError ? ` (${p.historyError})` : ''}`);
  }
  for (const [unitId, list] of owners) {
    if (list.length > 1) problems.add(`unit ${unitId} is in ${list.length} histories: ${list.join(', ')}`);
  }
  const { recalled, rescored } = checkRecalls(input, problems);
  const blocks = checkBlocks(input, recalled, problems);
  const { reports } = input;
  if (reports && 'error' in reports) problems.add(`the operator's reports could not be compared: ${reports.error}`);
  else for (const d of reports?.differences ?? []) problems.add(`reports: ${d}`);
  const units = input.players.flatMap((p) => p.units);
  return {
    ok: problems.count === 0,
    checked: {
      players: input.players.length,
      units: units.length,
      unitsFinished: units.filter((u) => u.prize !== null).length,
      recallsRescored: rescored,
      blocks,
      stakes: units.reduce((s, u) => s + u.stake, 0),
      prizes: units.reduce((s, u) => s + (u.prize ?? 0), 0),
      ...(reports && 'checked' in reports ? { reports: reports.checked } : {}),
    },
    problems: problems.list,
    problemCount: problems.count,
  };
}

/** The block report (`GET /admin/blocks`, `BlocksReport` of src/reports/operator-report.ts) as counts. */
export function blockCounts(report: unknown): BlockCount[] {
  const emissions = (report as { emissions?: unknown })?.emissions;
  if (!Array.isArray(emissions)) throw new Error('the block report has no emissions list');
  const counts: BlockCount[] = [];
  for (const e of emissions as { game: string; stake: number; blocks: { blockId: string; sold: number; tiers: { prize: number; won: number }[] }[] }[]) {
    for (const b of e.blocks ?? []) {
      const perPrize: Record<string, number> = {};
      for (const t of b.tiers ?? []) perPrize[t.prize] = (perPrize[t.prize] ?? 0) + t.won;
      counts.push({ blockId: b.blockId, game: e.game, stake: e.stake, sold: b.sold, perPrize });
    }
  }
  return counts;
}
