import { ServerError, type Client, type MessageContext } from '@colyseus/core';
import type { z } from 'zod';
import { isStoreOutage, OUTAGE_SENTENCE } from '../dealer/outage';
import { refuse, type Refusal } from '../games/types';
import type { RefusalCode, RefusalMessage } from '../protocol/refusals';
import type { TableMessages } from '../protocol/table';

/** Whatever a spectator sends, at a table or on the feed. */
export function readOnly(what: string): Refusal {
  return refuse('spectator/read_only', `${what} is read-only for spectators: watch, do not send`);
}

/** A message that does not parse: the first problem, and where it is. */
export function malformed(code: RefusalCode, error: z.ZodError): Refusal {
  const issue = error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return refuse(code, `${issue?.message ?? 'invalid message'}${where}`);
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

/**
 * Every refusal reaches the client that caused it: as the rejection of its request
 * (`room.request`), or as a `refused` message `{ code, message }` for a plain `room.send`.
 */
export function answerRefusal(client: Client, ctx: MessageContext | undefined, refusal: Refusal): unknown {
  const reason: RefusalMessage = refusal.details ? { code: refusal.code, message: refusal.message, details: refusal.details } : { code: refusal.code, message: refusal.message };
  if (ctx?.id !== undefined) return ctx.reject(reason);
  client.send('refused', reason satisfies TableMessages['refused']);
  return undefined;
}

/** A join refused at matchmaking: the client's error carries `<code>: <sentence>` and `status`. */
export function joinRefused(status: number, code: RefusalCode, message: string): ServerError {
  return new ServerError(status, `${code}: ${message}`);
}

/**
 * An outage of the store met by matchmaking (Colyseus's presence or room listing) as a refused
 * join, `server/unavailable` (503), instead of the Redis client's own words; other errors as
 * they are.
 */
export function outageAsRefusal(err: unknown): unknown {
  return isStoreOutage(err) ? joinRefused(503, 'server/unavailable', OUTAGE_SENTENCE) : err;
}
