import type { DealerRunScript } from './commands';
import { scriptError } from '../../redis-scripts/errors';
import { int } from '../../redis-scripts/reply';
import { unitResult, type PurchaseUnitsResult, type LaneKeysForPurchase } from './purchase-units';

export interface DealtPurchase {
  readonly playerId: string;
  readonly requestId: string;
  /** The purchase's time (the reservation's, on a retry). */
  readonly now: number;
  readonly picks: string;
  /** The reservation's available balance before the stake. */
  readonly balanceBefore: number;
  /** Whether a lane that passed this request on before answers so (`dealer/lane_passed`), or deals it. */
  readonly passMarked: boolean;
}

/**
 * dealUnits-5.lua: the lane's step of a batch of reserved purchases. Results as
 * purchaseUnits's, without the wallet's refusals; `balanceBefore` of a unit dealt is the
 * reservation's.
 */
export async function dealUnits(
  run: DealerRunScript,
  keys: Omit<LaneKeysForPurchase, 'archive'>,
  batch: { readonly stake: number; readonly requestsTtlMs: number },
  purchases: readonly DealtPurchase[],
): Promise<PurchaseUnitsResult> {
  const args: (string | number)[] = [batch.stake, batch.requestsTtlMs];
  for (const p of purchases) args.push(p.playerId, p.requestId, p.now, p.picks, p.balanceBefore, p.passMarked ? '1' : '0');
  const reply = await run('dealUnits', [keys.current, keys.base, keys.laneUnsettled, keys.requests, keys.previousRequests], args);
  if (!Array.isArray(reply) || reply.length !== purchases.length + 2) throw scriptError('dealUnits', Number.NaN);
  const opened = int(reply[1]);
  return {
    emissionId: String(reply[0]),
    openedIndex: opened >= 0 ? opened : undefined,
    results: reply.slice(2).map((r: unknown, i) => unitResult('dealUnits', r, purchases[i]!.balanceBefore)),
  };
}
