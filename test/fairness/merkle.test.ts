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
  type LeafScheme,
  type UnitProof,
} from '../../src/fairness/merkle';
import { unitSeed } from '../../src/fairness/printing';
import { nonceFor, Rng } from '../../src/random/rng';

const SEED = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
const sha = (...parts: Uint8Array[]) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();

const V2: LeafScheme = { version: 2 };
const V3: LeafScheme = { version: 3, game: 'noel-de-la-chance', stake: 50, blockId: 'noel-50.3' };
const DOMAIN = { game: 'noel-de-la-chance', stake: 50, blockId: 'noel-50.3' };

/** The tree straight from docs/fairness.md with node:crypto: every level, leaves padded with zeros. */
function referenceLevels(seed: Uint8Array, units: Uint8Array, scheme: LeafScheme): Buffer[][] {
  const depth = treeDepth(units.length);
  const rng = new Rng(seed, nonceFor('leaf-salt'));
  const tag = sha(Buffer.from(`unit-leaf/v3|noel-de-la-chance|50|noel-50.3`, 'utf8'));
  let level: Buffer[] = Array.from({ length: 2 ** depth }, (_, p) => {
    if (p >= units.length) return Buffer.alloc(32);
    const salt = Buffer.alloc(32);
    for (let w = 0; w < 8; w++) salt.writeUInt32LE(rng.nextU32(), 4 * w);
    const position = Buffer.alloc(4);
    position.writeUInt32BE(p);
    if (scheme.version === 3) return sha(tag, tag, Buffer.from([0, 3]), position, Buffer.from([units[p]!]), unitSeed(seed, p));
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

describe('Merkle pages (schemes 2 and 3)', () => {
  it('draws the salts from the ChaCha20 keystream under nonce "leaf-salt", 32 bytes a position', () => {
    const rng = new Rng(SEED, nonceFor('leaf-salt'));
    const stream = Buffer.alloc(32 * 5);
    for (let w = 0; w < 40; w++) stream.writeUInt32LE(rng.nextU32(), 4 * w);
    assert.deepEqual(Buffer.from(leafSalts(SEED, 0, 5)), stream);
    assert.deepEqual(Buffer.from(leafSalts(SEED, 3, 2)), stream.subarray(96, 160), 'an odd start takes the second half of a ChaCha20 block');
  });

  for (const [size, scheme] of [[1, V2], [2, V2], [3, V2], [10, V2], [4_096, V2], [4_097, V2], [9_000, V2], [1, V3], [10, V3], [4_097, V3], [9_000, V3]] as const) {
    it(`builds the documented tree of scheme ${scheme.version} for a ${size}-unit block, and every proof leads to its page root`, () => {
      const units = Uint8Array.from({ length: size }, (_, p) => (p * 7) % 11);
      const levels = referenceLevels(SEED, units, scheme);
      const tree = buildBlockTree(SEED, units, scheme);
      const height = Math.min(12, treeDepth(size));
      assert.equal(tree.pageRoots.length, pageCount(size));
      tree.pageRoots.forEach((root, page) => assert.deepEqual(Buffer.from(root), levels[height]![page], `page ${page}`));
      assert.deepEqual(Buffer.from(tree.root), levels[levels.length - 1]![0]);
      assert.deepEqual(Buffer.from(blockRoot(size, tree.pageRoots)), Buffer.from(tree.root));
      const positions = size <= 16 ? [...units.keys()] : [0, 1, 4_095, 4_096, size - 1].filter((p) => p < size);
      for (const p of positions) {
        const proof = proveUnit(pageTree(SEED, size, pageOf(size, p), pageUnits(units, pageOf(size, p)), scheme), p);
        assert.equal(proof.siblings.length, height);
        assert.equal(proof.tierId, units[p]);
        if (proof.scheme === 'merkle-sha256/v3') assert.equal(proof.unitSeed, Buffer.from(unitSeed(SEED, p)).toString('hex'), 'a scheme 3 proof reveals the unit seed');
        assert.equal(pageRootOfProof(proof, DOMAIN), Buffer.from(tree.pageRoots[pageOf(size, p)]!).toString('hex'), `position ${p}`);
      }
    });
  }

  it('binds a scheme 3 leaf to its block: another game, price or block id leads to another root', () => {
    const units = Uint8Array.from({ length: 10 }, (_, p) => p % 3);
    const proof = proveUnit(pageTree(SEED, 10, 0, units, V3), 4);
    const root = pageRootOfProof(proof, DOMAIN);
    for (const other of [{ ...DOMAIN, game: 'mine-d-or' }, { ...DOMAIN, stake: 100 }, { ...DOMAIN, blockId: 'noel-50.4' }]) {
      assert.notEqual(pageRootOfProof(proof, other), root, JSON.stringify(other));
    }
    assert.equal(pageRootOfProof(proof), undefined, 'a scheme 3 proof needs its domain');
  });

  it('refuses a malformed proof rather than computing a root from it', () => {
    const units = Uint8Array.from({ length: 10 }, (_, p) => p % 3);
    const proof = proveUnit(pageTree(SEED, 10, 0, units, V2), 4);
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
    for (const change of bad) assert.equal(pageRootOfProof({ ...proof, ...change } as UnitProof), undefined, JSON.stringify(change));
  });
});
