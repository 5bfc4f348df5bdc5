import type { DealerRunScript } from './commands';
import { scriptError } from '../../redis-scripts/errors';
import { int, replyList } from '../../redis-scripts/reply';

/** settleSale-3.lua: whether settled now, and the prize. Throws `settle/unknown_unit`. */
export async function settleSale(
  run: DealerRunScript,
  keys: { readonly sales: string; readonly settled: string; readonly laneUnsettled: string },
  args: { readonly position: number; readonly unitId: string; readonly playerId: string; readonly now: number },
): Promise<{ settledNow: boolean; prize: number }> {
  const reply = replyList(
    'settleSale',
    await run('settleSale', [keys.sales, keys.settled, keys.laneUnsettled], [args.position, args.unitId, args.playerId, args.now]),
  );
  const code = int(reply[0]);
  if (code < 0) throw scriptError('settleSale', code);
  return { settledNow: code === 1, prize: int(reply[1]) };
}
