import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { LogTree } from '../../src/fairness/log-tree';

/** The server's log of page roots: what it refuses to prove, and that what it gives is its own copy. */
describe('the log tree: its arguments and its growth', () => {
  const leaf = (i: number) => new TextEncoder().encode(`leaf ${i}`);
  const treeOf = (n: number) => {
    const tree = new LogTree();
    for (let i = 0; i < n; i++) tree.append(leaf(i));
    return tree;
  };

  it('refuses a size, a leaf or an older size the log does not have, saying which', () => {
    const tree = treeOf(5);
    for (const size of [-1, 6, 1.5]) {
      assert.throws(() => tree.root(size), new RegExp(`^RangeError: the log has 5 leaves, not ${size}$`));
      assert.throws(() => tree.inclusionProof(0, size), /^RangeError: the log has 5 leaves/);
      assert.throws(() => tree.consistencyProof(1, size), /^RangeError: the log has 5 leaves/);
    }
    for (const index of [-1, 5, 0.5]) assert.throws(() => tree.inclusionProof(index, 5), new RegExp(`^RangeError: leaf ${index} is not in a tree of 5$`));
    for (const older of [0, 6, 1.5]) assert.throws(() => tree.consistencyProof(older, 5), new RegExp(`^RangeError: no consistency proof from ${older} to 5$`));
    assert.throws(() => tree.leafHashAt(5), /^RangeError: the log has 5 leaves, not 6$/);
  });

  it('gives copies: a root or leaf hash changed by its reader changes nothing in the log', () => {
    const tree = treeOf(4);
    const leafHash = createHash('sha256').update(Uint8Array.of(0)).update(leaf(2)).digest();
    assert.deepEqual(Buffer.from(tree.leafHashAt(2)), leafHash);
    for (const take of [() => tree.root(), () => tree.root(0), () => tree.leafHashAt(2)]) {
      const before = Buffer.from(take());
      take().fill(0);
      assert.deepEqual(Buffer.from(take()), before);
    }
  });

  it('keeps every hash as it grows past its first buffers (64 hashes a level)', () => {
    const big = treeOf(300);
    const fresh = treeOf(300);
    const sha = (...parts: Uint8Array[]) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();
    // The first 65 leaves: 64 in a kept subtree, the 65th after the first buffer grew.
    const root64 = Buffer.from(big.root(64));
    assert.deepEqual(Buffer.from(big.root(65)), sha(Uint8Array.of(1), root64, sha(Uint8Array.of(0), leaf(64))));
    assert.deepEqual(Buffer.from(big.root(300)), Buffer.from(fresh.root(300)));
    assert.deepEqual(Buffer.from(big.leafHashAt(299)), sha(Uint8Array.of(0), leaf(299)));
  });
});
