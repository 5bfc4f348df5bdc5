import { mkdir, open, rename, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * The files of an offloaded block's units, so that Redis keeps no per-unit data of old blocks
 * (docs/dealer.md, "Offloading settled blocks"). Two files per block in the offload directory, written once
 * (under a temporary name, fsynced, then renamed: a file is whole or absent) and never changed:
 *
 * - `<blockId>.units.ndjson`: line p (0-based) is the unit at position p, as JSON
 *   `{"sale": <the store's sale>, "actions": [entry, …]}` (the sale with its settlement time; the unit's action
 *   log as src/action-log keeps it);
 * - `<blockId>.units.index`: (size + 1) little-endian float64 byte offsets of those lines (the
 *   last one the file's length), then `size` bytes: the tier recorded with each sale (what
 *   `verifyBlock` checks), so that one unit or the tiers are read without reading the rest.
 *
 * Stores record the absolute path of the `.ndjson` file as where the block's units went (`offloadedTo`).
 */

/** What the files need of a store's sale (the dealer's `Sale`): its place and the tier recorded with it. */
interface OffloadedSale {
  readonly position: number;
  readonly tierId: number;
}

export interface OffloadedUnit<S extends OffloadedSale = OffloadedSale> {
  readonly sale: S;
  /** The unit's action log entries (src/action-log LoggedAction), in order. */
  readonly actions: readonly unknown[];
}

/** An offloaded unit whose file this process cannot read: says where the record lives. */
export class OffloadUnreadableError extends Error {
  constructor(
    readonly unitId: string,
    readonly path: string,
    cause: unknown,
  ) {
    super(`unit ${unitId} is offloaded in ${path}, which this process cannot read (${String((cause as Error)?.message ?? cause)})`);
    this.name = 'OffloadUnreadableError';
  }
}

const OFFSET_BYTES = 8;
const WRITE_CHUNK = 1 << 20;

function indexPathOf(path: string): string {
  return path.replace(/\.ndjson$/, '.index');
}

/**
 * Writes a block's files from its units in position order (every position from 0 to
 * `size − 1`: only sold-out blocks are offloaded) and returns the path of its `.ndjson` file.
 * Writing the same block again (another offloader at the same time) replaces it whole.
 */
export async function writeOffloadedBlock<S extends OffloadedSale>(dir: string, blockId: string, size: number, units: AsyncIterable<OffloadedUnit<S>>): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = resolve(join(dir, `${blockId}.units.ndjson`));
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  const offsets = new Float64Array(size + 1);
  const tiers = new Uint8Array(size);
  const data = await open(path + suffix, 'w');
  try {
    let position = 0;
    let offset = 0;
    let lines: string[] = [];
    let pending = 0;
    const flush = async () => {
      await data.writeFile(lines.join(''));
      lines = [];
      pending = 0;
    };
    for await (const unit of units) {
      if (unit.sale.position !== position) throw new Error(`${blockId}: offload expected position ${position}, got ${unit.sale.position}`);
      const line = `${JSON.stringify(unit)}\n`;
      offsets[position] = offset;
      tiers[position] = unit.sale.tierId;
      offset += Buffer.byteLength(line);
      lines.push(line);
      pending += line.length;
      position++;
      if (pending >= WRITE_CHUNK) await flush();
    }
    if (position !== size) throw new Error(`${blockId}: offload got ${position} units of ${size}`);
    await flush();
    offsets[size] = offset;
    await data.sync();
  } finally {
    await data.close();
  }
  const index = await open(indexPathOf(path) + suffix, 'w');
  try {
    await index.writeFile(Buffer.concat([Buffer.from(offsets.buffer), tiers]));
    await index.sync();
  } finally {
    await index.close();
  }
  await rename(indexPathOf(path) + suffix, indexPathOf(path));
  await rename(path + suffix, path);
  return path;
}

async function readAt(path: string, offset: number, length: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * The unit at `position` of the files at `path` (undefined past the block's end); throws
 * OffloadUnreadableError when the files cannot be read here.
 */
export async function readOffloadedUnit<S extends OffloadedSale>(path: string, unitId: string, position: number): Promise<OffloadedUnit<S> | undefined> {
  try {
    // The index holds size + 1 offsets, then size tiers: past the last unit are its tiers.
    const size = ((await stat(indexPathOf(path))).size - OFFSET_BYTES) / (OFFSET_BYTES + 1);
    if (position >= size) return undefined;
    const bounds = await readAt(indexPathOf(path), position * OFFSET_BYTES, 2 * OFFSET_BYTES);
    const start = bounds.readDoubleLE(0);
    const end = bounds.readDoubleLE(OFFSET_BYTES);
    return JSON.parse((await readAt(path, start, end - start)).toString('utf8')) as OffloadedUnit<S>;
  } catch (err) {
    throw new OffloadUnreadableError(unitId, path, err);
  }
}

/** The tier recorded with each sale of the offloaded block of `size` units at `path`. */
export async function readOffloadedTiers(path: string, blockId: string, size: number): Promise<Uint8Array> {
  try {
    const tiers = await readAt(indexPathOf(path), (size + 1) * OFFSET_BYTES, size);
    if (tiers.length !== size) throw new Error(`the index holds ${tiers.length} tiers, not ${size}`);
    return new Uint8Array(tiers);
  } catch (err) {
    throw new OffloadUnreadableError(`${blockId}:*`, path, err);
  }
}
