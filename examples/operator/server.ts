import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { checkSignature, SIGNATURE_HEADER } from '../../src/operator/signature';
import type { BalanceRequest, MoveRequest, RollbackRequest, WalletCall } from '../../src/protocol/operator-api';
import { parisDay } from '../../src/wallet/reconcile';
import { parseFaultPlan, type Faults } from './faults';
import { endSessions, fetchGames, lobbyPage, requestLaunch } from './lobby';
import { refusal, type Answer, type Protection, type Wallet } from './wallet';

/**
 * The reference operator's HTTP service (docs/integration.md, "The reference operator"): the
 * wallet API the game server calls (`POST /wallet/<call>`, signed), the lobby and its launch,
 * and the admin calls (faults, players, the ledger export) behind a bearer token, or from the
 * loopback only when no token is set.
 */

export interface OperatorSettings {
  readonly secret: string;
  /** The game server's base URL, as this process reaches it. */
  readonly gameServer: string;
  /** This service's base URL, as the player's browser reaches it (the lobby's return URL). */
  readonly publicUrl: string;
  readonly adminToken: string | undefined;
}

export const WALLET_PATH = '/wallet/';
const CALLS: readonly WalletCall[] = ['balance', 'debit', 'credit', 'rollback'];
const MAX_BODY_BYTES = 64 * 1024;
const PLAYER = /^[A-Za-z0-9_.:-]{1,64}$/;
/** Transaction ids, rounds and games: 1–128 printable ASCII characters. */
const ID = /^[\x21-\x7e]{1,128}$/;

class BadRequest extends Error {}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new BadRequest('body over 64 kB'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** A wallet call's body checked against its shape (src/protocol/operator-api.ts): every field, no other. */
export function walletRequest(call: WalletCall, text: string): BalanceRequest | MoveRequest | RollbackRequest {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new BadRequest('the body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequest('the body is not a JSON object');
  const fields: Record<string, (v: unknown) => boolean> = { player: (v) => typeof v === 'string' && PLAYER.test(v), currency: (v) => v === 'EUR' };
  const id = (v: unknown) => typeof v === 'string' && ID.test(v);
  if (call !== 'balance') Object.assign(fields, { transactionId: id, round: id });
  if (call === 'debit' || call === 'credit') Object.assign(fields, { game: id, amount: (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0 });
  if (call === 'rollback') fields['referenceTransactionId'] = id;
  for (const [name, check] of Object.entries(fields)) if (!check(body[name])) throw new BadRequest(`${name} is missing or malformed`);
  const extra = Object.keys(body).filter((name) => !(name in fields));
  if (extra.length > 0) throw new BadRequest(`unknown field ${extra.join(', ')}`);
  return body as unknown as BalanceRequest | MoveRequest | RollbackRequest;
}

function sendAnswer(res: ServerResponse, answer: Answer): void {
  send(res, answer.status, answer.body);
}

async function walletCall(call: WalletCall, req: IncomingMessage, res: ServerResponse, wallet: Wallet, faults: Faults, secret: string): Promise<void> {
  const outage = faults.outageFor(call);
  if (outage === 'reset') return void req.socket.destroy();
  if (outage === 'status') return send(res, 503, { message: 'the wallet is down (injected outage)' });
  const text = await readBody(req);
  const signature = checkSignature(secret, req.headers[SIGNATURE_HEADER] as string | undefined, { method: 'POST', path: req.url!, body: text }, Date.now());
  if (!signature.ok) return sendAnswer(res, refusal('invalid_signature', `signature ${signature.reason}`));
  const request = walletRequest(call, text);
  const { latencyMs, fault } = faults.decide(call);
  if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
  switch (fault?.fault) {
    case 'reset':
      return void req.socket.destroy();
    case 'timeout':
      if (fault.apply) await wallet.call(call, request);
      return; // held, never answered: the client gives up, the socket closes
    case 'status':
      if (fault.apply) await wallet.call(call, request);
      return send(res, fault.status ?? 500, { message: 'injected failure' });
    case 'drop':
      await wallet.call(call, request);
      return void req.socket.destroy();
    case 'garble':
      await wallet.call(call, request);
      return send(res, 200, '<html>upstream says hello</html>', 'text/html');
    case 'duplicate': {
      const [, second] = await Promise.all([wallet.call(call, request), wallet.call(call, request)]);
      return sendAnswer(res, second);
    }
    case 'refuse':
      return sendAnswer(res, refusal(fault.code!, 'injected refusal'));
    default:
      return sendAnswer(res, await wallet.call(call, request));
  }
}

function isAdmin(req: IncomingMessage, token: string | undefined): boolean {
  if (token !== undefined) return req.headers.authorization === `Bearer ${token}`;
  return ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.socket.remoteAddress ?? '');
}

function jsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest('the body is not JSON');
  }
}

/** `{ limits?: { stakeWeek?, stakeDay? }, excludedUntil? }` checked: cents and ms, whole numbers. */
function protection(value: unknown): Protection {
  const whole = (v: unknown) => v === undefined || (Number.isSafeInteger(v) && (v as number) >= 0);
  const { limits, excludedUntil, ...rest } = (value ?? {}) as Record<string, unknown>;
  const { stakeWeek, stakeDay, ...more } = (limits ?? {}) as Record<string, unknown>;
  if (typeof value !== 'object' || value === null || Object.keys(rest).length + Object.keys(more).length > 0 || ![stakeWeek, stakeDay, excludedUntil].every(whole)) {
    throw new BadRequest('protection: { limits?: { stakeWeek?, stakeDay? }, excludedUntil? }, whole cents and ms');
  }
  return value as Protection;
}

