import { STATUS_CODES, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode, matchMaker, ServerError } from '@colyseus/core';
import type { Application, NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { isStoreOutage, OUTAGE_SENTENCE } from '../dealer/outage';
import type { RefusalDetails } from '../protocol/protection';
import { REFUSALS, type HttpRefusal, type RefusalCode, type RefusalMessage } from '../protocol/refusals';

/**
 * The HTTP edge, in front of every route (ours through express, Colyseus's own matchmaking
 * router): security headers, CORS from an allow-list, body size limits, and one JSON shape for
 * every error, `{ error: { code, message } }`, with no stack trace and no path: an outage of the
 * store is `503 server/unavailable` on every route, and Colyseus's matchmaking errors (its own
 * statuses 520–524 and shape `{ code, error }`) are put in that shape too.
 */

export interface EdgeOptions {
  /** Origins allowed besides the server's own (`CORS_ORIGINS`). */
  readonly corsOrigins: readonly string[];
  readonly maxBodyBytes: number;
  /** Every process's public address (`PUBLIC_ADDRESS`, `PUBLIC_ADDRESSES`): where a page may open its sockets. */
  readonly publicAddresses: readonly string[];
  /** The operator's sites that may frame the page (`OPERATOR_ORIGINS`); none: no framing at all. */
  readonly operatorOrigins: readonly string[];
}

/** A fault the edge found in a request, answered before any route sees it. */
interface Refusal extends RefusalMessage {
  readonly status: number;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Where a page may connect: its own origin ('self', its WebSocket included) and the deployment's
 * processes, whose rooms a seat reservation sends it to (`ws(s)://<publicAddress>/…`), and
 * nothing else. An address with a path is a prefix (`/node-3/`).
 */
export function connectSources(publicAddresses: readonly string[]): string[] {
  const sources = publicAddresses.flatMap((address) => {
    const source = address.includes('/') ? `${address}/` : address;
    return ['ws', 'wss', 'http', 'https'].map((scheme) => `${scheme}://${source}`);
  });
  return ["'self'", ...sources];
}

/**
 * Who may frame the page: nobody (no clickjacking of the buy button), or the operator's sites
 * and the server's own when the page is embedded in the operator's (`OPERATOR_ORIGINS`).
 */
export function frameAncestors(operatorOrigins: readonly string[]): string[] {
  return operatorOrigins.length === 0 ? ["'none'"] : ["'self'", ...operatorOrigins];
}

/**
 * Helmet's headers, with the CSP's connect-src and frame-ancestors of this deployment. X-Frame-Options
 * names no list of sites: sent (DENY) only when no site may frame the page.
 */
const securityHeaders = ({ publicAddresses, operatorOrigins }: Pick<EdgeOptions, 'publicAddresses' | 'operatorOrigins'>) => helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    // The page served at `/` loads its own scripts and talks to this server and its fellow
    // processes only; plain http stays usable in development (no upgrade directive).
    directives: {
      defaultSrc: ["'self'"],
      connectSrc: connectSources(publicAddresses),
      imgSrc: ["'self'", 'data:'],
      styleSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: frameAncestors(operatorOrigins),
    },
  },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  frameguard: operatorOrigins.length === 0 ? { action: 'deny' } : false,
  referrerPolicy: { policy: 'no-referrer' },
});

