import type { Client } from '@colyseus/core';

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

/** How often the sockets of spectators held back are checked for having caught up. */
const CATCH_UP_CHECK_MS = 100;

/** Bytes written to a client's connection and not yet sent (the `ws` socket's own count; 0 for another transport). */
function unsent(client: Client): number {
  return (client.ref as { bufferedAmount?: number } | undefined)?.bufferedAmount ?? 0;
}

/**
 * The backpressure policy for spectators: one whose socket holds more than `maxUnsent` bytes
 * not yet sent is held back — every frame meant for it is dropped (and counted) instead of
 * piling up in the process — until its socket is down to a quarter of that; then `catchUp`
 * gives it the latest of everything at once (a table's whole state, the feed's latest wins).
 * So a slow spectator costs a bounded buffer, and still receives, later and coalesced.
 */
export class Coalescing {
  private readonly held = new Set<Client>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly maxUnsent: number,
    private readonly catchUp: (client: Client) => void,
    /** Told of each frame dropped for a spectator held back (metrics). */
    private readonly coalesced: () => void = () => undefined,
  ) {}

  /** True when a frame for `client` is to be dropped: it is held back, or its socket is now over the bound. */
  holds(client: Client): boolean {
    if (!this.held.has(client)) {
      if (unsent(client) <= this.maxUnsent) return false;
      this.held.add(client);
      this.timer ??= setInterval(this.check, CATCH_UP_CHECK_MS);
    }
    this.coalesced();
    return true;
  }

  /** True while `client` is held back. */
  isHeld(client: Client): boolean {
    return this.held.has(client);
  }

  /** The client left: nothing is kept for it. */
  forget(client: Client): void {
    this.held.delete(client);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.held.clear();
  }

  private readonly check = (): void => {
    for (const client of this.held) {
      if (unsent(client) > this.maxUnsent / 4) continue;
      this.held.delete(client);
      this.catchUp(client);
    }
    if (this.held.size === 0) this.stop();
  };
}
