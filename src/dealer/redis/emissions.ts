import type { Cents } from '../../money';
import { assertOpenEmission, canonicalTable, sameTable } from '../identifiers';
import { blockIdOf, gamePrice, parseBlockId } from '../../ids';
import { printNewBlock } from '../../fairness/printing';
import { DealerScriptError, scriptError } from '../../redis-scripts/errors';
import { openEmission } from '../scripts/open-emission';
import type { BlockInfo, EmissionInfo, Emissions, OpenEmissionRequest } from '../types';
import type { EmissionCatalog, EmissionMeta } from './catalog';
import type { RedisContext } from './context';
import { indexedEmission } from './keys';
import type { RedisPages } from './pages';
import type { BlockPrinter } from './printer';

/**
 * Emissions on Redis: opening them lane by lane (each lane's first block open and its next
 * printed, by openEmission-2.lua), then indexing them; and which emission each game and price
 * sells now, once every lane of it is open.
 */
export class RedisEmissions implements Emissions {
  /** `<game>:<stake>` → the emission its lane 0 sells, every lane of it opened: the lanes purchases walk. */
  private readonly currents = new Map<string, Promise<EmissionMeta | undefined>>();

  constructor(
    private readonly ctx: RedisContext,
    private readonly catalog: EmissionCatalog,
    private readonly printer: BlockPrinter,
    private readonly pages: RedisPages,
    /** Lanes of the emissions this store opens (clamped to their block count). */
    private readonly lanes: number,
  ) {}

  async openEmission(request: OpenEmissionRequest): Promise<EmissionInfo> {
    assertOpenEmission(request);
    const existing = await this.existingEmission(request);
    if (existing) return existing;
    const { table, emissionId, blockCount, now } = request;
    await this.refuseWhileSelling(table.game, table.stake, emissionId);
    const meta: EmissionMeta = { emissionId, game: table.game, stake: table.stake, table, blockCount, lanes: Math.min(this.lanes, blockCount) };
    try {
      // Lane 0 first: of two emissions opened at once, the one that wins lane 0 wins them all.
      await this.openLane(meta, 0, now);
    } catch (err) {
      // Another process opened the same emission between our check and our script (or one
      // died before indexing it): index it, then it is the existing one (its lanes completed).
      if (!(err instanceof DealerScriptError && err.code === 'dealer/emission_exists')) throw err;
      const lanes = await this.ctx.redis.hget(this.ctx.keys.emissionKey(table.game, table.stake, emissionId), 'lanes');
      await this.indexEmission(emissionId, indexedEmission(table.game, table.stake, Number(lanes ?? 1)));
      const opened = await this.existingEmission(request);
      if (opened) return opened;
      throw err;
    }
    await this.completeLanes(meta, now);
    // The index is another key (another slot on a cluster): written after the lanes, so
    // that every emission it names exists.
    await this.indexEmission(emissionId, indexedEmission(table.game, table.stake, meta.lanes));
    return (await this.catalog.emissionInfo((await this.catalog.meta(emissionId))!))!;
  }

  async listEmissions(): Promise<EmissionInfo[]> {
    const ids = Object.keys(await this.ctx.redis.hgetall(this.ctx.keys.emissions)).sort();
    const infos = await Promise.all(ids.map(async (id) => this.catalog.emissionInfo((await this.catalog.meta(id))!)));
    return infos.filter((info): info is EmissionInfo => info !== undefined);
  }

  async block(blockId: string): Promise<BlockInfo | undefined> {
    const ref = parseBlockId(blockId);
    const meta = ref && (await this.catalog.meta(ref.emissionId));
    return meta && (await this.catalog.emissionInfo(meta))?.blocks.find((b) => b.index === ref.index);
  }

  /**
   * The emission lane 0 of a game and price sells, once every lane of it is open; read once
   * and kept until a purchase meets another emission.
   */
  current(game: string, stake: Cents, now: number): Promise<EmissionMeta | undefined> {
    const key = gamePrice(game, stake);
    let found = this.currents.get(key);
    if (!found) {
      found = (async () => {
        const emissionId = await this.ctx.redis.get(this.ctx.keys.lane(game, stake).current);
        const meta = emissionId ? await this.catalog.metaOn(game, stake, emissionId) : undefined;
        if (meta) await this.completeLanes(meta, now);
        return meta;
      })();
      const kept = found;
      this.currents.set(key, kept);
      kept.then((meta) => meta ?? this.forgetCurrent(game, stake, kept), () => this.forgetCurrent(game, stake, kept));
    }
    return found;
  }

