import { DealerKeys } from '../dealer/redis/store';
import { defineScripts, type RedisClient, type RunScript } from '../redis-scripts/loader';
import { scriptError } from '../redis-scripts/errors';
import { int, replyList } from '../redis-scripts/reply';
import { parseUnitId } from '../ids';
import { offloadedActions, type ActionLog, type LoggedAction } from './action-log';

type ActionScriptName = 'appendAction';
/** Logs dropped at once when offloading (one DEL each: each log has its own slot on a cluster). */
const DELETE_BATCH = 1_000;

/**
 * Action logs in Redis: one list per unit (`DealerKeys.actions`), appended by
 * `appendAction-1.lua` through the project's one script loader and error factory.
 */
export class RedisActionLog implements ActionLog {
  private readonly keys: DealerKeys;
  private readonly run: RunScript<ActionScriptName>;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.keys = new DealerKeys(prefix);
    this.run = defineScripts<ActionScriptName>(redis, new URL('./lua/', import.meta.url), 'units');
  }

  async append(unitId: string, expectedLength: number, entry: LoggedAction): Promise<boolean> {
    const reply = replyList('appendAction', await this.run('appendAction', [this.keys.actions(unitId)], [expectedLength, JSON.stringify(entry)]));
    const code = int(reply[0]);
    if (code !== 0 && code !== 1) throw scriptError('appendAction', code);
    return code === 1;
  }

  async read(unitId: string): Promise<LoggedAction[]> {
    // Both at once: an empty log is either a unit not played yet or one offloaded.
    const [items, offloadedTo] = await Promise.all([
      this.redis.lrange(this.keys.actions(unitId), 0, -1),
      this.redis.hget(this.keys.offloadedBlocks, parseUnitId(unitId)?.blockId ?? ''),
    ]);
    if (items.length === 0) return (await offloadedActions(offloadedTo, unitId)) ?? [];
    return items.map((item) => JSON.parse(item) as LoggedAction);
  }

  async offload(blockId: string, path: string, unitIds: readonly string[]): Promise<void> {
    await this.redis.hset(this.keys.offloadedBlocks, blockId, path);
    for (let i = 0; i < unitIds.length; i += DELETE_BATCH) {
      await Promise.all(unitIds.slice(i, i + DELETE_BATCH).map((id) => this.redis.del(this.keys.actions(id))));
    }
  }

  async close(): Promise<void> {}
}
