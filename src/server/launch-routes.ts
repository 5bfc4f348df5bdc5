import { randomBytes } from 'node:crypto';
import express, { type Application, type Request, type Response } from 'express';
import { z } from 'zod';
import { ANONYMOUS } from '../auth/pseudonym';
import { isPlayerId } from '../ids';
import { checkSignature, MAX_SKEW_SECONDS, SIGNATURE_HEADER } from '../operator/signature';
import { GAME_IDS } from '../protocol/game-ids';
import type { LaunchSessionReply } from '../protocol/http';
import type { EndSessionsRequest, LaunchReply, LaunchRequest } from '../protocol/operator-api';
import { LIMIT_MAX_CENTS } from '../protocol/protection';
import { closeTablesOf } from '../rooms/room-types';
import { asyncRoute, sendRefusal } from './edge';
import type { Services } from './services';

/**
 * The operator's launch of a player (docs/server.md, "Launch"): its back end asks, signed, for a
 * one-use URL (`POST /operator/launch`); the player's browser opens it (`GET /launch/<code>`),
 * gets a one-use session handle in a cookie only the exchange route reads, and is sent on to the
 * page, whose `POST /auth/launch-session` trades the handle for the session's token, kept in
 * the page's memory: no token in any URL, nor in the history. The operator ends a player's
 * sessions with `POST /operator/sessions/end`.
 */

/** A launched session's token lives this long at most (TOKEN_MAX_SECONDS caps it). */
const SESSION_SECONDS = 12 * 3600;
const HANDLE_COOKIE = 'lottery_launch';
const EXCHANGE_PATH = '/auth/launch-session';
/** A launch code and a session handle: 32 random bytes, base64url. */
const ONE_USE_ID = /^[A-Za-z0-9_-]{43}$/;
/** How long a used or expired launch URL still shows the way back to its lobby. */
const WAY_BACK_MS = 3600_000;
/** A signature is taken once while its time is within the skew either way. */
const SEEN_SIGNATURE_MS = 2 * MAX_SKEW_SECONDS * 1000;

const cents = z.number().int().min(0).max(LIMIT_MAX_CENTS);
const LAUNCH_REQUEST = z.object({
  player: z.string().refine(isPlayerId),
  currency: z.literal('EUR'),
  language: z.enum(['fr', 'en']),
  returnUrl: z.string().max(2048).refine(isReturnUrl),
  game: z.enum(GAME_IDS).optional(),
  limits: z.object({ stakeWeek: cents.optional(), stakeDay: cents.optional() }).strict().optional(),
  excludedUntil: z.number().int().min(0).max(8.64e15).optional(),
}).strict() satisfies z.ZodType<LaunchRequest>;
const END_SESSIONS_REQUEST = z.object({ player: z.string().refine(isPlayerId) }).strict() satisfies z.ZodType<EndSessionsRequest>;

/** What a launch code, then a session handle, stand for in the store. */
interface Launch {
  readonly player: string;
  readonly language: 'fr' | 'en';
  readonly returnUrl: string;
  readonly game: string | null;
}
interface PendingSession extends Launch {
  readonly sessionId: string;
  readonly startedAt: number;
}

/** « Retour au lobby »'s target: https, or http on the operator's own machine in development. */
function isReturnUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1'));
}

const oneUseId = () => randomBytes(32).toString('base64url');

/** Mounted before the JSON body parser: a signature is checked over the body's bytes as sent. */
export function mountLaunchRoutes(app: Application, services: Services): void {
  const rawBody = express.raw({ type: () => true, limit: '4kb' });
  app.post('/operator/launch', rawBody, asyncRoute(async (req, res) => {
    const body = await signedRequest(req, res, services, LAUNCH_REQUEST);
    if (body) res.json(await launch(services, body, publicOrigin(req, services)));
  }));
  app.post('/operator/sessions/end', rawBody, asyncRoute(async (req, res) => {
    const body = await signedRequest(req, res, services, END_SESSIONS_REQUEST);
    if (!body) return;
    const endedAt = services.now();
    await services.launches.endSessions(body.player, endedAt, services.config.tokenMaxSeconds * 1000);
    await closeTablesOf(services.seats, body.player);
    res.json({ player: body.player, endedAt });
  }));
  app.get('/launch/:code', asyncRoute(async (req, res) => {
    const code = String(req.params['code']);
    const raw = ONE_USE_ID.test(code) ? await services.launches.take(`code:${code}`) : undefined;
    res.setHeader('cache-control', 'no-store');
    if (raw === undefined) {
      const back = ONE_USE_ID.test(code) ? await services.launches.get(`back:${code}`) : undefined;
      return void res.status(410).type('html').send(usedOrExpiredPage(back));
    }
    const launched = JSON.parse(raw) as Launch;
    const handle = oneUseId();
    const session: PendingSession = { ...launched, sessionId: randomBytes(16).toString('hex'), startedAt: services.now() };
    await services.launches.put(`handle:${handle}`, JSON.stringify(session), services.config.launchTtlSeconds * 1000);
    res.setHeader('set-cookie', handleCookie(handle, services.config.launchTtlSeconds));
    // Only what is no secret in the address the page opens at.
    res.redirect(303, `/?${new URLSearchParams({ launched: '1', lang: launched.language, ...(launched.game === null ? {} : { game: launched.game }) })}`);
  }));
  app.post(EXCHANGE_PATH, asyncRoute(async (req, res) => {
    const handle = cookie(req, HANDLE_COOKIE);
    const raw = handle !== undefined && ONE_USE_ID.test(handle) ? await services.launches.take(`handle:${handle}`) : undefined;
    res.setHeader('set-cookie', handleCookie('', 0));
    if (raw === undefined) return sendRefusal(res, 401, 'auth/no_launch_session', 'no launch session to open: launch the game again from the operator');
    const session = JSON.parse(raw) as PendingSession;
    const token = await services.verifier.signLaunched({ playerId: session.player, pseudonym: ANONYMOUS }, SESSION_SECONDS, session);
    const { expiresAt } = await services.verifier.verify(token);
    res.json({ token, playerId: session.player, expiresAt, returnUrl: session.returnUrl, language: session.language, game: session.game } satisfies LaunchSessionReply);
  }));
}

