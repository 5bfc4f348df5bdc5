import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import express, { type Application } from 'express';
import { z } from 'zod';
import { KEYRING } from '../archive/files';
import { normalizePseudonym } from '../auth/pseudonym';
import type { Player } from '../auth/tokens';
import { blocksReport, verifyBlockReport } from '../reports/operator-report';
import { isEventId, MAX_PAGE } from '../dealer/identifiers';
import { isPlayerId } from '../ids';
import { toHistoryLine } from '../play/recall';
import type { DevLoginReply, HealthReply, OperatorEventsReply, OperatorJournalReply, OperatorWalletReply, WalletReply } from '../protocol/http';
import type { HistoryPage } from '../protocol/recall';
import { DealerWalletFunding, type WalletFunding } from '../wallet/funding';
import { isOperator, playerOf } from './callers';
import { mountFairnessRoutes } from './fairness-routes';
import { mountLogRoutes } from './log-routes';
import { RateLimiter } from './rate-limit';
import { mountCatalogRoutes } from './catalog-routes';
import { mountLaunchRoutes } from './launch-routes';
import { mountWalletLedgerRoute } from './wallet-ledger-route';
import { mountProtectionRoutes } from './protection-routes';
import { mountSpectatorRoutes } from './spectator-routes';
import { mountWebPage } from './web-page';
import type { Services } from './services';
import { asyncRoute, sendRefusal } from './edge';
import { usesRedis } from '../config';

const DEV_TOKEN_TTL_SECONDS = 12 * 3600;
const HISTORY_QUERY = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** The operator's journal view: newest first, `before` a seq (the `next` of the page before). */
const JOURNAL_QUERY = z.object({
  before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(100),
}).strict();

/** The operator's events: `after` an event id (the `next` of the page before). */
const EVENTS_QUERY = z.object({
  after: z.string().refine(isEventId).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(100),
}).strict();

const FUNDING_REQUEST = z.object({
  /** Whole cents, at most 10 million euros at once. */
  amount: z.number().int().min(1).max(1_000_000_000),
  requestId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
}).strict();

/**
 * The routes whose answers are one player's (wallet, protection, history and recall, the dev
 * login's token) or the operator's: `Cache-Control: no-store`, so that no browser cache, shared
 * proxy or back button keeps a balance or a journal for the next person at the machine.
 */
const PERSONAL_ROUTES = ['/wallet', '/protection', '/history', '/auth', '/admin', '/operator', '/launch'];

/** HTTP routes beside the rooms, by audience, JSON bodies read first and the page last. */
export function mountRoutes(app: Application, services: Services): void {
  app.use(PERSONAL_ROUTES, (_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });
  mountLaunchRoutes(app, services);
  app.use(express.json({ limit: '4kb' }));
  mountHealthRoutes(app, services);
  mountPlayerRoutes(app, services);
  mountOperatorRoutes(app, services);
  mountWalletRoutes(app, services);
  mountWalletLedgerRoute(app, services);
  mountProtectionRoutes(app, services);
  mountPublicRoutes(app, services);
  mountWebPage(app, services.config.publicAddresses, services.config.operatorOrigins);
}

function mountHealthRoutes(app: Application, services: Services): void {
  app.get('/health', (_req, res) => {
    res.json({ ok: true, mode: usesRedis(services.config) ? 'redis' : 'embedded', devLogin: services.config.devLogin } satisfies HealthReply);
  });
}

