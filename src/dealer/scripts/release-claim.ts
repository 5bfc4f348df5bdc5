import type { DealerRunScript } from './commands';
import { int } from '../../redis-scripts/reply';

/** releaseClaim-1.lua: true when the claim was still `token`'s and is dropped. */
export async function releaseClaim(run: DealerRunScript, claim: string, token: string): Promise<boolean> {
  return int(await run('releaseClaim', [claim], [token])) === 1;
}
