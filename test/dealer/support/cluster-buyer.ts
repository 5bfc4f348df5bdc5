import { isStoreOutage } from '../../../src/dealer/outage';
import type { RedisStore } from '../../../src/dealer/redis/store';
import type { PurchaseResult } from '../../../src/dealer/types';
import { TEN_UNIT_TABLE } from './test-tables';

/** Tries a buyer makes before giving up (a failover on a loaded machine takes seconds). */
const MAX_TRIES = 600;
const RETRY_AFTER_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Buys a unit of the 10-unit table with one request id until answered, as a client retries
 * `server/unavailable`; a failure that is not an outage is thrown at once.
 */
export async function buyUntilAnswered(store: RedisStore, playerId: string, requestId: string, now: number): Promise<{ result: PurchaseResult; outages: number }> {
  let outages = 0;
  for (;;) {
    try {
      return { result: await store.sales.purchase({ playerId, requestId, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now }), outages };
    } catch (err) {
      if (!isStoreOutage(err)) throw err;
      outages++;
      if (outages >= MAX_TRIES) throw new Error(`purchase ${requestId} still failing after ${outages} tries: ${(err as Error).message}`);
      await sleep(RETRY_AFTER_MS);
    }
  }
}
