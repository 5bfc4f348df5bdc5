import type { DealerRunScript } from './commands';
import { int, replyList } from './reply';
import type { PlayerPurchaseKeys } from './reserve-purchase';

export interface CreditPrizeArgs {
  /** `<game>:<stake>|<requestId>` of the purchase. */
  readonly field: string;
  readonly unitId: string;
  readonly stake: number;
  readonly soldAt: number;
  readonly requestsTtlMs: number;
  readonly prize: number;
  readonly now: number;
  readonly game: string;
}

/** creditPrize-4.lua: whether this call credited (took the unit out of play), and the balance. */
export async function creditPrize(
  run: DealerRunScript,
  keys: PlayerPurchaseKeys & { readonly journal: string; readonly requests: string },
  args: CreditPrizeArgs,
): Promise<{ credited: boolean; balance: number }> {
  const reply = replyList(
    'creditPrize',
    await run('creditPrize', [keys.wallet, keys.pending, keys.journal, keys.requests], [
      args.field,
      args.unitId,
      args.stake,
      args.soldAt,
      args.requestsTtlMs,
      args.prize,
      args.now,
      args.game,
    ]),
  );
  return { credited: int(reply[0]) === 1, balance: int(reply[1]) };
}
