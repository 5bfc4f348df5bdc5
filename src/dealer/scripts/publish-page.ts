import type { PageCommitment } from '../types';
import type { DealerRunScript } from './commands';
import { int, replyList } from './reply';

/** A page record as publishPage-1.lua stores it: `<root hex>|<publishedAt>`. */
export function decodePage(page: number, record: string): PageCommitment {
  const [root, publishedAt] = record.split('|');
  return { page, root: root!, publishedAt: Number(publishedAt) };
}

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
