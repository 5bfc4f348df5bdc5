import type { PurchaseRequest, PurchaseResult, SettleResult } from '../types';
import type { ArchiveRelay } from './archive-relay';
import type { EmissionCatalog } from './catalog';
import type { RedisContext } from './context';
import type { RedisEmissions } from './emissions';
import type { RedisPages } from './pages';
import type { RedisProtections } from './protection';
import type { BlockPrinter } from './printer';
import type { FoundSale, SaleReader } from './sale-reader';

/**
 * How a purchase and a settlement change a lane and a wallet on Redis (docs/dealer.md), chosen
 * once when the store is made: `OneScriptPurchase` (one script over both: they share one
 * Redis) or `PerSlotPurchase` (one idempotent script per slot, re-driven by request id: a
 * Redis Cluster).
 */
export interface PurchaseProtocol {
  /** A purchase whose request is well formed (`checkPurchaseRequest`). */
  purchase(request: PurchaseRequest): Promise<PurchaseResult>;
  /** Settles a sale found in Redis (not offloaded); throws `settle/unknown_unit` from the scripts. */
  settle(found: FoundSale, now: number): Promise<SettleResult>;
  /**
   * Drives to their end the purchases reserved at or before `olderThan` and still pending
   * (their process died between steps); how many it drove. Nothing to do for one script.
   */
  recoverPurchases(olderThan: number): Promise<number>;
}

/** The parts of the Redis store a protocol deals through. */
export interface ProtocolParts {
  readonly ctx: RedisContext;
  readonly catalog: EmissionCatalog;
  readonly emissions: RedisEmissions;
  readonly printer: BlockPrinter;
  readonly pages: RedisPages;
  readonly sales: SaleReader;
  readonly protections: RedisProtections;
  /** The archive entries' relay from the players' slots to the archive's shards (per-slot protocol). */
  readonly relay: ArchiveRelay;
  /** The automatic withdrawal threshold in cents (RedisStoreOptions); undefined: off. */
  readonly withdrawalThreshold: number | undefined;
}
