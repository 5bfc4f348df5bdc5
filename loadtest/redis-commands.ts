import { Redis } from 'ioredis';

/** Redis's count of the commands it ran since it started (INFO stats). */
async function commandsProcessed(redis: Redis): Promise<number> {
  const info = await redis.info('stats');
  const m = /^total_commands_processed:(\d+)/m.exec(info);
  if (!m) throw new Error('INFO stats has no total_commands_processed');
  return Number(m[1]);
}

/**
 * The commands a run's own Redis ran over the measured window: each command a server sent, and
 * each one a Lua script ran (Redis counts both), less the counter's own INFO. What a unit costs
 * Redis, told without the noise of CPU figures on a shared machine.
 */
export class RedisCommandCounter {
  private readonly redis: Redis;
  private opened: number | undefined;
  /** Commands over the window, once it closed; null before, or if Redis could not be read. */
  count: number | null = null;

  constructor(url: string) {
    this.redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    this.redis.on('error', () => undefined); // a Redis that cannot be read leaves the count null
  }

  async open(): Promise<void> {
    this.opened = await commandsProcessed(this.redis).catch(() => undefined);
  }

  async close(): Promise<void> {
    const closed = await commandsProcessed(this.redis).catch(() => undefined);
    // The INFO of `open` is counted once it has run; the one of `close`, after it answers.
    if (this.opened !== undefined && closed !== undefined) this.count = closed - this.opened - 1;
    this.redis.disconnect();
  }
}
