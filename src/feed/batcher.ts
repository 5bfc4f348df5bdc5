/**
 * Hands items on in batches, at most one batch per `intervalMs`, with a leading edge: an item
 * arriving when no batch went out during the last interval goes at once, alone; items arriving
 * within the interval are gathered and go together when it ends. With 0, every item goes at
 * once, alone. One timer at most, a plain one: a room's clock may tick coarsely.
 */
export class Batcher<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastSentAt = -Infinity;

  constructor(
    private readonly intervalMs: number,
    private readonly send: (batch: T[]) => void,
  ) {}

  add(item: T): void {
    this.pending.push(item);
    if (this.timer) return;
    const wait = this.lastSentAt + this.intervalMs - performance.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Drops what is waiting: nothing is sent after this (the room is going away). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
  }

  private flush(): void {
    const batch = this.pending;
    this.timer = undefined;
    this.pending = [];
    this.lastSentAt = performance.now();
    this.send(batch);
  }
}
