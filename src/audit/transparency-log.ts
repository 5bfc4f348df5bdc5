import { decodeLeaf, type PageLeaf } from '../fairness/page-log';
import type { ConsistencyReply, InclusionReply, SignedCheckpoint } from '../protocol/transparency-log';
import { fromHex, isHex, toHex } from '../random/hex';
import { sha256 } from './verify-unit/hashing';

/**
 * Checks what the log of page roots publishes (docs/fairness.md, "Checkpoints"): a checkpoint's
 * Ed25519 signature, a leaf's inclusion proof (RFC 9162 §2.1.3.2) and the consistency of two
 * checkpoints (§2.1.4.2). Isomorphic: SHA-256 and Ed25519 come from `globalThis.crypto.subtle`
 * (Node 22 and the browsers), no `node:` import. Each check answers `{ ok }` or the reason it failed.
 */

export interface LogCheckFailure {
  readonly ok: false;
  readonly reason: string;
}
export type LogCheck = { readonly ok: true } | LogCheckFailure;

const OK: LogCheck = { ok: true };
const fail = (reason: string): LogCheckFailure => ({ ok: false, reason });

const CHECKPOINT_TAG = 'lottery-checkpoint/v1';

/** The bytes a checkpoint's signature covers (its text, UTF-8). */
export function checkpointBody(c: Omit<SignedCheckpoint, 'signature'>): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`${CHECKPOINT_TAG}\n${c.logId}\n${c.treeSize}\n${c.rootHash}\n${c.timestamp}\n${c.keyId}\n`);
}

const subtle = () => globalThis.crypto.subtle;

const LEAF_PREFIX = Uint8Array.of(0);
const NODE_PREFIX = Uint8Array.of(1);

/** RFC 9162 leaf hash: SHA-256(0x00 ‖ leaf bytes). */
export function hashLeaf(leaf: Uint8Array): Promise<Uint8Array> {
  return sha256(LEAF_PREFIX, leaf);
}

function hashChildren(left: Uint8Array, right: Uint8Array): Promise<Uint8Array> {
  return sha256(NODE_PREFIX, left, right);
}

