import type { DealerRunScript } from './commands';
import { int } from './reply';
import type { PlayerPurchaseKeys } from './reserve-purchase';

/** finishPurchase-4.lua: true when finished now, false when it was before. */
export async function finishPurchase(
  run: DealerRunScript,
  keys: PlayerPurchaseKeys & { readonly journal: string; readonly requests: string },
  args: { readonly field: string; readonly unitId: string; readonly stake: number; readonly soldAt: number; readonly requestsTtlMs: number },
): Promise<boolean> {
  const reply = await run('finishPurchase', [keys.wallet, keys.pending, keys.journal, keys.requests], [
    args.field,
    args.unitId,
    args.stake,
    args.soldAt,
    args.requestsTtlMs,
  ]);
  return int(reply) === 1;
}
