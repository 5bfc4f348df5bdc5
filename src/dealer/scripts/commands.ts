import { defineScripts, type RedisClient, type RunScript } from '../../redis-scripts/loader';

/** The dealer's scripts (src/dealer/lua). */
export type DealerScriptName =
  | 'openEmission'
  | 'storeBlock'
  | 'purchaseUnits'
  | 'settleUnit'
  | 'deposit'
  | 'withdraw'
  | 'offloadBlock'
  | 'publishPage'
  | 'releaseClaim'
  | 'appendLeaf'
  // The cluster's purchase and settlement, one slot per step (docs/dealer.md).
  | 'reservePurchase'
  | 'dealUnits'
  | 'finishPurchase'
  | 'refundPurchase'
  | 'settleSale'
  | 'creditPrize'
  | 'relayEvent'
  | 'relayArchive'
  | 'forgetPending';
export type DealerRunScript = RunScript<DealerScriptName>;

const DEALER_LUA = new URL('../lua/', import.meta.url);

export function defineDealerScripts(redis: RedisClient): DealerRunScript {
  return defineScripts<DealerScriptName>(redis, DEALER_LUA, 'dealer');
}