async function admin(req: IncomingMessage, res: ServerResponse, url: URL, wallet: Wallet, faults: Faults): Promise<void> {
  const route = `${req.method} ${url.pathname}`;
  if (route === 'GET /admin/faults') return send(res, 200, faults.state());
  if (route === 'DELETE /admin/faults') {
    faults.clear();
    return send(res, 200, faults.state());
  }
  if (route === 'POST /admin/faults') {
    try {
      faults.set(parseFaultPlan(jsonBody(await readBody(req))));
    } catch (err) {
      throw new BadRequest((err as Error).message);
    }
    return send(res, 200, faults.state());
  }
  if (route === 'POST /admin/players') {
    const body = jsonBody(await readBody(req)) as { player?: unknown; blocked?: unknown; protection?: unknown };
    if (typeof body.player !== 'string' || !PLAYER.test(body.player)) throw new BadRequest('player: 1–64 of [A-Za-z0-9_.:-]');
    if (body.blocked !== undefined && typeof body.blocked !== 'boolean') throw new BadRequest('blocked: true or false');
    await wallet.openAccount(body.player);
    if (body.blocked !== undefined) await wallet.setBlocked(body.player, body.blocked);
    if (body.protection !== undefined) await wallet.setProtection(body.player, protection(body.protection));
    return send(res, 200, { player: body.player, ...wallet.account(body.player) });
  }
  if (route === 'GET /ledger') {
    const day = url.searchParams.get('day');
    const player = url.searchParams.get('player');
    if (day !== null && !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new BadRequest('day: YYYY-MM-DD');
    const lines = wallet.ledger((l) => (day === null || parisDay(l.at) === day) && (player === null || l.player === player));
    return send(res, 200, lines.map((l) => `${JSON.stringify(l)}\n`).join(''), 'application/x-ndjson');
  }
  send(res, 404, { message: 'no such admin call' });
}

async function lobby(req: IncomingMessage, res: ServerResponse, url: URL, wallet: Wallet, settings: OperatorSettings): Promise<void> {
  const route = `${req.method} ${url.pathname}`;
  const form = req.method === 'POST' ? new URLSearchParams(await readBody(req)) : url.searchParams;
  const player = form.get('player') ?? '';
  if (!PLAYER.test(player)) throw new BadRequest('player: 1–64 of [A-Za-z0-9_.:-]');
  const lobbyUrl = `${settings.publicUrl}/lobby?player=${encodeURIComponent(player)}`;
  let notice: string | undefined;
  try {
    if (route === 'POST /lobby/launch') {
      const game = form.get('game') ?? undefined;
      await wallet.openAccount(player);
      const request = { player, currency: 'EUR', language: 'fr', returnUrl: lobbyUrl, ...(game ? { game } : {}), ...wallet.account(player)!.protection } as const;
      const reply = await requestLaunch(settings.gameServer, settings.secret, request, Date.now);
      res.writeHead(303, { location: reply.url, 'cache-control': 'no-store' });
      return void res.end();
    }
    if (route === 'POST /lobby/logout') {
      await endSessions(settings.gameServer, settings.secret, { player }, Date.now());
      res.writeHead(303, { location: lobbyUrl });
      return void res.end();
    }
  } catch (err) {
    notice = (err as Error).message;
  }
  await wallet.openAccount(player);
  const account = wallet.account(player)!;
  const page = lobbyPage({ player, balance: account.balance, blocked: account.blocked, lines: wallet.ledger((l) => l.player === player), games: await fetchGames(settings.gameServer), ...(notice ? { notice } : {}) });
  res.writeHead(notice ? 502 : 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" });
  res.end(page);
}

async function route(req: IncomingMessage, res: ServerResponse, wallet: Wallet, faults: Faults, settings: OperatorSettings): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://operator');
  const call = url.pathname.startsWith(WALLET_PATH) ? (url.pathname.slice(WALLET_PATH.length) as WalletCall) : undefined;
  if (call !== undefined && CALLS.includes(call) && req.method === 'POST') return walletCall(call, req, res, wallet, faults, settings.secret);
  if (url.pathname === '/ready') return send(res, 200, 'ready', 'text/plain');
  if (url.pathname.startsWith('/lobby')) return lobby(req, res, url, wallet, settings);
  if (url.pathname.startsWith('/admin/') || url.pathname === '/ledger') {
    if (!isAdmin(req, settings.adminToken)) return send(res, 401, { message: 'admin calls need the bearer token (or the loopback when none is set)' });
    return admin(req, res, url, wallet, faults);
  }
  send(res, 404, { message: 'not found' });
}

export function operatorServer(wallet: Wallet, faults: Faults, settings: OperatorSettings): Server {
  return createServer((req, res) => {
    route(req, res, wallet, faults, settings).catch((err: Error) => {
      if (err instanceof BadRequest) return sendAnswer(res, refusal('invalid_request', err.message));
      console.error(err);
      send(res, 500, { message: 'internal error' });
    });
  });
}
