import { createCipheriv, createHash } from 'node:crypto';
import type { UnitProof } from '../protocol/recall';
import { nonceFor } from '../random/rng';

export type { UnitProof };

/**
 * Scheme v2 of a block's commitments (docs/fairness.md gives it byte for byte): one salted leaf
 * per position, hashed into a Merkle tree whose bottom 12 levels are *pages* of 4,096 positions.
 *
 * - salt(p) = bytes [32p, 32p + 32) of the ChaCha20 keystream (RFC 8439) under key = the block
 *   seed, nonce = "leaf-salt" + 3 zero bytes, block counter from 0;
 * - leaf(p) = SHA-256(0x00 ‖ 0x02 ‖ u32be(p) ‖ u8(tierId) ‖ salt(p)), 39 bytes hashed;
 * - node = SHA-256(left ‖ right), 64 bytes hashed; missing leaves and nodes past the block's end
 *   are the roots of empty subtrees (EMPTY[0] = 32 zero bytes);
 * - a page's root is published before the first sale in that page, so a unit's proof (its salt
 *   and 12 siblings) leads to a root published before it was sold; the block's root (over the
 *   page roots) is complete once every page is published, at the latest when the block closes.
 *
 * Why pages rather than the whole tree at printing: the tree of an 8,016,000-unit block is 24
 * million SHA-256 compressions, seconds of CPU per block, and every server start prints two
 * blocks of each of the nine tables (see docs/fairness.md, "Costs"). A page costs milliseconds
 * and is hashed just ahead of the sales that need it.
 *
 * The builder hashes with the compression function below on reused buffers (node's one-shot
 * SHA-256 cost about 2 µs a call here); the verifier (`pageRootOfProof`) uses node:crypto
 * straight from the documented bytes: two implementations that the tests hold equal.
 */

export const MERKLE_SCHEME: UnitProof['scheme'] = 'merkle-sha256/v2';
/** Height of a page's tree: 4,096 positions a page (fewer for a smaller block). */
export const PAGE_HEIGHT = 12;
const HASH_BYTES = 32;
const SALT_NONCE = nonceFor('leaf-salt');
const LEAF_TAG = 0x00;
const SCHEME_VERSION = 0x02;

/** The whole tree's depth: leaves are padded to 2^depth (a 1-unit block is its own root). */
export function treeDepth(size: number): number {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`block size ${size}`);
  return size === 1 ? 0 : Math.ceil(Math.log2(size));
}

/** `count` salts from position `from`, 32 bytes each, from the native ChaCha20 (RFC 8439). */
export function leafSalts(seed: Uint8Array, from: number, count: number): Uint8Array {
  // Node's chacha20 takes a 16-byte IV: the 32-bit block counter (little-endian), then the nonce.
  const firstBlock = Math.floor(from / 2);
  const iv = Buffer.alloc(16);
  iv.writeUInt32LE(firstBlock, 0);
  iv.set(SALT_NONCE, 4);
  const skip = (from % 2) * HASH_BYTES;
  const stream = createCipheriv('chacha20', seed, iv).update(Buffer.alloc(skip + count * HASH_BYTES));
  return new Uint8Array(stream.buffer, stream.byteOffset + skip, count * HASH_BYTES);
}

// ---------------------------------------------------------------------------------------------
// SHA-256 (FIPS 180-4) for the tree's two message shapes, on reused buffers.

const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const IV = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
const W = new Int32Array(64);
const STATE = new Int32Array(8);

