import { performance } from 'node:perf_hooks';
import type { RedisClient } from '../redis-scripts/loader';

/** How often the store's time is read again; between reads the process's monotonic timer carries it. */
const RESYNC_MS = 10_000;

/**
 * The one clock of every time the server stamps and the law's rules depend on (the 48 hours of
 * a raise, the rolling week, an exclusion's end, the reality check): the store's, so that every
 * process reads the same time and a process whose own clock is wrong can neither shorten a wait
 * nor sell to an excluded player (docs/responsible-gaming.md, "One clock").
 *
 * On Redis: `TIME`, read at start and every 10 s, half the round trip added; between reads the
 * time moves with `performance.now()`, a monotonic timer that a wrong or stepped wall clock does
 * not move. It never goes back: a read that finds the store behind holds the time until it
 * catches up. In memory the store is this process, and its clock is the process's.
 */
export class StoreClock {
  /** The store's time at `readAt`, in ms since the epoch. */
  private storeMs = 0;
  private readAt = 0;
  private last = 0;
  private timer: NodeJS.Timeout | undefined;

  private constructor(private readonly redis: RedisClient | undefined) {}

  /** The clock of a store on `redis`, or of the memory store (the process's) when none. */
  static of(redis: RedisClient | undefined): StoreClock {
    return new StoreClock(redis);
  }

  /** Reads the store's time, then again every 10 s until stopped (a failed read keeps the last one). */
  async start(): Promise<void> {
    if (!this.redis) return;
    await this.read();
    this.timer = setInterval(() => void this.read().catch(() => undefined), RESYNC_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Now, in ms since the epoch, by the store's clock. */
  readonly now = (): number => {
    const now = this.redis ? Math.floor(this.storeMs + performance.now() - this.readAt) : Date.now();
    this.last = Math.max(this.last, now);
    return this.last;
  };

  private async read(): Promise<void> {
    const sentAt = performance.now();
    const [seconds, micros] = await this.redis!.time();
    const receivedAt = performance.now();
    this.storeMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) + (receivedAt - sentAt) / 2;
    this.readAt = receivedAt;
  }
}
