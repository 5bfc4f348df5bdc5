import { createCipheriv, createHash } from 'node:crypto';
import type { UnitProof } from '../protocol/recall';
import { nonceFor } from '../random/rng';
import { domainTag, LEAF_BYTES, leafMessage, type BlockDomain, type LeafScheme } from './leaf-domain';
import { unitSeeds } from './printing';
import { pageCount, pageHeight, pageOf, pageRange, treeDepth } from './page-geometry';
import { be32, compress, expand, IV, midstateOf, NODE_PADDING, STATE, W, writeState } from './sha256-blocks';

export type { LeafScheme, UnitProof };
export { pageCount, pageHeight, pageOf, pagePositions, pageRange, treeDepth } from './page-geometry';

/**
 * A block's Merkle commitments (docs/fairness.md gives them byte for byte): one leaf per
 * position, hashed into a Merkle tree whose bottom 12 levels are *pages* of 4,096 positions.
 *
 * - scheme 3 (every block printed now): leaf(p) = SHA-256(T ‖ T ‖ 00 ‖ 03 ‖ u32be(p) ‖
 *   u8(tierId) ‖ unitSeed(p)), T = SHA-256(`unit-leaf/v3|<game>|<stake>|<blockId>`): the leaf
 *   binds the seed the unit's scenario is drawn from, and names its block (leaf-domain.ts);
 * - scheme 2 (blocks printed before): leaf(p) = SHA-256(00 ‖ 02 ‖ u32be(p) ‖ u8(tierId) ‖
 *   salt(p)), salt(p) = bytes [32p, 32p + 32) of ChaCha20 under key = the block seed, nonce =
 *   "leaf-salt" + 3 zero bytes;
 * - node = SHA-256(left ‖ right), 64 bytes hashed; missing leaves and nodes past the block's end
 *   are the roots of empty subtrees (EMPTY[0] = 32 zero bytes);
 * - a page's root is published before the first sale in that page, so a unit's proof (its
 *   secret and 12 siblings) leads to a root published before it was sold; the block's root (over
 *   the page roots) is complete once every page is published, at the latest when the block closes.
 *
 * Why pages rather than the whole tree at printing: the tree of an 8,016,000-unit block is 24
 * million SHA-256 compressions, seconds of CPU per block, and every server start prints two
 * blocks of each of the nine tables (see docs/fairness.md, "Costs"). A page costs milliseconds
 * and is hashed just ahead of the sales that need it.
 *
 * The builder hashes with the compression function (sha256-blocks.ts) on reused buffers; the
 * verifiers (`pageRootOfProof` here with node:crypto, src/audit/verify-unit/ with WebCrypto)
 * hash straight from the documented bytes: implementations that the tests hold equal.
 */

export const MERKLE_SCHEME = 'merkle-sha256/v3' satisfies UnitProof['scheme'];
export const MERKLE_SCHEME_V2 = 'merkle-sha256/v2' satisfies UnitProof['scheme'];
const HASH_BYTES = 32;
const SALT_NONCE = nonceFor('leaf-salt');

