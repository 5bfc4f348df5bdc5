import type { DealerRunScript } from './commands';
import { scriptError, type DealerScriptError } from '../../redis-scripts/errors';
import { protectionReply } from '../../protection/refusal-reply';
import { int, replyList } from '../../redis-scripts/reply';

export interface LaneKeysForPurchase {
  readonly current: string;
  readonly base: string;
  readonly laneUnsettled: string;
  /** The request ids of this idempotency window, and of the one before. */
  readonly requests: string;
  readonly previousRequests: string;
  /** The archive's money stream. */
  readonly archive: string;
}

export interface BatchArgs {
  readonly stake: number;
  readonly game: string;
  /** Time to live of this window's request ids, in ms. */
  readonly requestsTtlMs: number;
  /** The operator's wallet holds the money (seamless): no balance check (RedisStoreOptions.fundedByOperator). */
  readonly fundedByOperator: boolean;
}

export interface BatchedPurchase {
  readonly wallet: string;
  readonly journal: string;
  readonly playerId: string;
  readonly requestId: string;
  readonly now: number;
  readonly picks: string;
  /** Request ids bought together, this one's among them; empty: no finish-first check. */
  readonly boughtTogether: readonly string[];
  /** `PurchaseRequest.protection` as the scripts take it (`protectionArg`). */
  readonly protection: string;
}

export type PurchaseUnitResult =
  /** Sold in the batch's emission; the prize is the tier's, the balance after is before − stake. */
  | {
      readonly kind: 'sold';
      readonly index: number;
      readonly position: number;
      readonly tierId: number;
      readonly balanceBefore: number;
    }
  | { readonly kind: 'repeated'; readonly unitId: string }
  /**
   * From the error factory: `purchase/unknown_game`, `purchase/game_closed`,
   * `purchase/insufficient_funds` (with the balance), `purchase/unfinished_unit`, a refusal for
   * the player's protection (`limit/…`, `protection/…`, with `detail.protection`), or
   * `dealer/next_block_not_printed` (with the emission and index of the block to print).
   */
  | { readonly kind: 'refused'; readonly error: DealerScriptError };

export interface PurchaseUnitsResult {
  readonly emissionId: string;
  /** The last block the batch opened (the one after it is to be printed), or undefined. */
  readonly openedIndex: number | undefined;
  /** One per purchase, in order. */
  readonly results: readonly PurchaseUnitResult[];
}

/**
 * One purchase's result in a reply of `script` (purchaseUnits or dealUnits, which gives no
 * balance: `balanceBefore` then).
 */
export function unitResult(script: string, reply: unknown, balanceBefore?: number): PurchaseUnitResult {
  const list = replyList(script, reply);
  const code = int(list[0]);
  switch (code) {
    case 1:
      return { kind: 'sold', index: int(list[1]), position: int(list[2]), tierId: int(list[3]), balanceBefore: balanceBefore ?? int(list[4]) };
    case 2:
      return { kind: 'repeated', unitId: String(list[1]) };
    case -3:
      return { kind: 'refused', error: scriptError(script, code, { balance: int(list[1]) }) };
    case -4:
      return { kind: 'refused', error: scriptError(script, code, { emissionId: String(list[1]), index: int(list[2]) }) };
    default: {
      const protection = protectionReply(list);
      return { kind: 'refused', error: scriptError(script, code, protection ? { protection } : {}) };
    }
  }
}

/** purchaseUnits.lua: a batch of purchases on one lane, each with its own result. */
export async function purchaseUnits(
  run: DealerRunScript,
  keys: LaneKeysForPurchase,
  batch: BatchArgs,
  purchases: readonly BatchedPurchase[],
): Promise<PurchaseUnitsResult> {
  const keyList = [keys.current, keys.base, keys.laneUnsettled, keys.requests, keys.previousRequests, keys.archive];
  const args: (string | number)[] = [batch.stake, batch.game, batch.requestsTtlMs, batch.fundedByOperator ? '1' : ''];
  for (const p of purchases) {
    keyList.push(p.wallet, p.journal);
    args.push(p.playerId, p.requestId, p.now, p.picks, p.boughtTogether.join(','), p.protection);
  }
  const reply = await run('purchaseUnits', keyList, args);
  if (!Array.isArray(reply) || reply.length !== purchases.length + 2) throw scriptError('purchaseUnits', Number.NaN);
  const opened = int(reply[1]);
  return { emissionId: String(reply[0]), openedIndex: opened >= 0 ? opened : undefined, results: reply.slice(2).map((r: unknown) => unitResult('purchaseUnits', r)) };
}

/** `PurchaseRequest.protection` as the scripts take it: `<reality check ms>|<session idle ms>`, '' for none. */
export function protectionArg(settings: { readonly realityCheckMs: number; readonly sessionIdleMs: number } | undefined): string {
  return settings ? `${settings.realityCheckMs}|${settings.sessionIdleMs}` : '';
}