/** The one way an HTTP route or the edge refuses: `{ error: { code, message } }` (the protocol's `HttpRefusal`). */
export function sendRefusal(res: ServerResponse, status: number, code: RefusalCode, message: string, details?: RefusalDetails): void {
  const refusal: HttpRefusal = { error: details ? { code, message, details } : { code, message } };
  const body = JSON.stringify(refusal);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** `"<code>: <sentence>"`, as a room refuses a join (src/rooms/refusals.ts `joinRefused`). */
const CODED_SENTENCE = /^([a-z][a-z_]*\/[a-z][a-z_]*): ([^]*)$/;

/** A code of the refusals' table (never an arbitrary string a message happens to start with). */
function isRefusalCode(code: string | undefined): code is RefusalCode {
  return code !== undefined && Object.hasOwn(REFUSALS, code);
}

/**
 * The refusal an error thrown in a route or in matchmaking stands for: an outage of the store
 * (`server/unavailable`, 503), or a refusal carried by a Colyseus `ServerError` (an HTTP status
 * and `"<code>: <sentence>"`, as `joinRefused` makes them); undefined for anything else.
 */
function refusalOfError(err: unknown): Refusal | undefined {
  if (isStoreOutage(err)) return { status: 503, code: 'server/unavailable', message: OUTAGE_SENTENCE };
  if (!(err instanceof ServerError) || typeof err.code !== 'number' || err.code < 400 || err.code > 599) return undefined;
  const [, code, message] = CODED_SENTENCE.exec(err.message) ?? [];
  return isRefusalCode(code) ? { status: err.code, code, message: message! } : undefined;
}

/**
 * What Colyseus's matchmaking route answered with an error status, as a refusal: its body is
 * `{ code, error }`, `error` our `"<code>: <sentence>"` when a room refused the join (its status
 * ours), else Colyseus's own words under its own statuses, given a code of the table here.
 */
function matchmakingRefusal(status: number, body: string): Refusal {
  let said: unknown;
  try {
    said = (JSON.parse(body) as { error?: unknown }).error;
  } catch {
    said = undefined;
  }
  const [, code, message] = typeof said === 'string' ? CODED_SENTENCE.exec(said) ?? [] : [];
  if (isRefusalCode(code)) return { status: status >= 400 && status < 520 ? status : 500, code, message: message! };
  switch (status) {
    case ErrorCode.MATCHMAKE_NO_HANDLER:
      return { status: 404, code: 'join/no_room', message: 'no room of this name' };
    case ErrorCode.MATCHMAKE_INVALID_ROOM_ID:
      return { status: 404, code: 'join/no_room', message: 'no room with this id is open: it closed, or its process stopped' };
    case ErrorCode.MATCHMAKE_INVALID_CRITERIA:
      return { status: 400, code: 'request/invalid', message: 'the matchmaking request could not be read' };
    case ErrorCode.MATCHMAKE_EXPIRED:
      return { status: 410, code: 'join/expired', message: 'the reserved seat or the reconnection token expired or was used already: join again' };
    case 503:
      // Colyseus's own answer while its process shuts down.
      return { status: 503, code: 'server/unavailable', message: 'this process is shutting down: join again' };
    case 413:
      return { status: 413, code: 'request/too_large', message: 'the request body is too large' };
    default:
      if (status < 500) return { status, code: 'request/invalid', message: 'the matchmaking request could not be read' };
      return { status: 500, code: 'server/error', message: 'the server could not match this join; try again' };
  }
}

/**
 * Colyseus's matchmaking route writes its own answers: an error one (status 400 or more) is
 * held back and answered instead as `{ error: { code, message } }`, with the Colyseus SDK's
 * `message` beside it (`"<code>: <sentence>"`, what the SDK puts in the error it throws).
 */
function answerMatchmakingErrorsInOurShape(res: ServerResponse): void {
  const { writeHead, write, end } = res;
  res.writeHead = function heldBack(this: ServerResponse, status: number, ...rest: unknown[]) {
    if (status < 400) return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    res.write = ((chunk: unknown) => (keep(chunk), true)) as typeof res.write;
    res.end = ((chunk?: unknown) => {
      keep(chunk);
      Object.assign(res, { writeHead, write, end });
      const refusal = matchmakingRefusal(status, Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message }, message: `${refusal.code}: ${refusal.message}` });
      res.removeHeader('content-length');
      res.writeHead(refusal.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      return res.end(body);
    }) as typeof res.end;
    return res;
  } as typeof res.writeHead;
}

