import { blockCounts, checkBooks, type BlockCount, type BooksResult, type HistoryLine, type PlayerBooks, type RecallFacts } from './books';
import type { SyntheticPlayer } from './player';
import { checkReports, type RecalledSale, type ReportsComparison, type ReportsRead } from './reports-check';
import type { ReportPage } from '../src/reports/report-rows';

/**
 * Collects what the books need from the servers, after the players have finished: each
 * player's wallet (over its table), its whole history (`GET /history`, pages of 100), the
 * recall of every unit it bought (`GET /history/:unitId`), the operator's block report
 * (`GET /admin/blocks`) and, for the load test, its reports (`GET /admin/reports/…`). Requests are spread over the endpoints, a bounded number at once,
 * and the whole collection is bounded in time.
 */

const CONCURRENCY = 32;
const PAGE = 100;
/** Reading a player's wallet: its table as it is, then opened again up to twice. */
const WALLET_ATTEMPTS = 3;

export class Deadline {
  constructor(readonly at: number) {}
  check(what: string): void {
    if (performance.now() > this.at) throw new Error(`the books check ran out of time while ${what}`);
  }
}

async function getJson(url: string, token: string, timeoutMs: number): Promise<unknown> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new Error(`GET ${new URL(url).pathname}: ${res.status} ${text.slice(0, 200)}`);
  }
  return res.json();
}

async function pool<T>(items: readonly T[], concurrency: number, task: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await task(items[i]!, i);
    }
  }));
}

export type BlocksReader = () => Promise<unknown>;

/** Reads the block report over HTTP with the operator token. */
export function httpBlocks(endpoint: string, operatorToken: string | undefined, timeoutMs = 30_000): BlocksReader {
  return async () => {
    if (!operatorToken) throw new Error('no operator token: give --operator-token for GET /admin/blocks');
    return getJson(`${endpoint}/admin/blocks`, operatorToken, timeoutMs);
  };
}

/** The block report as counts, or why it could not be read. */
export interface BlocksRead {
  readonly counts?: BlockCount[];
  readonly error?: string;
}

export type ReportsReader = () => Promise<ReportsRead>;

/** Every page of one report (500 rows a page, following `next`). */
async function reportRows<T>(endpoint: string, path: string, operatorToken: string, timeoutMs: number): Promise<T[]> {
  const rows: T[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = (await getJson(`${endpoint}${path}?offset=${offset}&limit=500`, operatorToken, timeoutMs)) as ReportPage<T>;
    rows.push(...page.rows);
    offset = page.next;
  }
  return rows;
}

/** Reads the operator's reports of days and blocks over HTTP with the operator token. */
export function httpReports(endpoint: string, operatorToken: string | undefined, timeoutMs = 30_000): ReportsReader {
  return async () => {
    if (!operatorToken) throw new Error('no operator token: give --operator-token for GET /admin/reports');
    const days = await reportRows<ReportsRead['days'][number]>(endpoint, '/admin/reports/days', operatorToken, timeoutMs);
    const blocks = await reportRows<ReportsRead['blocks'][number]>(endpoint, '/admin/reports/blocks', operatorToken, timeoutMs);
    return { days, blocks };
  };
}

/** The reports, or why they could not be read. */
export type ReportsReading = ReportsRead | { readonly error: string };

export async function readReports(reader: ReportsReader): Promise<ReportsReading> {
  try {
    return await reader();
  } catch (err) {
    return { error: (err as Error).message };
  }
}

