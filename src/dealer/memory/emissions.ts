import { assertOpenEmission, sameTable } from '../identifiers';
import { blockIdOf, gamePrice, parseBlockId } from '../../ids';
import { printNewBlock, UNSOLD } from '../../fairness/printing';
import type { BlockInfo, EmissionInfo, Emissions, OpenEmissionRequest } from '../types';
import type { MemoryBlock, MemoryBooks, MemoryEmission } from './books';

/** Emissions in memory: printing is synchronous, so the next block is always there when needed. */
export class MemoryEmissions implements Emissions {
  constructor(
    private readonly books: MemoryBooks,
    /** Each printed block's seed (MemoryStoreOptions.printSeed); undefined: the CSPRNG. */
    private readonly printSeed?: () => Uint8Array,
  ) {}

  async openEmission(request: OpenEmissionRequest): Promise<EmissionInfo> {
    assertOpenEmission(request);
    const existing = this.books.emissions.get(request.emissionId);
    if (existing) {
      if (!sameTable(existing.table, request.table) || existing.blockCount !== request.blockCount) {
        throw new Error(`emission ${request.emissionId} already exists with another table or block count`);
      }
      return this.emissionInfo(existing);
    }
    const where = gamePrice(request.table.game, request.table.stake);
    const current = this.books.selling.get(where);
    if (current && !current.closed) {
      throw new Error(`${where} is still selling emission ${current.emissionId}`);
    }
    const emission: MemoryEmission = {
      emissionId: request.emissionId,
      table: request.table,
      blockCount: request.blockCount,
      blocks: [],
      openIndex: 0,
      closed: false,
    };
    this.printNext(emission, request.now).state = 'open';
    if (emission.blockCount > 1) this.printNext(emission, request.now);
    this.books.emissions.set(emission.emissionId, emission);
    this.books.selling.set(where, emission);
    return this.emissionInfo(emission);
  }

  async listEmissions(): Promise<EmissionInfo[]> {
    return [...this.books.emissions.values()].sort((a, b) => (a.emissionId < b.emissionId ? -1 : 1)).map((e) => this.emissionInfo(e));
  }

  async block(blockId: string): Promise<BlockInfo | undefined> {
    const ref = parseBlockId(blockId);
    const emission = ref && this.books.emissions.get(ref.emissionId);
    return emission && this.emissionInfo(emission).blocks[ref.index];
  }

  /** Closes a sold-out block, reveals its seed, opens the next and prints the one after. */
  closeBlock(emission: MemoryEmission, block: MemoryBlock, now: number): void {
    block.state = 'closed';
    block.closedAt = now;
    const next = block.index + 1;
    if (next === emission.blockCount) {
      emission.closed = true;
      return;
    }
    (emission.blocks[next] ?? this.printNext(emission, now)).state = 'open';
    emission.openIndex = next;
    if (next + 1 < emission.blockCount) this.printNext(emission, now);
  }

  private printNext(emission: MemoryEmission, now: number): MemoryBlock {
    const index = emission.blocks.length;
    const blockId = blockIdOf(emission.emissionId, index);
    const block: MemoryBlock = {
      index,
      blockId,
      printed: printNewBlock(emission.table, blockId, this.printSeed?.()),
      state: 'printed',
      sold: 0,
      settled: 0,
      soldPerTier: new Array<number>(emission.table.tiers.length + 1).fill(0),
      recorded: new Uint8Array(emission.table.blockSize).fill(UNSOLD),
      pages: [],
      forgotten: 0,
    };
    this.books.publishPage(emission.table, block, 0, now);
    emission.blocks.push(block);
    return block;
  }

  private emissionInfo(emission: MemoryEmission): EmissionInfo {
    const { table } = emission;
    return {
      emissionId: emission.emissionId,
      game: table.game,
      stake: table.stake,
      table,
      blockCount: emission.blockCount,
      blocks: emission.blocks.map(
        (b): BlockInfo => ({
          blockId: b.blockId,
          emissionId: emission.emissionId,
          game: table.game,
          stake: table.stake,
          index: b.index,
          size: table.blockSize,
          state: b.state,
          commitment: b.printed.commitment,
          scheme: b.printed.scheme.version,
          ...(b.state === 'closed' ? { seed: Buffer.from(b.printed.seed).toString('hex') } : {}),
          sold: b.sold,
          settled: b.settled,
          soldPerTier: [...b.soldPerTier],
          ...(b.offloadedTo ? { offloadedTo: b.offloadedTo } : {}),
        }),
      ),
    };
  }
}
