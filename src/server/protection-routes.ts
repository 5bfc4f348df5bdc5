import type { Application, Request, Response } from 'express';
import { z } from 'zod';
import { isPlayerId } from '../ids';
import { BLOCK_REASONS, EXCLUSION_DURATIONS, LIMIT_MAX_CENTS, LIMIT_MIN_CENTS, REALITY_CHECK_MIN_MS, TIME_LIMIT_MAX_MS, TIME_LIMIT_MIN_MS } from '../protocol/protection';
import { isOperator, playerOf } from './callers';
import { asyncRoute, sendRefusal } from './edge';
import type { Services } from './services';

const AMOUNT = z.number().int().min(LIMIT_MIN_CENTS).max(LIMIT_MAX_CENTS);
/** A playing-time limit: whole minutes, in ms. */
const PLAYING_TIME = (max: number) => z.number().int().multipleOf(60_000).min(TIME_LIMIT_MIN_MS).max(max).nullable().optional();
/** `stake_week` cannot be removed once set: null is only for the others. */
const LIMITS = z
  .object({
    stake_week: AMOUNT.optional(),
    stake_day: AMOUNT.nullable().optional(),
    deposit_week: AMOUNT.nullable().optional(),
    time_day: PLAYING_TIME(TIME_LIMIT_MAX_MS.time_day),
    time_week: PLAYING_TIME(TIME_LIMIT_MAX_MS.time_week),
  })
  .strict();
const EXCLUSION = z.object({ duration: z.enum(EXCLUSION_DURATIONS) }).strict();
const BLOCK = z.object({ reason: z.enum(BLOCK_REASONS), until: z.number().int().min(0).max(8.64e15).nullable().optional() }).strict();

/** The operator's routes name a player: the id must be one. */
function playerParam(req: Request, res: Response, services: Services): string | undefined {
  if (!isOperator(req, services)) return void sendRefusal(res, 401, 'auth/operator_only', 'operator token required');
  const playerId = String(req.params['playerId']);
  if (!isPlayerId(playerId)) return void sendRefusal(res, 400, 'protection/malformed', 'a player id is 1–64 of A-Z a-z 0-9 _ . : -');
  return playerId;
}

/** Player protection (docs/responsible-gaming.md): the player's own, and the operator's view and blocks. */
export function mountProtectionRoutes(app: Application, services: Services): void {
  const { protection } = services;

  app.get('/protection', asyncRoute(async (req, res) => {
    const player = await playerOf(req, res, services);
    if (player) res.json(await protection.state(player.playerId));
  }));

  app.put('/protection/limits', asyncRoute(async (req, res) => {
    const player = await playerOf(req, res, services);
    if (!player) return;
    const body = LIMITS.safeParse(req.body);
    if (!body.success || Object.keys(body.data).length === 0) {
      return sendRefusal(res, 400, 'limit/malformed', `give { stake_week?, stake_day?, deposit_week?, time_day?, time_week? }: whole cents ${LIMIT_MIN_CENTS}–${LIMIT_MAX_CENTS}, playing time in ms of whole minutes from ${TIME_LIMIT_MIN_MS} to 24 h (time_day) or 7 days (time_week), or null to remove (not stake_week)`);
    }
    res.json(await protection.setLimits(player.playerId, body.data));
  }));

  app.post('/protection/exclusion', asyncRoute(async (req, res) => {
    const player = await playerOf(req, res, services);
    if (!player) return;
    const body = EXCLUSION.safeParse(req.body);
    if (!body.success) return sendRefusal(res, 400, 'protection/malformed', `give { duration: ${EXCLUSION_DURATIONS.join(' | ')} }`);
    res.json(await protection.exclude(player.playerId, body.data.duration));
  }));

  app.post('/protection/reality-check', asyncRoute(async (req, res) => {
    const player = await playerOf(req, res, services);
    if (player) res.json(await protection.acknowledgeRealityCheck(player.playerId));
  }));

  // The player's own interval: whole minutes from 15 to the server's (never less often than the operator set).
  const INTERVAL = z.object({ everyMs: z.number().int().multipleOf(60_000).min(REALITY_CHECK_MIN_MS).max(protection.settings.realityCheckMs).nullable() }).strict();
  app.put('/protection/reality-check-interval', asyncRoute(async (req, res) => {
    const player = await playerOf(req, res, services);
    if (!player) return;
    const body = INTERVAL.safeParse(req.body);
    if (!body.success) return sendRefusal(res, 400, 'protection/malformed', `give { everyMs }: whole minutes in ms from ${REALITY_CHECK_MIN_MS} to ${protection.settings.realityCheckMs}, or null for the server's`);
    res.json(await protection.setRealityCheckInterval(player.playerId, body.data.everyMs));
  }));

  app.get('/admin/players/:playerId/protection', asyncRoute(async (req, res) => {
    const playerId = playerParam(req, res, services);
    if (playerId) res.json(await protection.state(playerId));
  }));

  app.put('/admin/players/:playerId/block', asyncRoute(async (req, res) => {
    const playerId = playerParam(req, res, services);
    if (!playerId) return;
    const body = BLOCK.safeParse(req.body);
    if (!body.success) return sendRefusal(res, 400, 'protection/malformed', `give { reason: ${BLOCK_REASONS.join(' | ')}, until?: ms or null }`);
    const blocked = await protection.block(playerId, body.data.reason, body.data.until ?? null);
    if (blocked === 'ended') return sendRefusal(res, 400, 'protection/block_ended', 'until is past: give a future date in ms since the epoch, or null for no end');
    res.json(blocked);
  }));

  app.delete('/admin/players/:playerId/block', asyncRoute(async (req, res) => {
    const playerId = playerParam(req, res, services);
    if (playerId) res.json(await protection.unblock(playerId));
  }));
}
