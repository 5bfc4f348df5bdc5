import type { DealerRunScript } from './commands';
import { int } from '../../redis-scripts/reply';

/** forgetPending-1.lua: true when the player left the shard. */
export async function forgetPending(run: DealerRunScript, shard: string, args: { readonly playerId: string; readonly upTo: number }): Promise<boolean> {
  return int(await run('forgetPending', [shard], [args.playerId, args.upTo])) === 1;
}
