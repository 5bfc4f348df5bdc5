import type { DealerRunScript } from './commands';
import { scriptError } from '../../redis-scripts/errors';
import { blockArgs, type PrintedForRedis } from './open-emission';
import { int, replyList } from '../../redis-scripts/reply';

export interface StoreBlockKeys {
  readonly emission: string;
  readonly base: string;
}

/** storeBlock-2.lua: true when stored, false when that block was printed already. */
export async function storeBlock(
  run: DealerRunScript,
  keys: StoreBlockKeys,
  args: { readonly emissionId: string; readonly index: number; readonly block: PrintedForRedis; readonly now: number },
): Promise<boolean> {
  const reply = replyList(
    'storeBlock',
    await run('storeBlock', [keys.emission, keys.base], [args.emissionId, args.index, ...blockArgs(args.block), args.now]),
  );
  const code = int(reply[0]);
  if (code < 0) throw scriptError('storeBlock', code, { emissionId: args.emissionId, index: args.index });
  return code === 1;
}
