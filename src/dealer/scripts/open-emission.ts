import type { DealerRunScript } from './commands';
import { scriptError } from '../../redis-scripts/errors';
import { int, replyList } from '../../redis-scripts/reply';

export interface OpenEmissionKeys {
  readonly current: string;
  readonly base: string;
}

export interface PrintedForRedis {
  readonly units: Uint8Array;
  readonly commitment: string;
  readonly seed: Uint8Array;
  /** The Merkle root of its page 0 (hex), stored with the block (schemes 2 and 3). */
  readonly firstPageRoot: string;
  /** Its leaves' scheme, stored with the block (new prints: 3). */
  readonly scheme: { readonly version: 2 | 3 };
}

export interface OpenEmissionArgs {
  readonly emissionId: string;
  readonly gamePrice: string;
  readonly tableJson: string;
  readonly blockSize: number;
  readonly blockCount: number;
  readonly prizes: readonly number[];
  readonly now: number;
  /** The emission's lanes, and the one this call opens (docs/dealer.md, "Lanes"). */
  readonly lanes: number;
  readonly lane: number;
  /** The lane's first block (index `lane`) and, when the emission has it, its next (`lane + lanes`). */
  readonly first: PrintedForRedis;
  readonly second?: PrintedForRedis;
}

/** A printed block as script arguments: units (bytes), commitment, seed (hex), root of page 0, scheme. */
export function blockArgs(block: PrintedForRedis): (string | Buffer)[] {
  const units = Buffer.from(block.units.buffer, block.units.byteOffset, block.units.length);
  return [units, block.commitment, Buffer.from(block.seed).toString('hex'), block.firstPageRoot, String(block.scheme.version)];
}

/** openEmission-2.lua (one lane): throws `dealer/emission_exists` or `dealer/sequence_busy`. */
export async function openEmission(run: DealerRunScript, keys: OpenEmissionKeys, args: OpenEmissionArgs): Promise<void> {
  const reply = replyList(
    'openEmission',
    await run('openEmission', [keys.current, keys.base], [
      args.emissionId,
      args.gamePrice,
      args.tableJson,
      args.blockSize,
      args.blockCount,
      args.prizes.join(','),
      args.now,
      args.lanes,
      args.lane,
      ...blockArgs(args.first),
      ...(args.second ? blockArgs(args.second) : []),
    ]),
  );
  const code = int(reply[0]);
  if (code !== 1) throw scriptError('openEmission', code);
}