/**
 * The body of an operator's request, once its signature is checked (the secret, the skew, and
 * never seen before on any process) and its shape; else a refusal is answered and undefined.
 */
async function signedRequest<T>(req: Request, res: Response, services: Services, shape: z.ZodType<T>): Promise<T | undefined> {
  const secret = services.config.operatorSecret;
  if (secret === undefined || !services.verifier.signs) {
    sendRefusal(res, 404, 'operator/launch_off', 'the operator launch is off on this server (it needs OPERATOR_SECRET and JWT_SECRET)');
    return undefined;
  }
  const text = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  const check = checkSignature(secret, req.get(SIGNATURE_HEADER), { method: req.method, path: req.originalUrl, body: text }, services.now());
  if (!check.ok) {
    sendRefusal(res, 401, 'operator/signature', `the request's ${SIGNATURE_HEADER} is refused: ${check.reason}`);
    return undefined;
  }
  if (!(await services.launches.firstSight(`sig:${check.signature}`, SEEN_SIGNATURE_MS))) {
    sendRefusal(res, 409, 'operator/replayed', 'this signed request was received before: sign each request anew');
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    sendRefusal(res, 400, 'request/malformed_json', 'the request body is not valid JSON');
    return undefined;
  }
  const parsed = shape.safeParse(json);
  if (!parsed.success) {
    sendRefusal(res, 400, 'operator/malformed', `not of the documented shape: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    return undefined;
  }
  return parsed.data;
}

/** Applies what the operator holds of the player's protection, then keeps a one-use code for the launch. */
async function launch(services: Services, request: z.infer<typeof LAUNCH_REQUEST>, origin: string): Promise<LaunchReply> {
  await services.protection.fromOperator(request.player, {
    stake_week: request.limits?.stakeWeek ?? null,
    stake_day: request.limits?.stakeDay ?? null,
  }, request.excludedUntil);
  const code = oneUseId();
  const ttlMs = services.config.launchTtlSeconds * 1000;
  const launched: Launch = { player: request.player, language: request.language, returnUrl: request.returnUrl, game: request.game ?? null };
  await services.launches.put(`code:${code}`, JSON.stringify(launched), ttlMs);
  await services.launches.put(`back:${code}`, request.returnUrl, WAY_BACK_MS);
  return { url: `${origin}/launch/${code}`, expiresAt: services.now() + ttlMs };
}

/**
 * Where players reach this server: FAIRNESS_ORIGIN (the deployment's public origin) when set,
 * else the origin the operator's request came to.
 */
function publicOrigin(req: Request, services: Services): string {
  return services.config.fairnessOrigin ?? `${req.protocol}://${req.get('host')}`;
}

/**
 * The session handle's cookie: read by the exchange route alone, never by a script, sent from the
 * operator's frame too (SameSite=None, partitioned by the top site where third-party cookies are cut).
 */
function handleCookie(value: string, maxAgeSeconds: number): string {
  return `${HANDLE_COOKIE}=${value}; Path=${EXCHANGE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=None; Partitioned`;
}

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The answer to a launch URL used before or expired: no session; the way back to its lobby while known. */
function usedOrExpiredPage(returnUrl: string | undefined): string {
  const back = returnUrl === undefined ? '' : `<p><a href="${returnUrl.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)}" target="_top">Retour au lobby</a></p>`;
  return `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Lien expiré</title></head>
<body><main><h1>Ce lien de lancement a déjà servi ou a expiré</h1>
<p>Relancez le jeu depuis le lobby de votre opérateur.</p>
<p lang="en">This launch link was used already or has expired: launch the game again from your operator’s lobby.</p>${back}</main></body></html>
`;
}
