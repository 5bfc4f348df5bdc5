import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import type { ActionLog, LoggedAction } from './action-log';

const APPEND_ACTION = readFileSync(new URL('./lua/appendAction-1.lua', import.meta.url), 'utf8');

type AppendActionCommand = (key: string, expectedLength: number, entry: string) => Promise<number>;

/** Action logs in Redis: one list per unit, appended by `appendAction-1.lua`. */
export class RedisActionLog implements ActionLog {
  private readonly appendAction: AppendActionCommand;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('appendAction', { numberOfKeys: 1, lua: APPEND_ACTION });
    const command = (redis as unknown as { appendAction: AppendActionCommand }).appendAction;
    this.appendAction = command.bind(redis);
  }

  private key(unitId: string): string {
    return `${this.prefix}:actions:{${unitId}}`;
  }

  async append(unitId: string, expectedLength: number, entry: LoggedAction): Promise<boolean> {
    const result = await this.appendAction(this.key(unitId), expectedLength, JSON.stringify(entry));
    return result === 1;
  }

  async read(unitId: string): Promise<LoggedAction[]> {
    const items = await this.redis.lrange(this.key(unitId), 0, -1);
    return items.map((item) => JSON.parse(item) as LoggedAction);
  }

  async close(): Promise<void> {}
}
