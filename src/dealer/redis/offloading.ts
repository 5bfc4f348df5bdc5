import { assertTime } from '../identifiers';
import { blockIdOf } from '../../ids';
import { buildSale, decodeSale } from '../records';
import { offloadBlock } from '../scripts/offload-block';
import type { Offloading, Sale } from '../types';
import type { EmissionCatalog } from './catalog';
import type { RedisContext } from './context';

/** Offloading on Redis: which blocks may go, their sales in order, and offloadBlock-4.lua to drop them. */
export class RedisOffloading implements Offloading {
  constructor(
    private readonly ctx: RedisContext,
    private readonly catalog: EmissionCatalog,
  ) {}

  async offloadableBlocks(closedBefore: number): Promise<string[]> {
    const { redis, keys } = this.ctx;
    const metas = await Promise.all(Object.keys(await redis.hgetall(keys.emissions)).map((id) => this.catalog.meta(id)));
    const candidates = await Promise.all(
      metas.flatMap((meta) =>
        meta
          ? Array.from({ length: meta.blockCount }, async (_, i) => {
              const blockId = blockIdOf(meta.emissionId, i);
              const block = this.catalog.blockKeysOf(meta, blockId);
              const [[state, size, closedAt, offloadedTo], settled] = await Promise.all([
                redis.hmget(block.info, 'state', 'size', 'closedAt', 'archive'),
                redis.hlen(block.settled),
              ]);
              const offloadable = state === 'closed' && offloadedTo === null && Number(closedAt) <= closedBefore && settled === Number(size);
              return offloadable ? [blockId] : [];
            })
          : [],
      ),
    );
    return candidates.flat().sort();
  }

  async blockSales(blockId: string, from: number, limit: number): Promise<Sale[]> {
    const meta = await this.catalog.metaOfBlock(blockId);
    if (!meta || limit < 1) return [];
    const keys = this.catalog.blockKeysOf(meta, blockId);
    const positions = Array.from({ length: Math.max(0, Math.min(limit, meta.table.blockSize - from)) }, (_, i) => String(from + i));
    if (positions.length === 0) return [];
    const [records, settled] = await Promise.all([this.ctx.redis.hmget(keys.sales, ...positions), this.ctx.redis.hmget(keys.settled, ...positions)]);
    const sales: Sale[] = [];
    for (let i = 0; i < positions.length && records[i] !== null; i++) {
      sales.push(buildSale(meta, blockId, from + i, decodeSale(records[i]!), settled[i] === null ? undefined : Number(settled[i])));
    }
    return sales;
  }

  async markOffloaded(blockId: string, path: string, now: number): Promise<boolean> {
    assertTime(now);
    const meta = await this.catalog.metaOfBlock(blockId);
    if (!meta) throw new RangeError(`unknown block ${blockId}`);
    return offloadBlock(this.ctx.run, this.catalog.blockKeysOf(meta, blockId), { path, now });
  }
}
