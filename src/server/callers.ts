/** Who calls a route: the player behind a bearer token, or the operator with its token. */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { AuthError, type Player } from '../auth/tokens';
import { sendRefusal } from './edge';
import type { Services } from './services';

/** The token of `Authorization: Bearer <token>` (a route's request, a WebSocket's upgrade). */
export function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
}

/** The player behind the request's bearer token, or an error answer (401) and undefined. */
export async function playerOf(req: Request, res: Response, services: Services): Promise<Player | undefined> {
  try {
    return await services.verifier.verify(bearer(req));
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    sendRefusal(res, 401, err.code, err.message);
    return undefined;
  }
}

export function isOperator(req: Request, services: Services): boolean {
  const expected = services.config.operatorToken;
  const given = bearer(req);
  if (!expected || !given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