/** The player's own: the dev login, the history and the recall of a unit. */
function mountPlayerRoutes(app: Application, services: Services): void {
  // Each dev login funds an account: a few per address and minute.
  const devLogins = new RateLimiter(services.config.devLoginPerMinute, 60_000, Date.now);
  app.post('/auth/dev-login', asyncRoute(async (req, res) => {
    if (!services.config.devLogin) {
      const why = services.config.walletMode === 'seamless' ? ': the operator signs players in (WALLET_MODE=seamless)' : '';
      return sendRefusal(res, 404, 'auth/dev_login_off', `the dev login is off on this server${why}`);
    }
    if (!devLogins.take(req.ip ?? 'unknown')) return sendRefusal(res, 429, 'auth/rate_limited', 'too many dev logins from this address: wait a minute');
    const raw: unknown = req.body?.name;
    const name = typeof raw === 'string' ? normalizePseudonym(raw) : undefined;
    if (name === undefined) {
      return sendRefusal(res, 400, 'auth/malformed', 'give a name: 1–32 letters of one alphabet, digits, spaces, _ . -');
    }
    const player: Player = { playerId: `demo-${randomUUID()}`, pseudonym: name };
    const token = await services.verifier.signDemo(player, DEV_TOKEN_TTL_SECONDS);
    await services.dealer.wallets.deposit(player.playerId, services.config.demoBalance, `demo-${player.playerId}`, services.now());
    res.json({ token, playerId: player.playerId, pseudonym: player.pseudonym, balance: services.config.demoBalance, stakeLimitProposal: services.config.protection.demoStakeLimitWeek } satisfies DevLoginReply);
  }));

  app.get('/history', asyncRoute(async (req, res) => {
    const player = await playerOf(req, res, services);
    if (!player) return;
    const query = HISTORY_QUERY.safeParse(req.query);
    if (!query.success) return sendRefusal(res, 400, 'history/malformed', 'offset and limit must be whole numbers (limit 1–100)');
    const { sales, ended } = await services.play.history(player.playerId, query.data.offset, query.data.limit);
    res.json({ units: sales.map(toHistoryLine) } satisfies HistoryPage);
    for (const end of ended) services.feed.publish(end, player.pseudonym);
  }));

  app.get('/history/:unitId', asyncRoute(async (req, res) => {
    const player = await playerOf(req, res, services);
    if (!player) return;
    const unitId = String(req.params['unitId']);
    // Someone else's unit answers exactly like a missing one: ids reveal nothing.
    const recalled = await services.play.recall(player.playerId, unitId);
    if (!recalled) return sendRefusal(res, 404, 'recall/not_found', `no unit ${unitId} in your history`);
    res.json(recalled.record);
    // The player is shown the unit's end: a win kept until they saw it, or settled just now, goes out.
    for (const end of recalled.ended) services.feed.publish(end, player.pseudonym);
    if (recalled.record.status === 'finished') services.feed.releaseUnseen({ unitIds: [unitId] });
  }));
}

/** The operator's reports on blocks; the operator's wallet routes are the wallet's. */
function mountOperatorRoutes(app: Application, services: Services): void {
  // Operator endpoints: off unless OPERATOR_TOKEN is set; a wrong token learns nothing more.
  app.get('/admin/blocks', asyncRoute(async (req, res) => {
    if (!isOperator(req, services)) return sendRefusal(res, 401, 'auth/operator_only', 'operator token required');
    res.json(await blocksReport(services.dealer));
  }));

  app.get('/admin/blocks/:blockId/verify', asyncRoute(async (req, res) => {
    if (!isOperator(req, services)) return sendRefusal(res, 401, 'auth/operator_only', 'operator token required');
    const blockId = String(req.params['blockId']);
    const report = await verifyBlockReport(services.dealer, blockId);
    if (!report) return sendRefusal(res, 404, 'blocks/not_found', `no block ${blockId}`);
    res.json(report);
  }));
}

