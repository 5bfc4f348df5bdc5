import { z } from 'zod';
import { AuthError, type Player, type TokenVerifier } from '../auth/tokens';
import { GAME_IDS, type Refusal } from '../games/types';
import type { RefusalCode } from '../protocol/refusals';
import type { ActRequest, BuyRequest, HistoryRequest, RecallRequest, TableOptions, UncoveredRequest, WatchersRequest } from '../protocol/table';
import { joinRefused, malformed } from './refusals';

/** What a client sends to a table: the protocol's shapes (src/protocol/table.ts), each checked whole. */
export const TABLE_MESSAGES = {
  create: z.object({ game: z.enum(GAME_IDS) }) satisfies z.ZodType<TableOptions>,
  buy: z.object({ stake: z.number().int(), requestId: z.string(), picks: z.unknown().optional() }).strict() satisfies z.ZodType<BuyRequest>,
  act: z.object({ action: z.unknown(), unitId: z.string().max(200).optional() }).strict() satisfies z.ZodType<ActRequest>,
  history: z.object({ offset: z.number().int().min(0).max(1_000_000).default(0), limit: z.number().int().min(1).max(100).default(20) }).strict() satisfies z.ZodType<HistoryRequest>,
  recall: z.object({ unitId: z.string().min(1).max(200) }).strict() satisfies z.ZodType<RecallRequest>,
  watchers: z.object({ open: z.boolean() }).strict() satisfies z.ZodType<WatchersRequest>,
  uncovered: z.object({ unitId: z.string().min(1).max(200), steps: z.number().int().min(1).max(1_000_000) }).strict() satisfies z.ZodType<UncoveredRequest>,
};

/** `message` as `schema` says, or the refusal `<code>` naming the first problem. */
export function parseMessage<T>(schema: z.ZodType<T>, code: RefusalCode, message: unknown): { ok: true; value: T } | Refusal {
  const parsed = schema.safeParse(message);
  return parsed.success ? { ok: true, value: parsed.data } : malformed(code, parsed.error);
}

/** Who joins a table: a player, by their token (watchers join a watch room, ./watch-room.ts). */
export async function authenticate(verifier: TokenVerifier, token: string, options: { token?: unknown } | undefined): Promise<Player> {
  try {
    return await verifier.verify(token || options?.token);
  } catch (err) {
    if (err instanceof AuthError) throw joinRefused(401, err.code, err.message);
    throw err;
  }
}
