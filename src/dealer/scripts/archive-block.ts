import type { DealerRunScript } from './commands';
import { scriptError } from './errors';
import { int, replyList } from './reply';

export interface ArchiveBlockKeys {
  readonly info: string;
  readonly sales: string;
  readonly settled: string;
  readonly units: string;
}

/** archiveBlock-4.lua: true when archived now, false when before; throws `dealer/block_not_archivable`. */
export async function archiveBlock(run: DealerRunScript, keys: ArchiveBlockKeys, args: { readonly path: string; readonly now: number }): Promise<boolean> {
  const reply = replyList('archiveBlock', await run('archiveBlock', [keys.info, keys.sales, keys.settled, keys.units], [args.path, args.now]));
  const code = int(reply[0]);
  if (code < 0) throw scriptError('archiveBlock', code);
  return code === 1;
}
