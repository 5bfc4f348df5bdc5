import type { DealerRunScript } from './commands';
import { int, replyList } from '../../redis-scripts/reply';
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
  readonly playerId: string;
  /** The automatic withdrawal threshold in cents; undefined: off. */
  readonly withdrawalThreshold: number | undefined;
}

/**
 * creditPrize-5.lua: whether this call credited (took the unit out of play), the balance, and
 * the threshold event of this unit's credit still to relay (thresholdEvent.lua), if any.
 */
export async function creditPrize(
  run: DealerRunScript,
  keys: PlayerPurchaseKeys & { readonly journal: string; readonly requests: string; readonly archive: string },
  args: CreditPrizeArgs,
): Promise<{ credited: boolean; balance: number; event: string | undefined }> {
  const reply = replyList(
    'creditPrize',
    await run('creditPrize', [keys.wallet, keys.pending, keys.journal, keys.requests, keys.archive], [
      args.field,
      args.unitId,
      args.stake,
      args.soldAt,
      args.requestsTtlMs,
      args.prize,
      args.now,
      args.game,
      args.playerId,
      args.withdrawalThreshold ?? '',
    ]),
  );
  return { credited: int(reply[0]) === 1, balance: int(reply[1]), event: reply[2] ? String(reply[2]) : undefined };
}
