import { isStoreOutage, OUTAGE_SENTENCE } from '../dealer/outage';
import { refuse, type Refusal } from '../games/types';

/**
 * Runs a room's tasks one at a time, in the order they came. A task that fails answers a
 * refusal instead, so no rejection escapes a message handler: `server/unavailable` when the store
 * could not be reached (retry in a moment), `server/error` (logged) for anything else.
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly logError: (err: unknown) => void) {}

  run<T>(task: () => Promise<T>): Promise<T | Refusal> {
    const next = this.tail.then(task).catch((err: unknown): Refusal => {
      if (isStoreOutage(err)) return refuse('server/unavailable', `${OUTAGE_SENTENCE} (a purchase with the same requestId)`);
      this.logError(err);
      return refuse('server/error', 'the server could not do this; try again');
    });
    this.tail = next;
    return next;
  }

  /** Resolves once every task queued so far is done. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
