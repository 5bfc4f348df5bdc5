import type { DealerRunScript } from './commands';
import { int } from '../../redis-scripts/reply';
import type { PlayerPurchaseKeys } from './reserve-purchase';

/** finishPurchase-5.lua: true when finished now, false when it was before. */
export async function finishPurchase(
  run: DealerRunScript,
  keys: PlayerPurchaseKeys & { readonly journal: string; readonly requests: string; readonly archive: string },
  args: { readonly field: string; readonly unitId: string; readonly stake: number; readonly soldAt: number; readonly requestsTtlMs: number; readonly playerId: string },
): Promise<boolean> {
  const reply = await run('finishPurchase', [keys.wallet, keys.pending, keys.journal, keys.requests, keys.archive], [
    args.field,
    args.unitId,
    args.stake,
    args.soldAt,
    args.requestsTtlMs,
    args.playerId,
  ]);
  return int(reply) === 1;
}
