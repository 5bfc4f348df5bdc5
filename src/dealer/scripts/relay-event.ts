import type { DealerRunScript } from './commands';
import { int } from '../../redis-scripts/reply';

/** relayEvent-2.lua: whether the event was added now (false: relayed before). */
export async function relayEvent(
  run: DealerRunScript,
  keys: { readonly events: string; readonly relayed: string },
  args: { readonly key: string; readonly event: string; readonly relayedTtlMs: number },
): Promise<boolean> {
  return int(await run('relayEvent', [keys.events, keys.relayed], [args.key, args.event, args.relayedTtlMs])) === 1;
}
