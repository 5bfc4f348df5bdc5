import { readOffloadedUnit } from '../../offload/unit-files';
import { parseUnitId, type UnitRef } from '../../ids';
import { buildSale, decodeSale } from '../records';
import type { Sale } from '../types';
import type { EmissionCatalog, EmissionMeta } from './catalog';
import type { RedisContext } from './context';

/** A sale found, with where it was dealt. */
export interface FoundSale {
  readonly meta: EmissionMeta;
  readonly ref: UnitRef;
  readonly sale: Sale;
  /** Read from the block's offloaded files (its records are gone from Redis). */
  readonly offloaded: boolean;
}

/** Reads sales back: from their block's sales hash, or from its files once it is offloaded. */
export class SaleReader {
  constructor(
    private readonly ctx: RedisContext,
    private readonly catalog: EmissionCatalog,
  ) {}

  /** The sale of a unit, with its settlement time when `withSettlement` (one read more). */
  async find(unitId: string, withSettlement = true): Promise<FoundSale | undefined> {
    const ref = parseUnitId(unitId);
    const meta = ref && (await this.catalog.meta(ref.emissionId));
    if (!meta) return undefined;
    const keys = this.catalog.blockKeysOf(meta, ref.blockId);
    const [record, settledAt] = await Promise.all([
      this.ctx.redis.hget(keys.sales, String(ref.position)),
      withSettlement ? this.ctx.redis.hget(keys.settled, String(ref.position)) : null,
    ]);
    if (record === null) {
      const offloadedTo = await this.ctx.redis.hget(keys.info, 'archive');
      const offloaded = offloadedTo === null ? undefined : await readOffloadedUnit<Sale>(offloadedTo, unitId, ref.position);
      return offloaded && { meta, ref, sale: offloaded.sale, offloaded: true };
    }
    const sale = buildSale(meta, ref.blockId, ref.position, decodeSale(record), settledAt === null ? undefined : Number(settledAt));
    return { meta, ref, sale, offloaded: false };
  }

  async sale(unitId: string): Promise<Sale | undefined> {
    return (await this.find(unitId))?.sale;
  }

  /** The sales of these units, in order, leaving out those with none. */
  async sales(unitIds: readonly string[]): Promise<Sale[]> {
    const sales = await Promise.all(unitIds.map((id) => this.sale(id)));
    return sales.filter((s): s is Sale => s !== undefined);
  }
}
