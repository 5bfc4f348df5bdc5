import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import {
  blockRoot,
  buildBlockTree,
  leafSalts,
  pageCount,
  pageOf,
  pageRange,
  pageRootOfProof,
  pageTree,
  proveUnit,
  treeDepth,
  type UnitProof,
} from '../../src/dealer/merkle';
import { nonceFor, Rng } from '../../src/random/rng';

const SEED = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
const sha = (...parts: Uint8Array[]) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();

/** The tree straight from docs/fairness.md with node:crypto: every level, leaves padded with zeros. */
function referenceLevels(seed: Uint8Array, units: Uint8Array): Buffer[][] {
  const depth = treeDepth(units.length);
  const rng = new Rng(seed, nonceFor('leaf-salt'));
  let level: Buffer[] = Array.from({ length: 2 ** depth }, (_, p) => {
    if (p >= units.length) return Buffer.alloc(32);
    const salt = Buffer.alloc(32);
    for (let w = 0; w < 8; w++) salt.writeUInt32LE(rng.nextU32(), 4 * w);
    const position = Buffer.alloc(4);
    position.writeUInt32BE(p);
    return sha(Buffer.from([0, 2]), position, Buffer.from([units[p]!]), salt);
  });
  const levels = [level];
  while (level.length > 1) {
    level = Array.from({ length: level.length / 2 }, (_, i) => sha(level[2 * i]!, level[2 * i + 1]!));
    levels.push(level);
  }
  return levels;
}

function pageUnits(units: Uint8Array, page: number): Uint8Array {
  const { from, count } = pageRange(units.length, page);
  return units.subarray(from, from + count);
}

describe('Merkle pages (scheme 2)', () => {
  it('draws the salts from the ChaCha20 keystream under nonce "leaf-salt", 32 bytes a position', () => {
    const rng = new Rng(SEED, nonceFor('leaf-salt'));
    const stream = Buffer.alloc(32 * 5);
    for (let w = 0; w < 40; w++) stream.writeUInt32LE(rng.nextU32(), 4 * w);
    assert.deepEqual(Buffer.from(leafSalts(SEED, 0, 5)), stream);
    assert.deepEqual(Buffer.from(leafSalts(SEED, 3, 2)), stream.subarray(96, 160), 'an odd start takes the second half of a ChaCha20 block');
  });

  for (const size of [1, 2, 3, 10, 4_096, 4_097, 9_000]) {
    it(`builds the documented tree for a ${size}-unit block, and every proof leads to its page root`, () => {
      const units = Uint8Array.from({ length: size }, (_, p) => (p * 7) % 11);
      const levels = referenceLevels(SEED, units);
      const tree = buildBlockTree(SEED, units);
      const height = Math.min(12, treeDepth(size));
      assert.equal(tree.pageRoots.length, pageCount(size));
      tree.pageRoots.forEach((root, page) => assert.deepEqual(Buffer.from(root), levels[height]![page], `page ${page}`));
      assert.deepEqual(Buffer.from(tree.root), levels[levels.length - 1]![0]);
      assert.deepEqual(Buffer.from(blockRoot(size, tree.pageRoots)), Buffer.from(tree.root));
      const positions = size <= 16 ? [...units.keys()] : [0, 1, 4_095, 4_096, size - 1].filter((p) => p < size);
      for (const p of positions) {
        const proof = proveUnit(pageTree(SEED, size, pageOf(size, p), pageUnits(units, pageOf(size, p))), p);
        assert.equal(proof.siblings.length, height);
        assert.equal(proof.tierId, units[p]);
        assert.equal(pageRootOfProof(proof), Buffer.from(tree.pageRoots[pageOf(size, p)]!).toString('hex'), `position ${p}`);
      }
    });
  }

  it('refuses a malformed proof rather than computing a root from it', () => {
    const units = Uint8Array.from({ length: 10 }, (_, p) => p % 3);
    const proof = proveUnit(pageTree(SEED, 10, 0, units), 4);
    const bad: Partial<UnitProof>[] = [
      { scheme: 'merkle-sha256/v1' as never },
      { siblings: proof.siblings.slice(1) },
      { siblings: [...proof.siblings, proof.siblings[0]!] },
      { position: 10 },
      { position: -1 },
      { tierId: 256 },
      { salt: 'zz'.repeat(32) },
      { size: 0 },
    ];
    for (const change of bad) assert.equal(pageRootOfProof({ ...proof, ...change }), undefined, JSON.stringify(change));
  });
});
