import { strict as assert } from 'node:assert';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import {
  checkpointBody,
  hashLeaf,
  keyIdOf,
  verifyCheckpoint,
  verifyCheckpointConsistency,
  verifyConsistency,
  verifyInclusion,
  verifyPageInclusion,
} from '../../src/audit/transparency-log';
import { LogTree } from '../../src/fairness/log-tree';
import { encodeLeaf, type PageLeaf } from '../../src/fairness/page-log';
import { toHex } from '../../src/random/hex';
import type { InclusionReply, SignedCheckpoint } from '../../src/protocol/transparency-log';

/** RFC 9162 §2.1.1's MTH written straight from its definition, to check the kept-hash tree against. */
function mth(leaves: readonly Uint8Array[]): Uint8Array {
  const sha = (...parts: Uint8Array[]) => new Uint8Array(parts.reduce((h, p) => h.update(p), createHash('sha256')).digest());
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return sha(Uint8Array.of(0), leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Uint8Array.of(1), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const leafBytes = (i: number) => new TextEncoder().encode(`leaf ${i}`);

function treeOf(n: number): LogTree {
  const tree = new LogTree();
  for (let i = 0; i < n; i++) tree.append(leafBytes(i));
  return tree;
}

/** A copy of `hash` with one bit flipped. */
function flipped(hash: Uint8Array, bit = 0): Uint8Array {
  const copy = hash.slice();
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
}

const MAX = 40;

describe('transparency log: the tree (RFC 9162 §2.1)', () => {
  it('hashes every tree of 0 to 40 leaves as the RFC’s definition does', () => {
    const tree = new LogTree();
    const leaves: Uint8Array[] = [];
    assert.equal(toHex(tree.root()), toHex(mth([])));
    for (let n = 1; n <= MAX; n++) {
      leaves.push(leafBytes(n - 1));
      tree.append(leaves[n - 1]!);
      assert.equal(toHex(tree.root()), toHex(mth(leaves)), `size ${n}`);
      for (let m = 0; m <= n; m++) assert.equal(toHex(tree.root(m)), toHex(mth(leaves.slice(0, m))), `size ${m} under ${n}`);
    }
  });

  it('gives the empty tree the hash of nothing', () => {
    assert.equal(toHex(new LogTree().root()), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('refuses proofs outside the tree', () => {
    const tree = treeOf(5);
    assert.throws(() => tree.inclusionProof(5, 5), RangeError);
    assert.throws(() => tree.inclusionProof(0, 6), RangeError);
    assert.throws(() => tree.consistencyProof(0, 5), RangeError);
    assert.throws(() => tree.consistencyProof(4, 3), RangeError);
  });
});

/*
 * A proof alone does not bind the tree's size (a leaf's path in a tree of 3 is also one in a
 * tree of 4 under the same root): the size is bound with the root by the checkpoint's signature,
 * whose tamper tests are below.
 */
describe('transparency log: inclusion proofs (RFC 9162 §2.1.3)', () => {
  const tree = treeOf(MAX);

  it('verifies every leaf in every tree of 1 to 40 leaves', async () => {
    for (let n = 1; n <= MAX; n++) {
      const root = tree.root(n);
      for (let i = 0; i < n; i++) {
        const check = await verifyInclusion(await hashLeaf(leafBytes(i)), i, n, tree.inclusionProof(i, n), root);
        assert.ok(check.ok, `leaf ${i} of ${n}: ${!check.ok && check.reason}`);
      }
    }
  });

  it('refuses every altered proof: another leaf, index, root, a flipped node, a node dropped or added, two nodes swapped', async () => {
    for (let n = 1; n <= MAX; n++) {
      const root = tree.root(n);
      for (let i = 0; i < n; i++) {
        const proof = tree.inclusionProof(i, n);
        const leaf = await hashLeaf(leafBytes(i));
        const altered: [string, Promise<{ ok: boolean }>][] = [
          ['leaf', hashLeaf(leafBytes(i + 1)).then((other) => verifyInclusion(other, i, n, proof, root))],
          ['root', verifyInclusion(leaf, i, n, proof, flipped(root))],
          ['index + 1', verifyInclusion(leaf, i + 1, n, proof, root)],
          ['added node', verifyInclusion(leaf, i, n, [...proof, root], root)],
        ];
        if (i > 0) altered.push(['index − 1', verifyInclusion(leaf, i - 1, n, proof, root)]);
        if (proof.length > 0) altered.push(['dropped node', verifyInclusion(leaf, i, n, proof.slice(1), root)]);
        proof.forEach((node, at) => altered.push([`node ${at}`, verifyInclusion(leaf, i, n, proof.map((p, j) => (j === at ? flipped(node, 255) : p)), root)]));
        if (proof.length > 1) altered.push(['swapped', verifyInclusion(leaf, i, n, [proof[1]!, proof[0]!, ...proof.slice(2)], root)]);
        for (const [what, check] of altered) assert.equal((await check).ok, false, `${what}: leaf ${i} of ${n}`);
      }
    }
  });
});

describe('transparency log: consistency proofs (RFC 9162 §2.1.4)', () => {
  const tree = treeOf(MAX);

  it('verifies every pair of sizes 1 ≤ m ≤ n ≤ 40, and the empty tree before any', async () => {
    for (let n = 1; n <= MAX; n++) {
      for (let m = 1; m <= n; m++) {
        const check = await verifyConsistency(m, n, tree.root(m), tree.root(n), tree.consistencyProof(m, n));
        assert.ok(check.ok, `${m} → ${n}: ${!check.ok && check.reason}`);
      }
      assert.ok((await verifyConsistency(0, n, tree.root(0), tree.root(n), [])).ok);
    }
  });

  it('refuses every altered proof: either root, the older size, a flipped node, a node dropped or added, two nodes swapped, the sizes in reverse', async () => {
    for (let n = 2; n <= MAX; n++) {
      for (let m = 1; m < n; m++) {
        const proof = tree.consistencyProof(m, n);
        const [r1, r2] = [tree.root(m), tree.root(n)];
        const altered: [string, Promise<{ ok: boolean }>][] = [
          ['older root', verifyConsistency(m, n, flipped(r1), r2, proof)],
          ['newer root', verifyConsistency(m, n, r1, flipped(r2), proof)],
          ['older size + 1', verifyConsistency(m + 1, n, r1, r2, proof)],
          ['reversed', verifyConsistency(n, m, r2, r1, proof)],
          ['dropped node', verifyConsistency(m, n, r1, r2, proof.slice(1))],
          ['added node', verifyConsistency(m, n, r1, r2, [...proof, r2])],
        ];
        if (m > 1) altered.push(['older size − 1', verifyConsistency(m - 1, n, r1, r2, proof)]);
        proof.forEach((node, at) => altered.push([`node ${at}`, verifyConsistency(m, n, r1, r2, proof.map((p, j) => (j === at ? flipped(node, 7) : p)))]));
        if (proof.length > 1) altered.push(['swapped', verifyConsistency(m, n, r1, r2, [proof[1]!, proof[0]!, ...proof.slice(2)])]);
        for (const [what, check] of altered) assert.equal((await check).ok, false, `${what}: ${m} → ${n}`);
      }
    }
  });

  it('refuses a newer size smaller than the older (a rolled-back log), even with a proof that closes on its roots', async () => {
    // With one node equal to both roots, the walk from 3 down to 1 leaf would end on both roots: only the order of the sizes refuses it.
    const x = tree.root(1);
    const check = await verifyConsistency(3, 1, x, x, [x]);
    assert.equal(check.ok, false);
    assert.match(!check.ok ? check.reason : '', /cannot go from 3 leaves back to 1/);
  });

  it('refuses two checkpoints of one size with different roots', async () => {
    assert.equal((await verifyConsistency(7, 7, tree.root(7), tree.root(8), [])).ok, false);
  });
});

describe('transparency log: signed checkpoints', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
  const other = generateKeyPairSync('ed25519');
  const otherRaw = new Uint8Array(other.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));

  const pageLeaf = (i: number): PageLeaf => ({ scheme: 2, game: 'noel-de-la-chance', stake: 500, blockId: 'noel-de-la-chance-500.0', page: i, root: toHex(createHash('sha256').update(`page ${i}`).digest()), publishedAt: 1_700_000_000_000 + i });
  const tree = new LogTree();
  for (let i = 0; i < 11; i++) tree.append(new TextEncoder().encode(encodeLeaf(pageLeaf(i))));

  async function checkpoint(size: number, key = privateKey, keyRaw = raw): Promise<SignedCheckpoint> {
    const unsigned = { logId: 'test-log', treeSize: size, rootHash: toHex(tree.root(size)), timestamp: 1_700_000_100_000, keyId: await keyIdOf(keyRaw) };
    return { ...unsigned, signature: sign(null, checkpointBody(unsigned), key).toString('base64') };
  }

  async function inclusion(index: number, size: number): Promise<InclusionReply> {
    return { leaf: encodeLeaf(pageLeaf(index)), index, proof: tree.inclusionProof(index, size).map(toHex), checkpoint: await checkpoint(size) };
  }

  it('verifies a checkpoint signed by the log’s key, given as bytes or base64', async () => {
    const c = await checkpoint(11);
    assert.ok((await verifyCheckpoint(c, raw)).ok);
    assert.ok((await verifyCheckpoint(c, Buffer.from(raw).toString('base64'))).ok);
  });

  it('refuses an altered checkpoint: signature, size, root, time, log id, key id, another key', async () => {
    const c = await checkpoint(11);
    const sig = Buffer.from(c.signature, 'base64');
    sig[10]! ^= 1;
    const altered: [string, SignedCheckpoint, Uint8Array][] = [
      ['signature', { ...c, signature: sig.toString('base64') }, raw],
      ['size', { ...c, treeSize: 10 }, raw],
      ['root', { ...c, rootHash: toHex(tree.root(10)) }, raw],
      ['time', { ...c, timestamp: c.timestamp + 1 }, raw],
      ['log id', { ...c, logId: 'other-log' }, raw],
      ['key id', { ...c, keyId: await keyIdOf(otherRaw) }, raw],
      ['another key', c, otherRaw],
      ['signed by another key', await checkpoint(11, other.privateKey), raw],
      ['short signature', { ...c, signature: sig.subarray(0, 63).toString('base64') }, raw],
    ];
    for (const [what, checkpoint, key] of altered) {
      const check = await verifyCheckpoint(checkpoint, key);
      assert.equal(check.ok, false, what);
    }
  });

  it('verifies a page’s inclusion under a signed checkpoint, and gives the leaf’s fields', async () => {
    const check = await verifyPageInclusion(await inclusion(4, 11), raw, { blockId: 'noel-de-la-chance-500.0', page: 4, root: pageLeaf(4).root });
    assert.ok(check.ok && check.leaf.publishedAt === pageLeaf(4).publishedAt, JSON.stringify(check));
  });

  it('refuses an altered inclusion answer: leaf, root in the leaf, index, a proof node, proof order, checkpoint size, another page expected', async () => {
    const reply = await inclusion(4, 11);
    const expected = { blockId: 'noel-de-la-chance-500.0', page: 4, root: pageLeaf(4).root };
    const altered: [string, InclusionReply, typeof expected][] = [
      ['leaf time', { ...reply, leaf: encodeLeaf({ ...pageLeaf(4), publishedAt: 1 }) }, expected],
      ['leaf root', { ...reply, leaf: encodeLeaf({ ...pageLeaf(4), root: pageLeaf(5).root }) }, { ...expected, root: pageLeaf(5).root }],
      ['leaf of another page', { ...reply, leaf: encodeLeaf(pageLeaf(5)) }, { ...expected, page: 5, root: pageLeaf(5).root }],
      ['index', { ...reply, index: 5 }, expected],
      ['proof node', { ...reply, proof: reply.proof.map((p, i) => (i === 1 ? toHex(flipped(Buffer.from(p, 'hex'))) : p)) }, expected],
      ['proof order', { ...reply, proof: [reply.proof[1]!, reply.proof[0]!, ...reply.proof.slice(2)] }, expected],
      ['checkpoint of another size', { ...reply, checkpoint: await checkpoint(10) }, expected],
      ['expected another root', reply, { ...expected, root: pageLeaf(5).root }],
      ['expected another block', reply, { ...expected, blockId: 'noel-de-la-chance-500.1' }],
      ['not a leaf', { ...reply, leaf: 'page-root/v1 2' }, expected],
      ['proof not hashes', { ...reply, proof: ['zz'] }, expected],
    ];
    for (const [what, answer, wanted] of altered) assert.equal((await verifyPageInclusion(answer, raw, wanted)).ok, false, what);
  });

  it('verifies that a newer checkpoint extends one seen before, even under a rotated key', async () => {
    const [older, newer] = [await checkpoint(6), await checkpoint(11)];
    const reply = { from: 6, to: 11, proof: tree.consistencyProof(6, 11).map(toHex) };
    assert.ok((await verifyCheckpointConsistency(older, newer, reply, raw)).ok);
    const rotated = await checkpoint(11, other.privateKey, otherRaw);
    assert.ok((await verifyCheckpointConsistency(older, rotated, reply, otherRaw, raw)).ok);
  });

  it('refuses a newer checkpoint that does not extend the older: altered proof, sizes, other log, swapped order', async () => {
    const [older, newer] = [await checkpoint(6), await checkpoint(11)];
    const reply = { from: 6, to: 11, proof: tree.consistencyProof(6, 11).map(toHex) };
    const altered: [string, SignedCheckpoint, SignedCheckpoint, typeof reply][] = [
      ['proof node', older, newer, { ...reply, proof: reply.proof.map((p, i) => (i === 0 ? toHex(flipped(Buffer.from(p, 'hex'))) : p)) }],
      ['proof sizes', older, newer, { ...reply, from: 5 }],
      ['swapped order', newer, older, { ...reply, from: 11, to: 6 }],
      ['older unsigned', { ...older, treeSize: 5 }, newer, { ...reply, from: 5 }],
    ];
    for (const [what, a, b, proof] of altered) assert.equal((await verifyCheckpointConsistency(a, b, proof, raw)).ok, false, what);
  });
});
