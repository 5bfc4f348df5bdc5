import { GAME_IDS, type GameId } from './games/types';

/**
 * The names of emissions, blocks, units, players and requests, one rule each, shared by the
 * stores, the rooms and the routes. A block is `${emissionId}.${index}`, a unit
 * `${blockId}:${position}`; the emission id's alphabet has neither `.` nor `:`, so both parse
 * back unambiguously.
 */

export const EMISSION_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PLAYER_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
/**
 * Request ids, one rule. A client names its purchase with 1–48 of [A-Za-z0-9_]
 * (`isClientRequestId`); each unit bought gets its own request id derived from it
 * (`unitRequestIds`): the client's id itself for one unit, `<id>-<i>` for each of several (the
 * lamp's two units: `<id>-0`, `<id>-1`). A client's id has no '-', so a derived id never equals a
 * client's: a retry of one purchase cannot name another purchase's unit. The dealer takes both
 * forms, and its own callers' ids (benchmarks, proofs): 1–64 of [A-Za-z0-9_-] (`REQUEST_ID`).
 */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9_]{1,48}$/;
export const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Deposit references come from the wallet side: a little wider than request ids. */
export const DEPOSIT_REF = /^[A-Za-z0-9_.:-]{1,128}$/;
const BLOCK_ID = /^([A-Za-z0-9_-]{1,64})\.(0|[1-9][0-9]{0,8})$/;
const UNIT_ID = /^([A-Za-z0-9_-]{1,64})\.(0|[1-9][0-9]{0,8}):(0|[1-9][0-9]{0,9})$/;

export function blockIdOf(emissionId: string, index: number): string {
  return `${emissionId}.${index}`;
}

export function unitIdOf(blockId: string, position: number): string {
  return `${blockId}:${position}`;
}

/**
 * A game at a price, `<game>:<stake>`: the one emission selling there at a time is named so in
 * the Redis keys, the emissions' index, the idempotency records and the memory store's maps.
 */
export function gamePrice(game: string, stake: number): string {
  return `${game}:${stake}`;
}

export interface BlockRef {
  readonly emissionId: string;
  readonly index: number;
  readonly blockId: string;
}

export interface UnitRef extends BlockRef {
  readonly position: number;
}

export function parseBlockId(blockId: string): BlockRef | undefined {
  const m = BLOCK_ID.exec(blockId);
  return m ? { emissionId: m[1]!, index: Number(m[2]), blockId } : undefined;
}

export function parseUnitId(unitId: string): UnitRef | undefined {
  const m = UNIT_ID.exec(unitId);
  if (!m) return undefined;
  return { emissionId: m[1]!, index: Number(m[2]), blockId: blockIdOf(m[1]!, Number(m[2])), position: Number(m[3]) };
}

export function isGameId(game: string): game is GameId {
  return (GAME_IDS as readonly string[]).includes(game);
}

export function isPlayerId(playerId: unknown): playerId is string {
  return typeof playerId === 'string' && PLAYER_ID.test(playerId);
}

/** Whether a client may name its purchase so (the request ids' rule, above). */
export function isClientRequestId(requestId: string): boolean {
  return CLIENT_REQUEST_ID.test(requestId);
}

/** The request ids of the `units` units a client's purchase `requestId` buys (the request ids' rule, above). */
export function unitRequestIds(requestId: string, units: number): string[] {
  return units === 1 ? [requestId] : Array.from({ length: units }, (_, i) => `${requestId}-${i}`);
}