/** The leaves' scheme of a listed block (scheme 1 has no leaves: the commitment is made as scheme 2's). */
export function leafSchemeOf(block: { readonly scheme: 1 | 2 | 3 } & BlockDomain): LeafScheme {
  return block.scheme === 3 ? { version: 3, game: block.game, stake: block.stake, blockId: block.blockId } : { version: 2 };
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

/** How a leaf's hashing starts: scheme 2 from the IV; scheme 3 from its block's tag midstate. */
interface LeafStart {
  readonly version: 2 | 3;
  readonly state: Int32Array;
  /** Bits hashed in all: 39 bytes, after the 64-byte tag prefix under scheme 3. */
  readonly bits: number;
}

function leafStart(scheme: LeafScheme): LeafStart {
  if (scheme.version === 2) return { version: 2, state: IV, bits: LEAF_BYTES * 8 };
  const tag = createHash('sha256').update(domainTag('unit-leaf', scheme), 'utf8').digest();
  return { version: 3, state: midstateOf(Buffer.concat([tag, tag])), bits: (64 + LEAF_BYTES) * 8 };
}

/**
 * Writes leaf(p) for p in [from, from + count) into `out` (32 bytes each); `units[i]` is position
 * from + i, `secrets` its salt or unit seed (32 bytes each).
 */
function hashLeaves(units: Uint8Array, secrets: Uint8Array, from: number, count: number, start: LeafStart, out: Uint8Array): void {
  for (let i = 0; i < count; i++) {
    const p = from + i;
    const s = HASH_BYTES * i;
    // 00 version p(4) tier(1) secret(32) = 39 bytes, then 0x80, zeros, and the bit length.
    W[0] = (start.version << 16) | ((p >>> 24) << 8) | ((p >>> 16) & 255);
    W[1] = (((p >>> 8) & 255) << 24) | ((p & 255) << 16) | (units[i]! << 8) | secrets[s]!;
    for (let k = 0; k < 7; k++) W[2 + k] = be32(secrets, s + 1 + 4 * k);
    W[9] = (secrets[s + 29]! << 24) | (secrets[s + 30]! << 16) | (secrets[s + 31]! << 8) | 0x80;
    W[10] = 0; W[11] = 0; W[12] = 0; W[13] = 0; W[14] = 0;
    W[15] = start.bits;
    expand(W);
    STATE.set(start.state);
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

/**
 * One page's tree: every level from its leaves to its root, and its leaves' secrets. Proofs of
 * any position in the page are read from it (the stores keep the last few they hashed).
 */
export interface PageTree {
  readonly size: number;
  readonly page: number;
  readonly scheme: LeafScheme;
  /** The page's printed tier ids. */
  readonly units: Uint8Array;
  /** Each position's salt (scheme 2) or unit seed (scheme 3), 32 bytes each. */
  readonly secrets: Uint8Array;
  /** levels[k]: the nodes at height k, 32 bytes each; levels[pageHeight] holds the root. */
  readonly levels: readonly Uint8Array[];
}

/** Hashes one page; `pageUnits` are the tier ids of the page's positions only (one GETRANGE). */
export function pageTree(seed: Uint8Array, size: number, page: number, pageUnits: Uint8Array, scheme: LeafScheme): PageTree {
  const { from, count } = pageRange(size, page);
  if (pageUnits.length !== count) throw new RangeError(`page ${page} of a ${size}-unit block holds ${count} units, got ${pageUnits.length}`);
  const secrets = scheme.version === 2 ? leafSalts(seed, from, count) : unitSeeds(seed, from, count);
  const leaves = new Uint8Array(count * HASH_BYTES);
  hashLeaves(pageUnits, secrets, from, count, leafStart(scheme), leaves);
  return { size, page, scheme, units: pageUnits.slice(), secrets, levels: levelsUp(leaves, count, 0, pageHeight(size)) };
}

/** Hashes one page of a whole print (its seed, every unit, and its leaves' scheme). */
export function pageTreeOfPrint(print: { readonly seed: Uint8Array; readonly units: Uint8Array; readonly scheme: LeafScheme }, page: number): PageTree {
  const { from, count } = pageRange(print.units.length, page);
  return pageTree(print.seed, print.units.length, page, print.units.subarray(from, from + count), print.scheme);
}

/** A page tree's root (32 bytes). */
export function rootOfPage(tree: PageTree): Uint8Array {
  return tree.levels[pageHeight(tree.size)]!.slice(0, HASH_BYTES);
}

/** The root of one page (32 bytes). */
export function pageRoot(seed: Uint8Array, size: number, page: number, pageUnits: Uint8Array, scheme: LeafScheme): Uint8Array {
  return rootOfPage(pageTree(seed, size, page, pageUnits, scheme));
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
export function buildBlockTree(seed: Uint8Array, units: Uint8Array, scheme: LeafScheme): { pageRoots: Uint8Array[]; root: Uint8Array } {
  const pageRoots = Array.from({ length: pageCount(units.length) }, (_, page) => {
    const { from, count } = pageRange(units.length, page);
    return pageRoot(seed, units.length, page, units.subarray(from, from + count), scheme);
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
  const secret = Buffer.from(tree.secrets.subarray(at * HASH_BYTES, (at + 1) * HASH_BYTES)).toString('hex');
  const tierId = tree.units[at]!;
  return tree.scheme.version === 2
    ? { scheme: MERKLE_SCHEME_V2, size, position, tierId, salt: secret, siblings }
    : { scheme: MERKLE_SCHEME, size, position, tierId, unitSeed: secret, siblings };
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
 * docs/fairness.md; undefined when the proof is malformed (an unknown scheme, a sibling count
 * that does not fit the size, bad hex, a position or tier out of range). A scheme 3 proof is
 * checked in its block's `domain`. The proof holds when this equals the root published for page
 * `pageOf(size, position)`.
 */
export function pageRootOfProof(proof: UnitProof, domain?: BlockDomain): string | undefined {
  const { size, position, tierId, siblings } = proof;
  const secret = proof.scheme === MERKLE_SCHEME_V2 ? proof.salt : proof.scheme === MERKLE_SCHEME ? proof.unitSeed : undefined;
  if (!Number.isSafeInteger(size) || size < 1 || size > 0x7fffffff) return undefined;
  if (!Number.isSafeInteger(position) || position < 0 || position >= size) return undefined;
  if (!Number.isInteger(tierId) || tierId < 0 || tierId > 255 || typeof secret !== 'string' || !HEX32.test(secret)) return undefined;
  if (!Array.isArray(siblings) || siblings.length !== pageHeight(size) || !siblings.every((s) => typeof s === 'string' && HEX32.test(s))) {
    return undefined;
  }
  if (proof.scheme === MERKLE_SCHEME && !domain) return undefined;
  const leaf = Buffer.from(leafMessage(proof.scheme === MERKLE_SCHEME ? 3 : 2, position, tierId, Buffer.from(secret, 'hex')));
  const hash = createHash('sha256');
  if (proof.scheme === MERKLE_SCHEME) {
    const tag = createHash('sha256').update(domainTag('unit-leaf', domain!), 'utf8').digest();
    hash.update(tag).update(tag);
  }
  let node = hash.update(leaf).digest();
  siblings.forEach((hex, k) => {
    const sibling = Buffer.from(hex, 'hex');
    const isRight = Math.floor(position / 2 ** k) % 2 === 1;
    node = createHash('sha256').update(isRight ? sibling : node).update(isRight ? node : sibling).digest();
  });
  return node.toString('hex');
}
