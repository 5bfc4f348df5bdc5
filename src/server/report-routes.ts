import { readdir } from 'node:fs/promises';
import { matchMaker } from '@colyseus/core';
import type { Application, Request, Response } from 'express';
import { Gauge, type Registry } from 'prom-client';
import { z } from 'zod';
import { dayOfFile } from '../archive/files';
import { MAX_PAGE } from '../dealer/identifiers';
import { blocksReport } from '../reports/operator-report';
import { BOOKS_AGE_MS, type BlockRow, type LiveState, type ProtectionRow, type ReportPage } from '../reports/report-rows';
import { parisDay, SalesBooks, type DayRow } from '../reports/sales-books';
import { isOperator } from './callers';
import { asyncRoute, sendRefusal } from './edge';
import type { Services } from './services';

/**
 * The operator's reports (docs/reports.md), computed from the dealer's records:
 * per game × price × day, per hour, per block, per player, the protection journal and what is
 * live, as JSON or CSV (`?format=csv`), paged (`offset`, `limit`), behind the operator token.
 * The same books give the payout gauges the alert rule reads.
 */

const PAGE_QUERY = z.object({
  offset: z.coerce.number().int().min(0).max(100_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(100),
  format: z.enum(['json', 'csv']).default('json'),
}).strict();

/** The CSV of rows, their keys as the header: money in cents, times in ISO. */
function toCsv(rows: readonly object[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const cell = (value: unknown) => {
    const text = value === null || value === undefined ? '' : String(value);
    return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [columns.join(','), ...rows.map((row) => columns.map((c) => cell((row as Record<string, unknown>)[c])).join(','))].join('\n') + '\n';
}

/** One page of rows, as JSON `{ rows, total, offset, limit, next }` or CSV (the page's rows). */
function sendPage<T extends object>(req: Request, res: Response, name: string, rows: readonly T[]): void {
  const query = PAGE_QUERY.safeParse(req.query);
  if (!query.success) return sendRefusal(res, 400, 'request/invalid', `offset ≥ 0, limit 1–${MAX_PAGE}, format json or csv`);
  const { offset, limit, format } = query.data;
  const page = rows.slice(offset, offset + limit);
  if (format === 'csv') {
    res.type('text/csv').attachment(`${name}-${offset}.csv`).send(toCsv(page));
    return;
  }
  res.json({ rows: page, total: rows.length, offset, limit, next: offset + limit < rows.length ? offset + limit : null } satisfies ReportPage<T>);
}

/** Books read at most every BOOKS_AGE_MS, whoever asks (a route, a scrape). */
function freshBooks(services: Services): () => Promise<SalesBooks> {
  const books = new SalesBooks(services.dealer);
  let readAt = -Infinity;
  return async () => {
    if (Date.now() - readAt > BOOKS_AGE_MS) {
      await books.refresh();
      readAt = Date.now();
    }
    return books;
  };
}

async function blockRows(services: Services): Promise<BlockRow[]> {
  const report = await blocksReport(services.dealer);
  return report.emissions.flatMap((e) => e.blocks.map((b): BlockRow => {
    const top = b.tiers.find((t) => t.tierId === 1);
    return {
      emissionId: e.emissionId, game: e.game, stake: e.stake, blockId: b.blockId, index: b.index, state: b.state,
      size: b.size, sold: b.sold, left: b.unsold, prizesWon: b.prizesWon, prizesLeft: b.prizesLeft,
      topPrize: top?.prize ?? null, topPrizesLeft: top?.left ?? null,
      tiersLeft: [...b.tiers.slice(1), b.tiers[0]!].map((t) => `${t.prize}×${t.left}`).join(' '),
    };
  }));
}

/** The protection journal of the players the books know, newest first. */
async function protectionRows(services: Services, playerIds: readonly string[]): Promise<ProtectionRow[]> {
  const rows: ProtectionRow[] = [];
  for (let i = 0; i < playerIds.length; i += 100) {
    const records = await Promise.all(playerIds.slice(i, i + 100).map(async (playerId) => ({ playerId, history: (await services.dealer.protections.protectionRecord(playerId)).history })));
    for (const { playerId, history } of records) {
      for (const c of history) {
        rows.push({ at: new Date(c.at).toISOString(), playerId, by: c.by, what: c.what, kind: c.kind ?? null, amount: c.amount ?? null, until: c.until === undefined ? null : new Date(c.until).toISOString(), reason: c.reason ?? null, code: c.code ?? null, count: c.count ?? null });
      }
    }
  }
  return rows.sort((a, b) => b.at.localeCompare(a.at));
}

/** Players, watchers and feed spectators in every process's rooms; the archive's lag and day files. */
async function liveState(services: Services, registry: Registry): Promise<LiveState> {
  let players = 0;
  let watchers = 0;
  let feedSpectators = 0;
  for (const room of await matchMaker.query({})) {
    if (room.name === 'table') players += room.clients;
    else if (room.name === 'watch') watchers += room.clients;
    else if (room.name === 'feed') feedSpectators += room.clients;
  }
  const lag = (await registry.getSingleMetric('lottery_archive_lag_seconds')?.get())?.values[0]?.value;
  const dir = services.config.archive.dir;
  const days = dir === undefined ? [] : (await readdir(dir).catch(() => [])).flatMap((name) => dayOfFile(name)?.day ?? []).sort();
  return {
    at: new Date(services.now()).toISOString(), players, watchers, feedSpectators,
    archive: dir !== undefined, archiveLagSeconds: lag ?? null, archiveDayFiles: days.length, archiveNewestDay: days.at(-1) ?? null,
  };
}

/**
 * The payout of each emission today (Europe/Paris, the store's clock) against its band, read at
 * each scrape from the report's books: what the `LotteryPayoutOutsideBand` rule compares.
 */
function watchPayout(registry: Registry, books: () => Promise<SalesBooks>, now: () => number): void {
  let today: { at: number; rows: Promise<DayRow[]> } | undefined;
  const rows = () => {
    if (!today || Date.now() - today.at > BOOKS_AGE_MS) {
      const day = parisDay(now());
      today = { at: Date.now(), rows: books().then(async (b) => (await b.dayRows()).filter((r) => r.day === day)) };
    }
    return today.rows;
  };
  const gauge = (name: string, help: string, value: (row: DayRow) => number) => new Gauge({ name, help, labelNames: ['game', 'stake', 'emission'], registers: [registry], async collect() {
    const read = await rows().catch(() => []);
    this.reset();
    for (const row of read) this.set({ game: row.game, stake: String(row.stake), emission: row.emissionId }, value(row));
  } });
  // The payout and its band are of the same units: those sold today when the band was computed (at most a minute ago).
  gauge('lottery_payout_ratio', 'Prizes over stakes of the units sold today (Europe/Paris), per emission, as of its band', (r) => r.bandPayout);
  gauge('lottery_payout_band_low_ratio', 'Low end of the 99.9 % band of that payout for those units drawn from their blocks (exact hypergeometric law)', (r) => r.payoutLow);
  gauge('lottery_payout_band_high_ratio', 'High end of that band', (r) => r.payoutHigh);
  gauge('lottery_payout_table_ratio', 'The prize table’s payout (its prizes over its block’s stakes)', (r) => r.tablePayout);
  gauge('lottery_payout_units', 'Units sold today (Europe/Paris), per emission, as of its band: the draw the band is for', (r) => r.bandUnits);
}

/** Mounts `/admin/reports/*` and registers the payout gauges on the process's metrics. */
export function mountReportRoutes(app: Application, services: Services, registry: Registry): void {
  const books = freshBooks(services);
  watchPayout(registry, books, services.now);
  const operatorOnly = (handler: (req: Request, res: Response) => Promise<void>) => asyncRoute(async (req, res) => {
    res.setHeader('cache-control', 'no-store');
    if (!isOperator(req, services)) return sendRefusal(res, 401, 'auth/operator_only', 'operator token required');
    await handler(req, res);
  });
  app.get('/admin/reports/days', operatorOnly(async (req, res) => sendPage(req, res, 'days', await (await books()).dayRows())));
  app.get('/admin/reports/hours', operatorOnly(async (req, res) => sendPage(req, res, 'hours', (await books()).hourRows())));
  app.get('/admin/reports/blocks', operatorOnly(async (req, res) => sendPage(req, res, 'blocks', await blockRows(services))));
  app.get('/admin/reports/players', operatorOnly(async (req, res) => {
    const rows = (await books()).playerRows();
    const query = PAGE_QUERY.safeParse(req.query);
    const { offset, limit } = query.success ? query.data : { offset: 0, limit: 0 };
    // Protection events are read for the rows of the page only: one read per player.
    const withEvents = await Promise.all(rows.map(async (row, i) => ({
      ...row,
      protectionEvents: i >= offset && i < offset + limit ? (await services.dealer.protections.protectionRecord(row.playerId)).history.length : null,
    })));
    sendPage(req, res, 'players', withEvents);
  }));
  app.get('/admin/reports/protection', operatorOnly(async (req, res) => {
    sendPage(req, res, 'protection', await protectionRows(services, (await books()).playerRows().map((r) => r.playerId)));
  }));
  app.get('/admin/reports/live', operatorOnly(async (_req, res) => {
    res.json(await liveState(services, registry));
  }));
}
