import type { DealerRunScript } from './commands';
import { int, replyList } from '../../redis-scripts/reply';

/** appendLeaf-2.lua: the page's leaf as the log holds it (ours, or the one appended before) and its index. */
export async function appendLeaf(
  run: DealerRunScript,
  keys: { readonly leaves: string; readonly index: string },
  args: { readonly leafId: string; readonly leaf: string },
): Promise<{ index: number; leaf: string }> {
  const reply = replyList('appendLeaf', await run('appendLeaf', [keys.leaves, keys.index], [args.leafId, args.leaf]));
  return { index: int(reply[1]), leaf: String(reply[2]) };
}