function fromBase64(text: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** 32-byte hashes from lowercase hex, or undefined when one is not. */
function hashes(hexes: readonly unknown[]): Uint8Array[] | undefined {
  return hexes.every((h) => isHex(h, 32)) ? (hexes as string[]).map(fromHex) : undefined;
}

const isSize = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const odd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

/** Right-shifts both until fn is odd or 0 (§2.1.3.2 step 4.b, §2.1.4.2 step 6.b.ii); sizes past 2³² stay exact. */
function upToOdd(fn: number, sn: number): [number, number] {
  while (!odd(fn) && fn !== 0) {
    fn = half(fn);
    sn = half(sn);
  }
  return [fn, sn];
}

/** The id of a raw Ed25519 public key: the first 8 bytes of its SHA-256, in hex. */
export async function keyIdOf(rawKey: Uint8Array): Promise<string> {
  return toHex((await sha256(rawKey)).subarray(0, 8));
}

/** A checkpoint's shape, key id and signature under the raw 32-byte public key (base64 or bytes). */
export async function verifyCheckpoint(checkpoint: SignedCheckpoint, publicKey: string | Uint8Array): Promise<LogCheck> {
  const raw = typeof publicKey === 'string' ? fromBase64(publicKey) : publicKey;
  if (raw?.length !== 32) return fail('the public key is not 32 bytes of base64');
  const c = checkpoint;
  if (!c || typeof c.logId !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(c.logId) || !isSize(c.treeSize) || !isSize(c.timestamp)) return fail('the checkpoint is not of the documented shape');
  if (typeof c.rootHash !== 'string' || !/^[0-9a-f]{64}$/.test(c.rootHash) || typeof c.keyId !== 'string') return fail('the checkpoint is not of the documented shape');
  if (c.keyId !== (await keyIdOf(raw))) return fail(`the checkpoint names key ${c.keyId}, not the key given`);
  const signature = typeof c.signature === 'string' ? fromBase64(c.signature) : undefined;
  if (signature?.length !== 64) return fail('the signature is not 64 bytes of base64');
  // Copies: WebCrypto's types take bytes over an ArrayBuffer, never a shared one.
  const key = await subtle().importKey('raw', new Uint8Array(raw), { name: 'Ed25519' }, false, ['verify']);
  const valid = await subtle().verify({ name: 'Ed25519' }, key, new Uint8Array(signature), checkpointBody(c));
  return valid ? OK : fail('the checkpoint’s signature does not verify under the log’s key');
}

/** RFC 9162 §2.1.3.2: the leaf hash at `index` leads by `proof` to `root` of a tree of `size`. */
export async function verifyInclusion(leafHash: Uint8Array, index: number, size: number, proof: readonly Uint8Array[], root: Uint8Array): Promise<LogCheck> {
  if (!isSize(index) || !isSize(size) || index >= size) return fail(`leaf ${index} is not in a tree of ${size}`);
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return fail('the inclusion proof is longer than the tree is deep');
    if (odd(fn) || fn === sn) {
      r = await hashChildren(p, r);
      [fn, sn] = upToOdd(fn, sn);
    } else {
      r = await hashChildren(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return fail('the inclusion proof is shorter than the tree is deep');
  return equal(r, root) ? OK : fail('the inclusion proof does not lead to the tree’s root');
}

/** RFC 9162 §2.1.4.2: the tree of `size1` leaves (`root1`) is a prefix of that of `size2` (`root2`). */
export async function verifyConsistency(size1: number, size2: number, root1: Uint8Array, root2: Uint8Array, proof: readonly Uint8Array[]): Promise<LogCheck> {
  if (!isSize(size1) || !isSize(size2) || size1 > size2) return fail(`the log cannot go from ${size1} leaves back to ${size2}`);
  if (size1 === size2) {
    if (proof.length !== 0) return fail('a consistency proof between equal sizes must be empty');
    return equal(root1, root2) ? OK : fail('two checkpoints of the same size have different roots');
  }
  if (size1 === 0) return proof.length === 0 ? OK : fail('the empty tree needs no consistency proof');
  if (proof.length === 0) return fail('the consistency proof is empty');
  const path = Number.isInteger(Math.log2(size1)) ? [root1, ...proof] : [...proof];
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return fail('the consistency proof is longer than the trees are deep');
    if (odd(fn) || fn === sn) {
      fr = await hashChildren(c, fr);
      sr = await hashChildren(c, sr);
      [fn, sn] = upToOdd(fn, sn);
    } else {
      sr = await hashChildren(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return fail('the consistency proof is shorter than the trees are deep');
  if (!equal(fr, root1)) return fail('the consistency proof does not lead to the older checkpoint’s root');
  return equal(sr, root2) ? OK : fail('the consistency proof does not lead to the newer checkpoint’s root');
}

/** What a page's inclusion check found: its leaf's fields when it verified. */
export type PageInclusionCheck = LogCheckFailure | { readonly ok: true; readonly leaf: PageLeaf };

/**
 * An inclusion answer, whole: its checkpoint is signed by `publicKey`, its leaf names the page
 * expected (block, page, root), and its proof leads from the leaf to the checkpoint's root.
 */
export async function verifyPageInclusion(
  reply: InclusionReply,
  publicKey: string | Uint8Array,
  expected: { readonly blockId: string; readonly page: number; readonly root: string },
): Promise<PageInclusionCheck> {
  const signed = await verifyCheckpoint(reply.checkpoint, publicKey);
  if (!signed.ok) return signed;
  const leaf = typeof reply.leaf === 'string' ? decodeLeaf(reply.leaf) : undefined;
  if (!leaf) return fail('the leaf is not a page root of the documented form');
  if (leaf.blockId !== expected.blockId || leaf.page !== expected.page) return fail(`the leaf names page ${leaf.page} of block ${leaf.blockId}, not page ${expected.page} of ${expected.blockId}`);
  if (leaf.root !== expected.root.toLowerCase()) return fail('the leaf’s page root is not the one of the proof');
  const proof = Array.isArray(reply.proof) ? hashes(reply.proof) : undefined;
  if (!proof) return fail('the inclusion proof is not a list of 32-byte hashes');
  const included = await verifyInclusion(await hashLeaf(new TextEncoder().encode(reply.leaf)), reply.index, reply.checkpoint.treeSize, proof, fromHex(reply.checkpoint.rootHash));
  return included.ok ? { ok: true, leaf } : included;
}

/**
 * A newer checkpoint extends one seen before: both signed by `publicKey` (the older one may be
 * under a key of before, `olderKey`), same log, and the consistency proof between them verifies.
 */
export async function verifyCheckpointConsistency(
  older: SignedCheckpoint,
  newer: SignedCheckpoint,
  reply: ConsistencyReply,
  publicKey: string | Uint8Array,
  olderKey: string | Uint8Array = publicKey,
): Promise<LogCheck> {
  for (const [which, c, key] of [['older', older, olderKey], ['newer', newer, publicKey]] as const) {
    const signed = await verifyCheckpoint(c, key);
    if (!signed.ok) return fail(`${which} checkpoint: ${signed.reason}`);
  }
  if (older.logId !== newer.logId) return fail(`the checkpoints are of two logs (${older.logId}, ${newer.logId})`);
  if (reply.from !== older.treeSize || reply.to !== newer.treeSize) return fail(`the proof is from ${reply.from} to ${reply.to}, not from ${older.treeSize} to ${newer.treeSize}`);
  const proof = Array.isArray(reply.proof) ? hashes(reply.proof) : undefined;
  if (!proof) return fail('the consistency proof is not a list of 32-byte hashes');
  return verifyConsistency(older.treeSize, newer.treeSize, fromHex(older.rootHash), fromHex(newer.rootHash), proof);
}
