import { createHash } from 'node:crypto';

/**
 * The Merkle tree of an append-only log as RFC 9162 §2.1 defines it: leaf hash
 * SHA-256(0x00 ‖ leaf), node hash SHA-256(0x01 ‖ left ‖ right), a tree of n > 1 leaves split
 * after the largest power of two below n; the empty tree's hash is SHA-256 of nothing. It keeps
 * the hash of every complete aligned subtree (2n − 1 hashes of 32 bytes for n leaves), so a
 * root, an inclusion proof (§2.1.3.1) or a consistency proof (§2.1.4.1) at any past size costs
 * O(log² n) hashes at most. The verifier of the proofs is src/audit/transparency-log.ts.
 */

const HASH = 32;

function leafHash(leaf: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(Uint8Array.of(0)).update(leaf).digest());
}

function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(Uint8Array.of(1)).update(left).update(right).digest());
}

const EMPTY_ROOT = new Uint8Array(createHash('sha256').digest());

/** The largest power of two strictly below n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** 32-byte hashes in one growing buffer: a level of the tree. */
class HashRow {
  private bytes = new Uint8Array(HASH * 64);
  length = 0;

  push(hash: Uint8Array): void {
    if ((this.length + 1) * HASH > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes.set(hash, this.length * HASH);
    this.length++;
  }

  at(i: number): Uint8Array {
    return this.bytes.subarray(i * HASH, (i + 1) * HASH);
  }
}

export class LogTree {
  /** rows[h].at(i): the hash of leaves [i·2^h, (i+1)·2^h), once they are all in. */
  private readonly rows: HashRow[] = [new HashRow()];

  get size(): number {
    return this.rows[0]!.length;
  }

  append(leaf: Uint8Array): number {
    const index = this.size;
    this.rows[0]!.push(leafHash(leaf));
    // Each subtree the new leaf completes gets its hash.
    for (let h = 0, i = index; i % 2 === 1; h++, i = (i - 1) / 2) {
      if (!this.rows[h + 1]) this.rows.push(new HashRow());
      this.rows[h + 1]!.push(nodeHash(this.rows[h]!.at(i - 1), this.rows[h]!.at(i)));
    }
    return index;
  }

  /** The leaf hash at `index`. */
  leafHashAt(index: number): Uint8Array {
    this.checkSize(index + 1);
    return this.rows[0]!.at(index).slice();
  }

  /** MTH of the first `size` leaves (the whole log by default). */
  root(size = this.size): Uint8Array {
    this.checkSize(size);
    return size === 0 ? EMPTY_ROOT.slice() : this.subtree(0, size).slice();
  }

  /** PATH(index, D[0:size]) of RFC 9162 §2.1.3.1: sibling hashes from the leaf up. */
  inclusionProof(index: number, size = this.size): Uint8Array[] {
    this.checkSize(size);
    if (!Number.isSafeInteger(index) || index < 0 || index >= size) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
    const proof: Uint8Array[] = [];
    this.path(index, 0, size, proof);
    return proof.reverse();
  }

  /** PROOF(older, D[0:newer]) of RFC 9162 §2.1.4.1, 1 ≤ older ≤ newer (empty when equal). */
  consistencyProof(older: number, newer = this.size): Uint8Array[] {
    this.checkSize(newer);
    if (!Number.isSafeInteger(older) || older < 1 || older > newer) throw new RangeError(`no consistency proof from ${older} to ${newer}`);
    const proof: Uint8Array[] = [];
    this.subproof(older, 0, newer, true, proof);
    return proof.reverse();
  }

  /** Pushes the path's hashes top down (reversed by the caller). */
  private path(m: number, from: number, to: number, proof: Uint8Array[]): void {
    if (to - from === 1) return;
    const k = splitPoint(to - from);
    if (m < k) {
      proof.push(this.subtree(from + k, to));
      this.path(m, from, from + k, proof);
    } else {
      proof.push(this.subtree(from, from + k));
      this.path(m - k, from + k, to, proof);
    }
  }

  private subproof(m: number, from: number, to: number, whole: boolean, proof: Uint8Array[]): void {
    const n = to - from;
    if (m === n) {
      if (!whole) proof.push(this.subtree(from, to));
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      proof.push(this.subtree(from + k, to));
      this.subproof(m, from, from + k, whole, proof);
    } else {
      proof.push(this.subtree(from, from + k));
      this.subproof(m - k, from + k, to, false, proof);
    }
  }

  /** MTH(D[from:to]), to > from: a kept hash when the subtree is complete and aligned. */
  private subtree(from: number, to: number): Uint8Array {
    const n = to - from;
    const height = Math.log2(n);
    if (Number.isInteger(height) && from % n === 0) return this.rows[height]!.at(from / n);
    const k = splitPoint(n);
    return nodeHash(this.subtree(from, from + k), this.subtree(from + k, to));
  }

  private checkSize(size: number): void {
    if (!Number.isSafeInteger(size) || size < 0 || size > this.size) throw new RangeError(`the log has ${this.size} leaves, not ${size}`);
  }
}