export async function readBlocks(reader: BlocksReader): Promise<BlocksRead> {
  try {
    return { counts: blockCounts(await reader()) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

export interface Collected {
  readonly players: PlayerBooks[];
  readonly recalls: Map<string, RecallFacts | { error: string }>;
}

export async function collectBooks(players: readonly SyntheticPlayer[], endpoints: readonly string[], deadline: Deadline, timeoutMs: number): Promise<Collected> {
  const books: PlayerBooks[] = [];
  const recalls = new Map<string, RecallFacts | { error: string }>();
  await pool(players, CONCURRENCY, async (player, i) => {
    deadline.check('reading wallets and histories');
    const endpoint = endpoints[i % endpoints.length]!;
    let wallet: PlayerBooks['wallet'];
    let walletError: string | undefined;
    // The table may have been lost (a dropped connection, a join that timed out): open it
    // again to read the wallet, a few times (a loaded server may answer a join late).
    for (let attempt = 0; attempt < WALLET_ATTEMPTS && !wallet; attempt++) {
      try {
        if (attempt > 0) {
          deadline.check('reading wallets');
          await player.leave();
          await player.open();
        }
        wallet = await player.wallet();
      } catch (err) {
        walletError = (err as Error).message;
      }
    }
    let history: HistoryLine[] | undefined = [];
    let historyError: string | undefined;
    try {
      for (let offset = 0; ; offset += PAGE) {
        deadline.check('reading histories');
        const page = (await getJson(`${endpoint}/history?offset=${offset}&limit=${PAGE}`, player.token, timeoutMs)) as { units: HistoryLine[] };
        history.push(...page.units);
        if (page.units.length < PAGE) break;
      }
    } catch (err) {
      history = undefined;
      historyError = (err as Error).message;
    }
    books.push({
      playerId: player.playerId,
      pseudonym: player.pseudonym,
      initialBalance: player.initialBalance,
      units: player.units.map((u) => ({ unitId: u.unitId, game: u.game, stake: u.stake, prize: u.prize })),
      wallet,
      ...(wallet ? {} : { walletError }),
      history,
      ...(history ? {} : { historyError }),
    });
  });

  const jobs = players.flatMap((player) => player.units.map((u) => ({ player, unitId: u.unitId })));
  await pool(jobs, CONCURRENCY, async ({ player, unitId }, i) => {
    deadline.check(`recalling units (${i} of ${jobs.length} done)`);
    const endpoint = endpoints[i % endpoints.length]!;
    try {
      const r = (await getJson(`${endpoint}/history/${encodeURIComponent(unitId)}`, player.token, timeoutMs)) as RecallFacts;
      recalls.set(unitId, {
        unitId: r.unitId,
        game: r.game,
        stake: r.stake,
        blockId: r.blockId,
        position: r.position,
        status: r.status,
        prize: r.prize,
        scenario: r.scenario,
        soldAt: r.soldAt,
        completedBy: r.completedBy ?? null,
        finishedAt: r.finishedAt ?? null,
      });
    } catch (err) {
      recalls.set(unitId, { error: (err as Error).message });
    }
  });
  return { players: books, recalls };
}

/**
 * The ledgers with the prize of each unit finished while its client was away (a cut that lost
 * the last patch, the sweeper, a table the player had left) taken from its recall: the client
 * never saw that prize, the recall says it, and the wallet must show it credited.
 */
export function withRecalledPrizes(collected: Collected): PlayerBooks[] {
  return collected.players.map((p) => ({
    ...p,
    units: p.units.map((u) => {
      if (u.prize !== null) return u;
      const r = collected.recalls.get(u.unitId);
      return r && 'status' in r && r.status === 'finished' ? { ...u, prize: r.prize } : u;
    }),
  }));
}

export interface PhaseBooksSettings {
  readonly endpoints: readonly string[];
  /** The block report, read before the phase (`before`) and again now. */
  readonly reader: BlocksReader;
  readonly before: BlocksRead;
  /** Bound on the whole collection, and on each request. */
  readonly timeoutS: number;
  readonly requestTimeoutMs: number;
  /**
   * Credit the prize of each unit finished while its client was away (withRecalledPrizes): a
   * chaos run's cuts and sweeps. Off, the books hold every player to what its client saw.
   */
  readonly recalledPrizes?: boolean;
  /** The operator's reports, compared with the recalls (check 5 of books.ts); absent: not compared. */
  readonly reports?: ReportsSettings;
}

export interface ReportsSettings {
  readonly reader: ReportsReader;
  /** Given servers: the reports before the run, the run's figures being after − before. Absent: the harness's own servers, compared whole. */
  readonly before?: ReportsReading;
  /**
   * Not read before this time (performance.now()): a server computes its reports again at most
   * every BOOKS_AGE_MS, so they are read that long after the last unit sold.
   */
  readonly notBefore: number;
}

/** The reports read once fresh, against the recalls collected. */
async function compareReports(collected: Collected, s: ReportsSettings): Promise<ReportsComparison | { error: string }> {
  if (s.before && 'error' in s.before) return { error: `before the run: ${s.before.error}` };
  const wait = s.notBefore - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const after = await readReports(s.reader);
  if ('error' in after) return after;
  const recalls = [...collected.recalls.values()].filter((r): r is RecalledSale & RecallFacts => !('error' in r));
  return checkReports(recalls, after, s.before);
}

/**
 * The one books check of a run, the load test's and the chaos run's: every player's wallet,
 * history and recalls collected from the servers, the block report read again, and the whole
 * checked against what the players saw (books.ts). Also gives what it checked, for more checks.
 */
export async function checkPhaseBooks(
  phase: { collect(endpoints: readonly string[], deadline: Deadline, timeoutMs: number): Promise<Collected> },
  s: PhaseBooksSettings,
): Promise<{ books: BooksResult; collected: Collected; ledger: PlayerBooks[] }> {
  const collected = await phase.collect(s.endpoints, new Deadline(performance.now() + s.timeoutS * 1000), s.requestTimeoutMs);
  const after = await readBlocks(s.reader);
  const reports = s.reports && (await compareReports(collected, s.reports));
  const ledger = s.recalledPrizes ? withRecalledPrizes(collected) : collected.players;
  const blocksError = s.before.error ?? after.error;
  const books = checkBooks({
    players: ledger,
    recalls: collected.recalls,
    blocksBefore: s.before.counts,
    blocksAfter: after.counts,
    ...(blocksError ? { blocksError: `GET /admin/blocks: ${blocksError}` } : {}),
    ...(reports ? { reports } : {}),
  });
  return { books, collected, ledger };
}
