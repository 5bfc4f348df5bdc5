/** Frames sent per turn of the event loop when one event goes out to many spectators. */
const FANOUT_SLICE = 100;

/**
 * Sends queued frames in order, `FANOUT_SLICE` per turn of the event loop, so that a thousand
 * spectators neither delay a player's reply nor hold up the other rooms of the process (and
 * their clients, often in one process too, do not get a thousand frames at once).
 */
export class SlicedSender {
  private readonly queue: (() => void)[] = [];
  private draining = false;

  /** Queues a frame; nothing goes out before `flush`. */
  push(send: () => void): void {
    this.queue.push(send);
  }

  /** Starts sending what is queued, from the next turn of the event loop. */
  flush(): void {
    if (this.queue.length === 0 || this.draining) return;
    this.draining = true;
    setImmediate(this.drain);
  }

  private readonly drain = (): void => {
    for (const send of this.queue.splice(0, FANOUT_SLICE)) send();
    if (this.queue.length > 0) setImmediate(this.drain);
    else this.draining = false;
  };
}
