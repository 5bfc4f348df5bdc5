import type { DealerRunScript } from './commands';
import { scriptError } from '../../redis-scripts/errors';
import { int, replyList } from '../../redis-scripts/reply';

export interface SettleUnitKeys {
  readonly sales: string;
  readonly settled: string;
  readonly laneUnsettled: string;
  readonly wallet: string;
  readonly journal: string;
  readonly events: string;
  /** The archive's money stream. */
  readonly archive: string;
}

export interface SettleUnitArgs {
  readonly position: number;
  readonly unitId: string;
  readonly playerId: string;
  readonly now: number;
  readonly game: string;
  readonly stake: number;
  /** The automatic withdrawal threshold in cents; undefined: off. */
  readonly withdrawalThreshold: number | undefined;
}

/** settleUnit-7.lua. Throws `settle/unknown_unit` through the error factory. */
export async function settleUnit(
  run: DealerRunScript,
  keys: SettleUnitKeys,
  args: SettleUnitArgs,
): Promise<{ credited: boolean; prize: number; balance: number }> {
  const reply = replyList(
    'settleUnit',
    await run(
      'settleUnit',
      [keys.sales, keys.settled, keys.laneUnsettled, keys.wallet, keys.journal, keys.events, keys.archive],
      [args.position, args.unitId, args.playerId, args.now, args.game, args.stake, args.withdrawalThreshold ?? ''],
    ),
  );
  const code = int(reply[0]);
  if (code < 0) throw scriptError('settleUnit', code);
  return { credited: code === 1, prize: int(reply[1]), balance: int(reply[2]) };
}
