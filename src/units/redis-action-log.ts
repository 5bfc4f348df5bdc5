import type { Redis } from 'ioredis';
import { DealerKeys } from '../dealer/keys';
import { defineScripts, type RunScript } from '../dealer/scripts/commands';
import { scriptError } from '../dealer/scripts/errors';
import { int, replyList } from '../dealer/scripts/reply';
import type { ActionLog, LoggedAction } from './action-log';

type ActionScriptName = 'appendAction';

/**
 * Action logs in Redis: one list per unit (`DealerKeys.actions`), appended by
 * `appendAction-1.lua` through the project's one script loader and error factory.
 */
export class RedisActionLog implements ActionLog {
  private readonly keys: DealerKeys;
  private readonly run: RunScript<ActionScriptName>;

  constructor(
    private readonly redis: Redis,
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
    const items = await this.redis.lrange(this.keys.actions(unitId), 0, -1);
    return items.map((item) => JSON.parse(item) as LoggedAction);
  }

  async close(): Promise<void> {}
}