/** Same host as the request: the page this server serves calling it back. */
function isOwnOrigin(origin: string, req: IncomingMessage): boolean {
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

function bodyRefusal(req: IncomingMessage, maxBodyBytes: number): Refusal | undefined {
  const length = req.headers['content-length'];
  if (length !== undefined) {
    if (Number(length) > maxBodyBytes) return { status: 413, code: 'request/too_large', message: `request bodies are limited to ${maxBodyBytes} bytes` };
    return undefined;
  }
  // A streamed body has no length to check before it is read: send its length.
  if (req.headers['transfer-encoding'] !== undefined && BODY_METHODS.has(req.method ?? '')) {
    return { status: 411, code: 'request/length_required', message: 'send the body with a Content-Length' };
  }
  return undefined;
}

/**
 * A reconnection token is a bearer secret in a URL (proxies log request lines), and it would
 * outrank the player's token: this server takes none. A dropped player joins the table again
 * by its id with their token in the `Authorization` header (docs/server.md, "Seats and the handshake").
 */
const RECONNECTION_BY_TOKEN: Refusal = {
  status: 403,
  code: 'auth/reconnection_token',
  message: 'reconnection tokens are not taken here: join the table again by its id, with your token',
};

/** Colyseus's reconnection: `POST /matchmake/reconnect/<roomId>`, or a WebSocket URL carrying `reconnectionToken`. */
function reconnectsByToken(req: IncomingMessage): boolean {
  const url = req.url ?? '/';
  if (url.startsWith('/matchmake/reconnect/')) return true;
  const query = url.indexOf('?');
  return query >= 0 && new URLSearchParams(url.slice(query + 1)).has('reconnectionToken');
}

/** Answers a WebSocket upgrade with a refusal, in the one JSON shape, and closes the socket. */
function refuseUpgrade(socket: Duplex, refusal: Refusal): void {
  const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message } } satisfies HttpRefusal);
  socket.end(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/**
 * Puts the edge in front of every `request` listener of `server` (Colyseus's router and the
 * express app). Call it once the server listens (Colyseus binds its routes in `listen`).
 */
export function guardHttpServer(server: HttpServer, options: EdgeOptions): void {
  // Colyseus answers CORS by echoing any Origin with credentials: the edge answers instead.
  const colyseusCors = matchMaker.controller.DEFAULT_CORS_HEADERS as Record<string, string>;
  for (const header of Object.keys(colyseusCors)) delete colyseusCors[header];
  matchMaker.controller.getCorsHeaders = () => ({});

  const allowed = new Set(options.corsOrigins);
  const headers = securityHeaders(options);
  const upgrades = server.listeners('upgrade') as ((req: IncomingMessage, socket: Duplex, head: Buffer) => void)[];
  server.removeAllListeners('upgrade');
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (reconnectsByToken(req)) return refuseUpgrade(socket, RECONNECTION_BY_TOKEN);
    for (const listener of upgrades) listener.call(server, req, socket, head);
  });
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    headers(req, res, () => {
      const origin = req.headers.origin;
      const corsAllowed = origin !== undefined && (allowed.has(origin) || isOwnOrigin(origin, req));
      if (corsAllowed) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        // The Colyseus SDK sends its requests with credentials.
        res.setHeader('Access-Control-Allow-Credentials', 'true');
      }
      res.setHeader('Vary', 'Origin');
      if (req.method === 'OPTIONS') {
        if (!corsAllowed) return sendRefusal(res, 403, 'cors/origin_not_allowed', 'this origin may not call this server');
        res.writeHead(204, {
          'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
          'Access-Control-Allow-Headers': 'Content-Type, Authorization',
          'Access-Control-Max-Age': '600',
        });
        return void res.end();
      }
      const refusal = reconnectsByToken(req) ? RECONNECTION_BY_TOKEN : bodyRefusal(req, options.maxBodyBytes);
      if (refusal) {
        // Nothing of the body is read: the connection closes after the answer.
        res.setHeader('Connection', 'close');
        sendRefusal(res, refusal.status, refusal.code, refusal.message);
        return void req.destroy();
      }
      if (req.url?.startsWith(`/${matchMaker.controller.matchmakeRoute}/`)) {
        // A seat reservation is the player's own (its session id opens the seat): never stored.
        res.setHeader('cache-control', 'no-store');
        answerMatchmakingErrorsInOurShape(res);
      }
      for (const listener of listeners) listener.call(server, req, res);
    });
  });
}

/** Express settings of the edge: before any route. */
export function prepareExpress(app: Application, trustProxy: number): void {
  app.disable('x-powered-by');
  // req.ip (the dev login's rate limit) is the client's, not the proxy's, behind `trustProxy` proxies.
  app.set('trust proxy', trustProxy);
}

/** What the body parser and routes throw, as a status, a code and a sentence. */
function describeError(err: unknown): Refusal | undefined {
  const refusal = refusalOfError(err);
  if (refusal) return refusal;
  const e = err as { type?: unknown; status?: unknown };
  switch (e?.type) {
    case 'entity.parse.failed':
      return { status: 400, code: 'request/malformed_json', message: 'the request body is not valid JSON' };
    case 'entity.too.large':
      return { status: 413, code: 'request/too_large', message: 'the request body is too large' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, code: 'request/unsupported_encoding', message: 'send the body as UTF-8 JSON' };
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return { status: e.status, code: 'request/invalid', message: 'the request could not be read' };
  }
  return undefined;
}

/** After every route: a JSON 404 and the one error handler (express's own prints stacks). */
/** An async route handler whose failure goes to the one error handler (`finishExpress`). */
export function asyncRoute(handler: (req: Request, res: Response) => Promise<void>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    handler(req, res).catch(next);
  };
}

export function finishExpress(app: Application, logError: (err: unknown) => void): void {
  app.use((_req: Request, res: Response) => {
    sendRefusal(res, 404, 'request/not_found', 'no such route');
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const known = describeError(err);
    if (!known) logError(err);
    if (res.headersSent) return void res.end();
    const { status, code, message } = known ?? { status: 500, code: 'server/error', message: 'internal error' };
    sendRefusal(res, status, code, message);
  });
}