/** Wallets: the operator's funding, views and events (what it must act on), and the player's own view. */
function mountWalletRoutes(app: Application, services: Services): void {
  // Wallet funding by the operator: idempotent per request id, journaled, never below zero.
  const funding: WalletFunding = new DealerWalletFunding(services.dealer.wallets);
  for (const operation of ['deposit', 'withdraw'] as const) {
    app.post(`/admin/wallets/:playerId/${operation}`, asyncRoute(async (req, res) => {
      if (!isOperator(req, services)) return sendRefusal(res, 401, 'auth/operator_only', 'operator token required');
      if (services.config.walletMode === 'seamless') return sendRefusal(res, 409, 'wallet/not_here', `no ${operation} here: the operator holds the players' money (WALLET_MODE=seamless)`);
      const playerId = String(req.params['playerId']);
      if (!isPlayerId(playerId)) return sendRefusal(res, 400, 'wallet/malformed', 'a player id is 1–64 of A-Z a-z 0-9 _ . : -');
      const body = FUNDING_REQUEST.safeParse(req.body);
      if (!body.success) return sendRefusal(res, 400, 'wallet/malformed', 'give { amount: whole cents ≥ 1, requestId: 1–64 of A-Z a-z 0-9 _ - }');
      const { amount, requestId } = body.data;
      const result = await funding[operation](playerId, amount, requestId, services.now());
      if (!result.ok && result.code === 'limit/deposit_week') {
        // Journaled with who and when, as a purchase refused for the player's protection is.
        await services.protection.refused(playerId, result.code);
        return sendRefusal(res, 409, result.code, result.message, result.details);
      }
      if (!result.ok) return sendRefusal(res, 409, result.code, result.message);
      res.json({ playerId, balance: result.balance, entry: result.entry });
    }));
  }

  // The operator's wallet view: the balance and the stakes held, without the journal (paged below).
  app.get('/admin/wallets/:playerId', asyncRoute(async (req, res) => {
    if (!isOperator(req, services)) return sendRefusal(res, 401, 'auth/operator_only', 'operator token required');
    const playerId = String(req.params['playerId']);
    if (!isPlayerId(playerId)) return sendRefusal(res, 400, 'wallet/malformed', 'a player id is 1–64 of A-Z a-z 0-9 _ . : -');
    const { balance, held } = await funding.wallet(playerId);
    res.json({ playerId, balance, held } satisfies OperatorWalletReply);
  }));

  app.get('/admin/wallets/:playerId/journal', asyncRoute(async (req, res) => {
    if (!isOperator(req, services)) return sendRefusal(res, 401, 'auth/operator_only', 'operator token required');
    const playerId = String(req.params['playerId']);
    const query = JOURNAL_QUERY.safeParse(req.query);
    if (!isPlayerId(playerId) || !query.success) {
      return sendRefusal(res, 400, 'wallet/malformed', `a player id is 1–64 of A-Z a-z 0-9 _ . : -; before a seq ≥ 1, limit 1–${MAX_PAGE}`);
    }
    const journal = await funding.journalPage(playerId, query.data);
    const oldest = journal.at(-1)?.seq ?? 1;
    res.json({ playerId, journal, next: oldest > 1 ? oldest : null } satisfies OperatorJournalReply);
  }));

  // The operator's system reads what it must act on (withdrawals above the threshold) from here.
  app.get('/admin/events', asyncRoute(async (req, res) => {
    if (!isOperator(req, services)) return sendRefusal(res, 401, 'auth/operator_only', 'operator token required');
    const query = EVENTS_QUERY.safeParse(req.query);
    if (!query.success) return sendRefusal(res, 400, 'events/malformed', `after is an event id (the next of a page), limit 1–${MAX_PAGE}`);
    res.json((await services.dealer.events.events(query.data.after, query.data.limit)) satisfies OperatorEventsReply);
  }));

  // A player's own wallet: its balance and its journal, newest first.
  app.get('/wallet', asyncRoute(async (req, res) => {
    const player = await playerOf(req, res, services);
    if (!player) return;
    const query = HISTORY_QUERY.safeParse(req.query);
    if (!query.success) return sendRefusal(res, 400, 'history/malformed', 'offset and limit must be whole numbers (limit 1–100)');
    const [{ balance }, journal] = await Promise.all([funding.wallet(player.playerId), funding.journalPage(player.playerId, query.data)]);
    res.json({ balance, journal } satisfies WalletReply);
  }));
}

/** What anyone may read: the archive's keys, the tables and prizes left, the fairness pages and log, the games. */
function mountPublicRoutes(app: Application, services: Services): void {
  // The archive's public keys (docs/archive.md, "Keys"): anyone may check its seals with them.
  app.get('/archive/key', asyncRoute(async (_req, res) => {
    const dir = services.config.archive.dir;
    const text = dir === undefined ? undefined : await readFile(join(dir, KEYRING), 'utf8').catch(() => undefined);
    res.type('application/json').send(text ?? '{"keys":[]}');
  }));
  mountSpectatorRoutes(app, services);
  mountFairnessRoutes(app, services.dealer);
  mountLogRoutes(app, services.checkpoints);
  mountCatalogRoutes(app, services.config.pace);
}