function expand(w: Int32Array): void {
  for (let t = 16; t < 64; t++) {
    const a = w[t - 15]!;
    const b = w[t - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
  }
}

/** One compression of the 64 expanded words `w` into STATE. */
function compress(w: Int32Array): void {
  const h0 = STATE[0]!, h1 = STATE[1]!, h2 = STATE[2]!, h3 = STATE[3]!;
  const h4 = STATE[4]!, h5 = STATE[5]!, h6 = STATE[6]!, h7 = STATE[7]!;
  let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
  for (let t = 0; t < 64; t++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  STATE[0] = h0 + a; STATE[1] = h1 + b; STATE[2] = h2 + c; STATE[3] = h3 + d;
  STATE[4] = h4 + e; STATE[5] = h5 + f; STATE[6] = h6 + g; STATE[7] = h7 + h;
}

/** The padding block of a 64-byte message, expanded once: it is the same for every node. */
const NODE_PADDING = new Int32Array(64);
NODE_PADDING[0] = 0x80000000 | 0;
NODE_PADDING[15] = 512;
expand(NODE_PADDING);

function be32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
}

function writeState(out: Uint8Array, at: number): void {
  for (let i = 0; i < 8; i++) {
    const x = STATE[i]!;
    out[at + 4 * i] = x >>> 24;
    out[at + 4 * i + 1] = (x >>> 16) & 255;
    out[at + 4 * i + 2] = (x >>> 8) & 255;
    out[at + 4 * i + 3] = x & 255;
  }
}

/** Writes leaf(p) for p in [from, from + count) into `out` (32 bytes each); `units[i]` is position from + i. */
function hashLeaves(units: Uint8Array, salts: Uint8Array, from: number, count: number, out: Uint8Array): void {
  for (let i = 0; i < count; i++) {
    const p = from + i;
    const s = HASH_BYTES * i;
    // 0x00 0x02 p(4) tier(1) salt(32) = 39 bytes, then 0x80, zeros, and the bit length 312.
    W[0] = (LEAF_TAG << 24) | (SCHEME_VERSION << 16) | ((p >>> 24) << 8) | ((p >>> 16) & 255);
    W[1] = (((p >>> 8) & 255) << 24) | ((p & 255) << 16) | (units[i]! << 8) | salts[s]!;
    for (let k = 0; k < 7; k++) W[2 + k] = be32(salts, s + 1 + 4 * k);
    W[9] = (salts[s + 29]! << 24) | (salts[s + 30]! << 16) | (salts[s + 31]! << 8) | 0x80;
    W[10] = 0; W[11] = 0; W[12] = 0; W[13] = 0; W[14] = 0;
    W[15] = 39 * 8;
    expand(W);
    STATE.set(IV);
    compress(W);
    writeState(out, HASH_BYTES * i);
  }
}

/** Hashes pairs of `level` (count nodes, the last one paired with `empty` if odd) into a new level. */
function hashLevel(level: Uint8Array, count: number, empty: Uint8Array): Uint8Array {
  const up = Math.ceil(count / 2);
  const out = new Uint8Array(up * HASH_BYTES);
  for (let i = 0; i < up; i++) {
    const left = 2 * i * HASH_BYTES;
    for (let k = 0; k < 8; k++) W[k] = be32(level, left + 4 * k);
    if (2 * i + 1 < count) for (let k = 0; k < 8; k++) W[8 + k] = be32(level, left + HASH_BYTES + 4 * k);
    else for (let k = 0; k < 8; k++) W[8 + k] = be32(empty, 4 * k);
    expand(W);
    STATE.set(IV);
    compress(W);
    compress(NODE_PADDING);
    writeState(out, HASH_BYTES * i);
  }
  return out;
}


/** EMPTY[k]: the root of an empty subtree of height k (EMPTY[0] = 32 zero bytes). */
const EMPTY: Uint8Array[] = [new Uint8Array(HASH_BYTES)];
function emptyAt(height: number): Uint8Array {
  while (EMPTY.length <= height) {
    const below = EMPTY[EMPTY.length - 1]!;
    EMPTY.push(createHash('sha256').update(below).update(below).digest());
  }
  return EMPTY[height]!;
}

/** Every level from `level` (at `height`, `count` nodes) up to height `top`. */
function levelsUp(level: Uint8Array, count: number, height: number, top: number): Uint8Array[] {
  const levels = [level];
  for (let k = height; k < top; k++) {
    level = hashLevel(level, count, emptyAt(k));
    count = Math.ceil(count / 2);
    levels.push(level);
  }
  return levels;
}

/** Height of the pages of a block of `size`: 12, or the whole tree's depth when smaller. */
export function pageHeight(size: number): number {
  return Math.min(PAGE_HEIGHT, treeDepth(size));
}

/** Positions per page of a block of `size`. */
export function pagePositions(size: number): number {
  return 2 ** pageHeight(size);
}

export function pageCount(size: number): number {
  return Math.ceil(size / pagePositions(size));
}

/** The page holding `position`. */
export function pageOf(size: number, position: number): number {
  return Math.floor(position / pagePositions(size));
}

/** A page's positions: [from, from + count). */
export function pageRange(size: number, page: number): { from: number; count: number } {
  const per = pagePositions(size);
  return { from: page * per, count: Math.min(per, size - page * per) };
}

/**
 * One page's tree: every level from its leaves to its root, and its salts. Proofs of any
 * position in the page are read from it (the stores keep the last few they hashed).
 */
export interface PageTree {
  readonly size: number;
  readonly page: number;
  /** The page's printed tier ids. */
  readonly units: Uint8Array;
  readonly salts: Uint8Array;
  /** levels[k]: the nodes at height k, 32 bytes each; levels[pageHeight] holds the root. */
  readonly levels: readonly Uint8Array[];
}

/** Hashes one page; `pageUnits` are the tier ids of the page's positions only (one GETRANGE). */
export function pageTree(seed: Uint8Array, size: number, page: number, pageUnits: Uint8Array): PageTree {
  const { from, count } = pageRange(size, page);
  if (pageUnits.length !== count) throw new RangeError(`page ${page} of a ${size}-unit block holds ${count} units, got ${pageUnits.length}`);
  const salts = leafSalts(seed, from, count);
  const leaves = new Uint8Array(count * HASH_BYTES);
  hashLeaves(pageUnits, salts, from, count, leaves);
  return { size, page, units: pageUnits.slice(), salts, levels: levelsUp(leaves, count, 0, pageHeight(size)) };
}

/** Hashes one page of a whole print (its seed and every unit). */
export function pageTreeOfPrint(print: { readonly seed: Uint8Array; readonly units: Uint8Array }, page: number): PageTree {
  const { from, count } = pageRange(print.units.length, page);
  return pageTree(print.seed, print.units.length, page, print.units.subarray(from, from + count));
}

/** A page tree's root (32 bytes). */
export function rootOfPage(tree: PageTree): Uint8Array {
  return tree.levels[pageHeight(tree.size)]!.slice(0, HASH_BYTES);
}

/** The root of one page (32 bytes). */
export function pageRoot(seed: Uint8Array, size: number, page: number, pageUnits: Uint8Array): Uint8Array {
  return rootOfPage(pageTree(seed, size, page, pageUnits));
}

/** The block's root over its page roots (all of them, in order). */
export function blockRoot(size: number, pageRoots: readonly Uint8Array[]): Uint8Array {
  if (pageRoots.length !== pageCount(size)) throw new RangeError(`${pageRoots.length} page roots for ${pageCount(size)} pages`);
  const level = new Uint8Array(pageRoots.length * HASH_BYTES);
  pageRoots.forEach((root, i) => level.set(root, i * HASH_BYTES));
  const levels = levelsUp(level, pageRoots.length, pageHeight(size), treeDepth(size));
  return levels[levels.length - 1]!.slice(0, HASH_BYTES);
}

/** Every page root and the block's root, from the seed and the whole printed block. */
export function buildBlockTree(seed: Uint8Array, units: Uint8Array): { pageRoots: Uint8Array[]; root: Uint8Array } {
  const pageRoots = Array.from({ length: pageCount(units.length) }, (_, page) => {
    const { from, count } = pageRange(units.length, page);
    return pageRoot(seed, units.length, page, units.subarray(from, from + count));
  });
  return { pageRoots, root: blockRoot(units.length, pageRoots) };
}

/** The proof of `position`, read from the tree of the page that holds it. Never the whole block. */
export function proveUnit(tree: PageTree, position: number): UnitProof {
  const { size, page } = tree;
  if (!Number.isSafeInteger(position) || pageOf(size, position) !== page || position >= size) throw new RangeError(`position ${position} is not in page ${page}`);
  const { from } = pageRange(size, page);
  const siblings: string[] = [];
  for (let k = 0; k < pageHeight(size); k++) {
    const sibling = ((position - from) >>> k) ^ 1;
    const level = tree.levels[k]!;
    const bytes = (sibling + 1) * HASH_BYTES <= level.length ? level.subarray(sibling * HASH_BYTES, (sibling + 1) * HASH_BYTES) : emptyAt(k);
    siblings.push(Buffer.from(bytes).toString('hex'));
  }
  const at = position - from;
  return {
    scheme: MERKLE_SCHEME,
    size,
    position,
    tierId: tree.units[at]!,
    salt: Buffer.from(tree.salts.subarray(at * HASH_BYTES, (at + 1) * HASH_BYTES)).toString('hex'),
    siblings,
  };
}

/** The last few page trees a store hashed, so proofs in a page sold recently cost no hashing. */
export class PageTreeCache {
  private readonly trees = new Map<string, PageTree>();

  constructor(private readonly limit = 8) {}

  get(key: string): PageTree | undefined {
    const tree = this.trees.get(key);
    if (tree) {
      this.trees.delete(key);
      this.trees.set(key, tree);
    }
    return tree;
  }

  set(key: string, tree: PageTree): PageTree {
    this.trees.delete(key);
    this.trees.set(key, tree);
    if (this.trees.size > this.limit) this.trees.delete(this.trees.keys().next().value!);
    return tree;
  }
}

const HEX32 = /^[0-9a-f]{64}$/;

/**
 * The page root a proof leads to (hex), computed with node:crypto straight from
 * docs/fairness.md; undefined when the proof is malformed (another scheme, a sibling count
 * that does not fit the size, bad hex, a position or tier out of range). The proof holds when
 * this equals the root published for page `pageOf(size, position)`.
 */
export function pageRootOfProof(proof: UnitProof): string | undefined {
  const { size, position, tierId, salt, siblings } = proof;
  if (proof.scheme !== MERKLE_SCHEME || !Number.isSafeInteger(size) || size < 1 || size > 0x7fffffff) return undefined;
  if (!Number.isSafeInteger(position) || position < 0 || position >= size) return undefined;
  if (!Number.isInteger(tierId) || tierId < 0 || tierId > 255 || typeof salt !== 'string' || !HEX32.test(salt)) return undefined;
  if (!Array.isArray(siblings) || siblings.length !== pageHeight(size) || !siblings.every((s) => typeof s === 'string' && HEX32.test(s))) {
    return undefined;
  }
  const leaf = Buffer.alloc(39);
  leaf[0] = LEAF_TAG;
  leaf[1] = SCHEME_VERSION;
  leaf.writeUInt32BE(position, 2);
  leaf[6] = tierId;
  leaf.write(salt, 7, 'hex');
  let node = createHash('sha256').update(leaf).digest();
  siblings.forEach((hex, k) => {
    const sibling = Buffer.from(hex, 'hex');
    const isRight = Math.floor(position / 2 ** k) % 2 === 1;
    node = createHash('sha256').update(isRight ? sibling : node).update(isRight ? node : sibling).digest();
  });
  return node.toString('hex');
}
