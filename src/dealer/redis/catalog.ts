import type { GameId, PrizeTable } from '../../games/types';
import type { Cents } from '../../money';
import { blockIdOf, parseBlockId } from '../../ids';
import type { BlockInfo, BlockState, EmissionInfo } from '../types';
import type { RedisContext } from './context';
import { laneOfBlock, parseIndexedEmission, type BlockKeys } from './keys';

/** What never changes about an emission once opened: read once, then cached. */
export interface EmissionMeta {
  readonly emissionId: string;
  readonly game: GameId;
  readonly stake: Cents;
  readonly table: PrizeTable;
  readonly blockCount: number;
  /** Lanes the emission deals on (1 for emissions opened before lanes). */
  readonly lanes: number;
}

/**
 * The emissions as this process knows them: their metas (cached: they never change), the keys
 * of their blocks, and their state as `listEmissions` shows it.
 */
export class EmissionCatalog {
  private readonly metas = new Map<string, EmissionMeta>();

  constructor(private readonly ctx: RedisContext) {}

  /** An emission's meta, found from its id alone through the emissions' index. */
  async meta(emissionId: string): Promise<EmissionMeta | undefined> {
    const cached = this.metas.get(emissionId);
    if (cached) return cached;
    const indexed = await this.ctx.redis.hget(this.ctx.keys.emissions, emissionId);
    if (!indexed) return undefined;
    const { game, stake } = parseIndexedEmission(indexed);
    return this.metaOn(game, stake, emissionId);
  }

  /** The meta of the emission of a block id, if there is one. */
  async metaOfBlock(blockId: string): Promise<EmissionMeta | undefined> {
    const ref = parseBlockId(blockId);
    return ref && this.meta(ref.emissionId);
  }

  /**
   * An emission's meta from its lane 0 (written when that lane opened, before the emission is
   * indexed: a purchase may meet an emission whose opener has not indexed it yet).
   */
  async metaOn(game: string, stake: Cents, emissionId: string): Promise<EmissionMeta | undefined> {
    const cached = this.metas.get(emissionId);
    if (cached) return cached;
    const [tableJson, blockCount, lanes] = await this.ctx.redis.hmget(this.ctx.keys.emissionKey(game, stake, emissionId), 'table', 'blockCount', 'lanes');
    if (!tableJson) return undefined;
    const meta: EmissionMeta = {
      emissionId,
      game: game as GameId,
      stake,
      table: JSON.parse(tableJson) as PrizeTable,
      blockCount: Number(blockCount),
      // Emissions opened before lanes have no field: one lane.
      lanes: Number(lanes ?? 1),
    };
    this.metas.set(emissionId, meta);
    return meta;
  }

  /** The keys of a block of an emission, on the lane that deals it: every read or write of a block goes through here. */
  blockKeysOf(meta: EmissionMeta, blockId: string): BlockKeys {
    const ref = parseBlockId(blockId);
    if (!ref || ref.emissionId !== meta.emissionId) throw new RangeError(`block ${blockId} is not of emission ${meta.emissionId}`);
    return this.ctx.keys.blockKeys(meta.game, meta.stake, blockId, laneOfBlock(ref.index, meta.lanes));
  }

  /** One field of an emission's hash on each of its lanes (null for a lane not opened). */
  laneField(game: string, stake: Cents, emissionId: string, lanes: number, field: 'state' | 'index'): Promise<(string | null)[]> {
    return Promise.all(Array.from({ length: lanes }, (_, lane) => this.ctx.redis.hget(this.ctx.keys.emissionKey(game, stake, emissionId, lane), field)));
  }

  /** The emission with its printed blocks; undefined while its lane 0 is not open. */
  async emissionInfo(meta: EmissionMeta): Promise<EmissionInfo | undefined> {
    const { game, stake, emissionId, lanes } = meta;
    const laneIndexes = await this.laneField(game, stake, emissionId, lanes, 'index');
    if (laneIndexes[0] === null) return undefined;
    // The printed blocks of lane l run from l to one step past its open one.
    const indexes = laneIndexes
      .flatMap((index, lane) => {
        if (index === null) return [];
        const last = Math.min(Number(index) + lanes, meta.blockCount - 1);
        return Array.from({ length: Math.floor((last - lane) / lanes) + 1 }, (_, k) => lane + k * lanes);
      })
      .sort((a, b) => a - b);
    const blockIds = indexes.map((i) => blockIdOf(emissionId, i));
    const keys = blockIds.map((blockId) => this.blockKeysOf(meta, blockId));
    const { redis } = this.ctx;
    // One round of reads. The settlements are counted before the info is read (sent first, on
    // the block's one connection): offloading drops a block's settlements and marks it offloaded
    // in one step, so a count read before it is whole, and an info read after it says offloaded
    // (all settled). Scheme 3 blocks say so; scheme 2 blocks have their page 0 root from the
    // moment they are stored.
    const [settled, infos, schemes] = await Promise.all([
      Promise.all(keys.map((k) => redis.hlen(k.settled))),
      Promise.all(keys.map((k) => redis.hgetall(k.info))),
      Promise.all(keys.map((k) => redis.hexists(k.pages, '0'))),
    ]);
    const tiers = meta.table.tiers.length;
    const blocks = infos.flatMap((fields, i): BlockInfo[] => {
      if (!fields['state']) return [];
      const state = fields['state'] as BlockState;
      const soldPerTier = Array.from({ length: tiers + 1 }, (_, t) => Number(fields[`t${t}`] ?? 0));
      return [
        {
          blockId: blockIds[i]!,
          emissionId,
          game,
          stake,
          index: indexes[i]!,
          size: Number(fields['size']),
          state,
          commitment: fields['commitment']!,
          scheme: fields['scheme'] === '3' ? 3 : schemes[i] ? 2 : 1,
          ...(state === 'closed' ? { seed: fields['seed']! } : {}),
          sold: soldPerTier.reduce((n, s) => n + s, 0),
          settled: fields['archive'] ? Number(fields['size']) : settled[i]!,
          soldPerTier,
          ...(fields['archive'] ? { offloadedTo: fields['archive'] } : {}),
        },
      ];
    });
    return { emissionId, game, stake, table: meta.table, blockCount: meta.blockCount, blocks };
  }
}
