import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { PrizeTable } from '../games/types';
import { nonceFor, Rng } from '../random/rng';
import { domainTag, type LeafScheme } from './leaf-domain';
import { be32, compress, expand, midstateOf, STATE, W, writeState } from './sha256-blocks';

/**
 * Printing a block: the table's outcomes, one tier id per byte (0 = losing, i = tiers[i-1]),
 * laid out in tier order and shuffled by Fisher–Yates driven by ChaCha20 under a fresh 256-bit
 * seed. Reproducible from the seed; docs/dealer.md gives the exact recipe to re-print and check.
 */

const SEED_BYTES = 32;

/** A fresh block seed from the operating system's CSPRNG. */
export function newBlockSeed(): Uint8Array {
  return new Uint8Array(randomBytes(SEED_BYTES));
}

/** Units per tier id: index 0 the losing units (block size − winners), then the table's tiers. */
export function tierCounts(table: PrizeTable): number[] {
  const winners = table.tiers.reduce((n, t) => n + t.count, 0);
  return [table.blockSize - winners, ...table.tiers.map((t) => t.count)];
}

/** Checks that a table can be printed: tier ids fit one byte, counts fit the block. */
export function assertPrintable(table: PrizeTable): void {
  const where = `${table.game} at ${table.stake}`;
  if (!Number.isSafeInteger(table.blockSize) || table.blockSize < 1 || table.blockSize > 0x7fffffff) {
    throw new RangeError(`${where}: block size ${table.blockSize}`);
  }
  if (table.tiers.length < 1 || table.tiers.length > 254) throw new RangeError(`${where}: ${table.tiers.length} tiers`);
  for (const tier of table.tiers) {
    if (!Number.isSafeInteger(tier.count) || tier.count < 0) throw new RangeError(`${where}: tier count ${tier.count}`);
    if (!Number.isSafeInteger(tier.prize) || tier.prize < 1) throw new RangeError(`${where}: tier prize ${tier.prize}`);
  }
  if (tierCounts(table)[0]! < 0) throw new RangeError(`${where}: more winners than units`);
}

/**
 * The printed block: `blockSize` bytes, byte p = tier id of the unit at position p.
 * Fill: tier 0 count times, then tier 1, ... Shuffle: for i = n−1 down to 1, j = below(i+1)
 * from `new Rng(seed, nonceFor('block'))`, swap bytes i and j (exactly `Rng.shuffle`).
 */
export function printBlock(table: PrizeTable, seed: Uint8Array): Uint8Array {
  assertPrintable(table);
  if (seed.length !== SEED_BYTES) throw new RangeError(`seed must be ${SEED_BYTES} bytes, got ${seed.length}`);
  const units = new Uint8Array(table.blockSize);
  let at = 0;
  tierCounts(table).forEach((count, tierId) => {
    units.fill(tierId, at, at + count);
    at += count;
  });
  const rng = new Rng(seed, nonceFor('block'));
  for (let i = units.length - 1; i > 0; i--) {
    // Rng.below(i + 1) inlined with float division instead of `%` on values past 2^31, which V8
    // runs as a slow fmod: same draws (test/dealer/printing.test.ts), 8M units in well under 1 s.
    const n = i + 1;
    const limit = Math.floor(0x100000000 / n) * n;
    let x = rng.nextU32();
    while (x >= limit) x = rng.nextU32();
    const j = x - Math.floor(x / n) * n;
    const t = units[i]!;
    units[i] = units[j]!;
    units[j] = t;
  }
  return units;
}

/**
 * The hex commitment published before the block opens: scheme 3, SHA-256(T ‖ T ‖ seed ‖ printed
 * bytes) with T = SHA-256(`block-commitment/v3|<game>|<stake>|<blockId>`), so one seed commits
 * differently in every block, game and price; schemes 1 and 2, SHA-256(seed ‖ printed bytes).
 */
export function commitmentOf(seed: Uint8Array, units: Uint8Array, scheme: LeafScheme): string {
  const hash = createHash('sha256');
  if (scheme.version === 3) {
    const tag = createHash('sha256').update(domainTag('block-commitment', scheme), 'utf8').digest();
    hash.update(tag).update(tag);
  }
  return hash.update(seed).update(units).digest('hex');
}

/** A printed block with its seed, commitment and leaves' scheme, as the stores keep it. */
export interface PrintedBlock {
  readonly seed: Uint8Array;
  readonly units: Uint8Array;
  readonly commitment: string;
  readonly scheme: LeafScheme;
}

/** Prints block `blockId` of `table` under scheme 3. */
export function printNewBlock(table: PrizeTable, blockId: string, seed: Uint8Array = newBlockSeed()): PrintedBlock {
  const units = printBlock(table, seed);
  const scheme: LeafScheme = { version: 3, game: table.game, stake: table.stake, blockId };
  return { seed, units, commitment: commitmentOf(seed, units, scheme), scheme };
}

