import type { DealerRunScript } from './commands';
import { int } from '../../redis-scripts/reply';
import type { PlayerPurchaseKeys } from './reserve-purchase';

/** refundPurchase-2.lua: true when the hold was released now, false when nothing was pending. */
export async function refundPurchase(
  run: DealerRunScript,
  keys: PlayerPurchaseKeys,
  args: { readonly field: string; readonly stake: number; readonly game: string },
): Promise<boolean> {
  return int(await run('refundPurchase', [keys.wallet, keys.pending], [args.field, args.stake, args.game])) === 1;
}
