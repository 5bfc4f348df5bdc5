import type { ArchiveRelay } from './archive-relay';
import type { EmissionCatalog } from './catalog';
import type { RedisContext } from './context';
import type { RedisEmissions } from './emissions';
import type { RedisPages } from './pages';
import type { RedisProtections } from '../../protection/redis';
import type { BlockPrinter } from './printer';
import type { SaleReader } from './sale-reader';

/** The parts of the Redis store a purchase protocol (sales.ts) deals through. */
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
  /** RedisStoreOptions.fundedByOperator. */
  readonly fundedByOperator: boolean;
}