  /** Reads the current emission again next time: `current` if it is still the one kept, or whatever is kept. */
  forgetCurrent(game: string, stake: Cents, current?: Promise<EmissionMeta | undefined>): void {
    const key = gamePrice(game, stake);
    if (current === undefined || this.currents.get(key) === current) this.currents.delete(key);
  }

  /**
   * Refuses (`dealer/sequence_busy`) while another emission of the game and price sells on any
   * of its lanes (this one: its opener died before indexing it, and lane 0 says so).
   */
  private async refuseWhileSelling(game: string, stake: Cents, emissionId: string): Promise<void> {
    const current = await this.ctx.redis.get(this.ctx.keys.lane(game, stake).current);
    if (!current || current === emissionId) return;
    const lanes = Number((await this.ctx.redis.hget(this.ctx.keys.emissionKey(game, stake, current), 'lanes')) ?? 1);
    const states = await this.catalog.laneField(game, stake, current, lanes, 'state');
    // A lane never opened (its opener died) sells nothing.
    if (states.some((state) => state !== null && state !== 'closed')) throw scriptError('openEmission', -7);
  }

  /** Opens lane `lane` of an emission: its first block open, its next printed, each with its page 0's root. */
  private async openLane(meta: EmissionMeta, lane: number, now: number): Promise<void> {
    const { table, emissionId, blockCount, lanes } = meta;
    const keys = this.ctx.keys.lane(table.game, table.stake, lane);
    const first = this.pages.withFirstPage(blockIdOf(emissionId, lane), printNewBlock(table, blockIdOf(emissionId, lane)));
    const second = lane + lanes < blockCount ? this.pages.withFirstPage(blockIdOf(emissionId, lane + lanes), printNewBlock(table, blockIdOf(emissionId, lane + lanes))) : undefined;
    await openEmission(this.ctx.run, { current: keys.current, base: keys.base }, {
      emissionId,
      gamePrice: gamePrice(table.game, table.stake),
      tableJson: JSON.stringify(canonicalTable(table)),
      blockSize: table.blockSize,
      blockCount,
      prizes: table.tiers.map((t) => t.prize),
      now,
      lanes,
      lane,
      first,
      ...(second ? { second } : {}),
    });
    await Promise.all([this.pages.keepFirstPage(meta, first, now), second && this.pages.keepFirstPage(meta, second, now)]);
  }

  /**
   * Opens the lanes 1..L-1 of an emission that are not open yet (their opener died half way),
   * while lane 0 still sells it: so every process deals an emission only with all its lanes,
   * and a purchase's walk over them is the same every time.
   */
  private async completeLanes(meta: EmissionMeta, now: number): Promise<void> {
    const { game, stake, emissionId } = meta;
    if (meta.lanes === 1 || (await this.ctx.redis.get(this.ctx.keys.lane(game, stake).current)) !== emissionId) return;
    for (let lane = 1; lane < meta.lanes; lane++) {
      if (await this.ctx.redis.exists(this.ctx.keys.emissionKey(game, stake, emissionId, lane))) continue;
      try {
        await this.openLane(meta, lane, now);
      } catch (err) {
        // Opened meanwhile by another process: as wanted.
        if (!(err instanceof DealerScriptError && err.code === 'dealer/emission_exists')) throw err;
      }
    }
  }

  /** Adds an emission to the index; throws if the id names another game and price's emission. */
  private async indexEmission(emissionId: string, indexed: string): Promise<void> {
    if ((await this.ctx.redis.hsetnx(this.ctx.keys.emissions, emissionId, indexed)) === 1) return;
    const found = await this.ctx.redis.hget(this.ctx.keys.emissions, emissionId);
    if (found !== indexed) throw new Error(`emission ${emissionId} already exists on ${found}`);
  }

  /** The existing emission of that id if its table matches; throws if it does not. */
  private async existingEmission(request: OpenEmissionRequest): Promise<EmissionInfo | undefined> {
    const meta = await this.catalog.meta(request.emissionId);
    if (!meta) return undefined;
    if (!sameTable(meta.table, request.table) || meta.blockCount !== request.blockCount) {
      throw new Error(`emission ${request.emissionId} already exists with another table or block count`);
    }
    // A dealer may have died half way through opening the lanes, or between opening a block
    // and printing the next: finish that now.
    await this.completeLanes(meta, request.now);
    const info = await this.catalog.emissionInfo(meta);
    const open = info?.blocks.filter((b) => b.state === 'open') ?? [];
    await Promise.all(open.map((b) => this.printer.ensurePrinted(meta, b.index + meta.lanes, request.now)));
    return this.catalog.emissionInfo(meta);
  }
}
