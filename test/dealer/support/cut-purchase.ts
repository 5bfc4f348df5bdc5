import { strict as assert } from 'node:assert';
import { IDEMPOTENCY_WINDOW_MS } from '../../../src/dealer/identifiers';
import { gamePrice } from '../../../src/ids';
import type { RedisStore } from '../../../src/dealer/redis/store';
import { defineDealerScripts } from '../../../src/dealer/scripts/commands';
import { type RedisClient } from '../../../src/redis-scripts/loader';
import { dealUnits, type DealtPurchase } from '../../../src/dealer/scripts/deal-units';
import type { PurchaseUnitsResult } from '../../../src/dealer/scripts/purchase-units';
import { reservePurchase } from '../../../src/dealer/scripts/reserve-purchase';
import { TEN_UNIT_TABLE } from './test-tables';

const GAME = TEN_UNIT_TABLE.game;
const STAKE = TEN_UNIT_TABLE.stake;

/**
 * What a process that died right after a per-slot purchase's first step (the hold) left
 * behind: the player in the pending index, the stake held, the purchase pending.
 */
export async function reserveThenDie(store: RedisStore, client: RedisClient, playerId: string, requestId: string, now: number): Promise<void> {
  const player = store.keys.player(playerId);
  const window = Math.floor(now / IDEMPOTENCY_WINDOW_MS);
  await client.zadd(store.keys.pendingIndex(store.keys.pendingShard(playerId)), 'GT', now, playerId);
  const held = await reservePurchase(
    defineDealerScripts(client),
    { wallet: player.wallet, pending: player.pending, requests: player.requests(window), previousRequests: player.requests(window - 1) },
    { gamePrice: gamePrice(GAME, STAKE), requestId, stake: STAKE, game: GAME, now, picks: '', boughtTogether: [requestId], protection: '', fundedByOperator: false },
  );
  assert.equal(held.kind, 'held');
}

/** The sequence's step of a per-slot purchase on one lane (dealUnits-5.lua), as a dealer runs it. */
export function dealOnLane(store: RedisStore, client: RedisClient, lane: number, purchase: DealtPurchase): Promise<PurchaseUnitsResult> {
  const sequence = store.keys.lane(GAME, STAKE, lane);
  const window = Math.floor(purchase.now / IDEMPOTENCY_WINDOW_MS);
  return dealUnits(
    defineDealerScripts(client),
    { current: sequence.current, base: sequence.base, laneUnsettled: sequence.unsettled, requests: sequence.requests(window), previousRequests: sequence.requests(window - 1) },
    { stake: STAKE, requestsTtlMs: IDEMPOTENCY_WINDOW_MS },
    [purchase],
  );
}
