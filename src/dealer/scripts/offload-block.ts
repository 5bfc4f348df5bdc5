import type { DealerRunScript } from './commands';
import { scriptError } from '../../redis-scripts/errors';
import { int, replyList } from '../../redis-scripts/reply';

export interface OffloadBlockKeys {
  readonly info: string;
  readonly sales: string;
  readonly settled: string;
  readonly units: string;
}

/** offloadBlock-4.lua: true when offloaded now, false when before; throws `dealer/block_not_offloadable`. */
export async function offloadBlock(run: DealerRunScript, keys: OffloadBlockKeys, args: { readonly path: string; readonly now: number }): Promise<boolean> {
  const reply = replyList('offloadBlock', await run('offloadBlock', [keys.info, keys.sales, keys.settled, keys.units], [args.path, args.now]));
  const code = int(reply[0]);
  if (code < 0) throw scriptError('offloadBlock', code);
  return code === 1;
}
