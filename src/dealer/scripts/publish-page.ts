import { decodePage } from '../records';
import type { PageCommitment } from '../types';
import type { DealerRunScript } from './commands';
import { int, replyList } from '../../redis-scripts/reply';

/** publishPage-1.lua: the page's commitment as stored (ours, or the one published before). */
export async function publishPage(
  run: DealerRunScript,
  keys: { readonly pages: string },
  args: { readonly page: number; readonly root: string; readonly now: number },
): Promise<PageCommitment> {
  const reply = replyList('publishPage', await run('publishPage', [keys.pages], [args.page, args.root, args.now]));
  int(reply[0]);
  return decodePage(args.page, String(reply[1]));
}