/**
 * The 32-byte seed of one unit's scenario: HMAC-SHA256(key = block seed, message = utf8
 * `unit-seed/v1/${position}`). Secret while the block sells; a finished unit's recall reveals its
 * own (scheme 3), which tells nothing of the block seed or any other unit's: HMAC is a
 * pseudo-random function of its key, one-way in it.
 */
export function unitSeed(blockSeed: Uint8Array, position: number): Uint8Array {
  if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`position ${position}`);
  return new Uint8Array(createHmac('sha256', blockSeed).update(`unit-seed/v1/${position}`, 'utf8').digest());
}

/**
 * The unit seeds of positions [from, from + count), 32 bytes each: a page's scheme 3 secrets.
 * The same HMAC as `unitSeed` (the tests hold them equal), by the compression function: the
 * key's two padded blocks are compressed once, then a seed costs two compressions (its message
 * fits one block), where node's HMAC cost about 3 µs a call on this machine.
 */
export function unitSeeds(blockSeed: Uint8Array, from: number, count: number): Uint8Array {
  if (blockSeed.length !== SEED_BYTES) throw new RangeError(`seed must be ${SEED_BYTES} bytes, got ${blockSeed.length}`);
  const key = new Uint8Array(64);
  key.set(blockSeed);
  const inner = midstateOf(key.map((b) => b ^ 0x36));
  const outer = midstateOf(key.map((b) => b ^ 0x5c));
  const out = new Uint8Array(count * 32);
  const block = new Uint8Array(64);
  for (let i = 0; i < count; i++) {
    const text = `unit-seed/v1/${from + i}`;
    block.fill(0);
    for (let k = 0; k < text.length; k++) block[k] = text.charCodeAt(k);
    block[text.length] = 0x80;
    const bits = (64 + text.length) * 8;
    block[62] = bits >>> 8;
    block[63] = bits & 255;
    for (let k = 0; k < 16; k++) W[k] = be32(block, 4 * k);
    expand(W);
    STATE.set(inner);
    compress(W);
    // The outer message is the inner hash (STATE's words) ‖ 0x80 ‖ zeros ‖ its bit length, 768.
    W.set(STATE);
    W[8] = 0x80000000 | 0;
    W.fill(0, 9, 15);
    W[15] = 768;
    expand(W);
    STATE.set(outer);
    compress(W);
    writeState(out, 32 * i);
  }
  return out;
}

/** Marks a position without a recorded sale in `recordedTiers`. */
export const UNSOLD = 0xff;

export interface BlockCheck {
  readonly table: PrizeTable;
  readonly seed: Uint8Array;
  readonly commitment: string;
  /** How the commitment was made (scheme 3 names the block). */
  readonly scheme: LeafScheme;
  /** The tier recorded with each sale, by position; `UNSOLD` where nothing was sold. */
  readonly recordedTiers: Uint8Array;
  /** A closed block must have every position sold. */
  readonly requireAllSold: boolean;
}

export interface BlockVerification {
  readonly ok: boolean;
  /** Units checked against the re-print. */
  readonly checkedUnits: number;
  readonly problems: string[];
}

const MAX_LISTED_PROBLEMS = 20;

/**
 * Re-prints the block from its revealed seed and checks: counts per tier equal the table, the
 * commitment matches, and every sold unit's recorded tier equals the printed byte at its position.
 */
export function verifyBlock(check: BlockCheck): BlockVerification {
  const problems: string[] = [];
  const units = printBlock(check.table, check.seed);
  const expected = tierCounts(check.table);
  const printed = new Array<number>(expected.length).fill(0);
  for (const tierId of units) printed[tierId]!++;
  expected.forEach((count, tierId) => {
    if (printed[tierId] !== count) problems.push(`tier ${tierId}: printed ${printed[tierId]}, table says ${count}`);
  });
  const commitment = commitmentOf(check.seed, units, check.scheme);
  if (commitment !== check.commitment) problems.push(`commitment mismatch: re-print gives ${commitment}`);
  if (check.recordedTiers.length !== units.length) {
    problems.push(`${check.recordedTiers.length} recorded positions for a block of ${units.length}`);
  }
  let checkedUnits = 0;
  let mismatches = 0;
  let unsold = 0;
  for (let p = 0; p < units.length; p++) {
    const recorded = check.recordedTiers[p] ?? UNSOLD;
    if (recorded === UNSOLD) {
      unsold++;
      continue;
    }
    checkedUnits++;
    if (recorded !== units[p] && ++mismatches <= MAX_LISTED_PROBLEMS) {
      problems.push(`position ${p}: sold as tier ${recorded}, printed tier ${units[p]}`);
    }
  }
  if (mismatches > MAX_LISTED_PROBLEMS) problems.push(`${mismatches} positions differ in all`);
  if (check.requireAllSold && unsold > 0) problems.push(`${unsold} positions have no recorded sale`);
  return { ok: problems.length === 0, checkedUnits, problems };
}
