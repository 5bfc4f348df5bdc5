import type { DealerRunScript } from './commands';
import type { ScriptArg } from '../../redis-scripts/loader';
import { int } from '../../redis-scripts/reply';

/** An entry of a player's archive stream as XRANGE gives it: its id and its fields (name, value, …). */
export type StreamEntry = readonly [id: string, fields: readonly string[]];

/** relayArchive-3.lua: how many of `entries` the shard's stream took now (the others it had). */
export async function relayArchive(
  run: DealerRunScript,
  keys: { readonly stream: string; readonly marks: string; readonly previousMarks: string },
  args: { readonly playerId: string; readonly marksTtlMs: number; readonly entries: readonly StreamEntry[] },
): Promise<number> {
  const argv: ScriptArg[] = [args.playerId, args.marksTtlMs];
  for (const [id, fields] of args.entries) argv.push(id, fields.length, ...fields);
  return int(await run('relayArchive', [keys.stream, keys.marks, keys.previousMarks], argv));
}
