import { strict as assert } from 'node:assert';
import { generateKeyPairSync, sign } from 'node:crypto';
import {
  checkpointBody, hashLeaf, keyIdOf, verifyCheckpoint, verifyCheckpointConsistency, verifyConsistency, verifyInclusion, verifyPageInclusion, type LogCheck,
} from '../../src/audit/transparency-log';
import { LogTree } from '../../src/fairness/log-tree';
import { encodeLeaf, type PageLeaf } from '../../src/fairness/page-log';
import { toHex } from '../../src/random/hex';
import type { SignedCheckpoint } from '../../src/protocol/transparency-log';

/** Each refusal of the log's checks, for the one thing wrong, with the reason it gives. */
describe('transparency log: what each check refuses, and why', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
  const pageLeaf = (i: number): PageLeaf => ({ scheme: 2, game: 'noel-de-la-chance', stake: 500, blockId: 'noel-de-la-chance-500.0', page: i, root: toHex(new Uint8Array(32).fill(i)), publishedAt: 1_700_000_000_000 + i });
  const tree = new LogTree();
  for (let i = 0; i < 6; i++) tree.append(new TextEncoder().encode(encodeLeaf(pageLeaf(i))));

  async function checkpoint(size: number, changed: Partial<SignedCheckpoint> = {}): Promise<SignedCheckpoint> {
    const unsigned = { logId: 'test-log', treeSize: size, rootHash: toHex(tree.root(size)), timestamp: 1_700_000_100_000, keyId: await keyIdOf(raw), ...changed };
    return { ...unsigned, signature: sign(null, checkpointBody(unsigned), privateKey).toString('base64'), ...changed };
  }
  const reasonOf = (check: LogCheck) => (check.ok ? 'ok' : check.reason);

  it('refuses a checkpoint of another shape than the documented one, field by field', async () => {
    assert.equal(reasonOf(await verifyCheckpoint(await checkpoint(6), raw)), 'ok');
    assert.equal(reasonOf(await verifyCheckpoint(await checkpoint(6), Buffer.from(raw).toString('base64'))), 'ok', 'the key in base64');
    assert.equal(reasonOf(await verifyCheckpoint(await checkpoint(6), raw.subarray(1))), 'the public key is not 32 bytes of base64');
    assert.equal(reasonOf(await verifyCheckpoint(await checkpoint(6), '%%%')), 'the public key is not 32 bytes of base64');
    const shape = 'the checkpoint is not of the documented shape';
    for (const changed of [
      { logId: 7 }, { logId: '' }, { logId: 'a b' }, { logId: ' a' }, { logId: 'a ' }, { logId: 'x'.repeat(129) },
      { treeSize: -1 }, { treeSize: 1.5 }, { treeSize: '6' }, { timestamp: -1 }, { timestamp: '1' },
      { rootHash: 7 }, { rootHash: 'A'.repeat(64) }, { rootHash: `x${'a'.repeat(64)}` }, { rootHash: `${'a'.repeat(64)}x` }, { keyId: 7 },
    ] as Partial<SignedCheckpoint>[]) {
      assert.equal(reasonOf(await verifyCheckpoint(await checkpoint(6, changed), raw)), shape, JSON.stringify(changed));
    }
    assert.equal(reasonOf(await verifyCheckpoint(null as unknown as SignedCheckpoint, raw)), shape);
    assert.equal(reasonOf(await verifyCheckpoint(await checkpoint(6, { logId: 'x'.repeat(128) }), raw)), 'ok', 'a log id of 128 characters');
    const signed = await checkpoint(6);
    const body = `lottery-checkpoint/v1\ntest-log\n6\n${signed.rootHash}\n1700000100000\n${signed.keyId}\n`;
    assert.equal(new TextDecoder().decode(checkpointBody(signed)), body, 'the text signed, as docs/fairness.md gives it');
    assert.equal(reasonOf(await verifyCheckpoint({ ...signed, signature: [signed.signature] as unknown as string }, raw)), 'the signature is not 64 bytes of base64', 'only text is read as base64');
    for (const signature of [7, 'AAAA', Buffer.alloc(65).toString('base64')] as unknown as string[]) {
      assert.equal(reasonOf(await verifyCheckpoint({ ...(await checkpoint(6)), signature }, raw)), 'the signature is not 64 bytes of base64', String(signature));
    }
  });

  it('refuses an inclusion proof of a leaf outside the tree, too long or too short, with its reason', async () => {
    const proof = tree.inclusionProof(2, 6);
    const leafHash = tree.root(0); // any 32 bytes: the sizes are refused before any hash is compared
    for (const [index, size] of [[-1, 6], [6, 6], [1.5, 6], [2, -1], [2, 1.5]]) {
      assert.equal(reasonOf(await verifyInclusion(leafHash, index!, size!, proof, tree.root(6))), `leaf ${index} is not in a tree of ${size}`);
    }
    assert.equal(reasonOf(await verifyInclusion(leafHash, 2, 6, [...proof, proof[0]!], tree.root(6))), 'the inclusion proof is longer than the tree is deep');
    assert.equal(reasonOf(await verifyInclusion(leafHash, 0, 1, [proof[0]!], tree.root(1))), 'the inclusion proof is longer than the tree is deep', 'a tree of one leaf has no path');
    assert.equal(reasonOf(await verifyInclusion(leafHash, 2, 6, proof.slice(1), tree.root(6))), 'the inclusion proof is shorter than the tree is deep');
    const root = tree.root(6);
    const included = tree.inclusionProof(2, 6);
    const leaf2 = await hashLeaf(new TextEncoder().encode(encodeLeaf(pageLeaf(2))));
    assert.equal(reasonOf(await verifyInclusion(leaf2, 2, 6, included, root)), 'ok');
    assert.equal(reasonOf(await verifyInclusion(leaf2, 2, 6, included, Uint8Array.of(...root, 0))), 'the inclusion proof does not lead to the tree’s root', 'a root one byte longer');
  });

  it('refuses a consistency proof of sizes that are none, of equal sizes with a proof, of the empty tree with one, or too long or short', async () => {
    const [r3, r6] = [tree.root(3), tree.root(6)];
    const proof = tree.consistencyProof(3, 6);
    assert.equal(reasonOf(await verifyConsistency(3, 6, r3, r6, proof)), 'ok');
    for (const [a, b] of [[-1, 6], [1.5, 6], [3, -1], [3, 6.5]]) {
      assert.equal(reasonOf(await verifyConsistency(a!, b!, r3, r6, proof)), `the log cannot go from ${a} leaves back to ${b}`);
    }
    assert.equal(reasonOf(await verifyConsistency(6, 6, r6, r6, [])), 'ok');
    assert.equal(reasonOf(await verifyConsistency(6, 6, r6, r6, proof)), 'a consistency proof between equal sizes must be empty');
    assert.equal(reasonOf(await verifyConsistency(6, 6, r6, r3, [])), 'two checkpoints of the same size have different roots');
    assert.equal(reasonOf(await verifyConsistency(0, 6, r3, r6, [])), 'ok');
    assert.equal(reasonOf(await verifyConsistency(0, 6, r3, r6, proof)), 'the empty tree needs no consistency proof');
    assert.equal(reasonOf(await verifyConsistency(3, 6, r3, r6, [])), 'the consistency proof is empty');
    assert.equal(reasonOf(await verifyConsistency(3, 6, r3, r6, [...proof, proof[0]!])), 'the consistency proof is longer than the trees are deep');
    assert.equal(reasonOf(await verifyConsistency(3, 6, r3, r6, proof.slice(0, -1))), 'the consistency proof is shorter than the trees are deep');
    assert.equal(reasonOf(await verifyConsistency(3, 6, r6, r6, proof)), 'the consistency proof does not lead to the older checkpoint’s root');
    assert.equal(reasonOf(await verifyConsistency(3, 6, r3, r3, proof)), 'the consistency proof does not lead to the newer checkpoint’s root');
  });

  it("refuses a page's inclusion answer whose leaf or proof is not of the documented form", async () => {
    const page = pageLeaf(2);
    const expected = { blockId: page.blockId, page: 2, root: page.root };
    const reply = { leaf: encodeLeaf(page), index: 2, proof: tree.inclusionProof(2, 6).map(toHex), checkpoint: await checkpoint(6) };
    assert.equal(reasonOf(await verifyPageInclusion(reply, raw, expected)), 'ok');
    assert.equal(reasonOf(await verifyPageInclusion({ ...reply, leaf: 7 as unknown as string }, raw, expected)), 'the leaf is not a page root of the documented form');
    for (const proof of [['ab'], 'ab', [7]] as unknown as string[][]) {
      assert.equal(reasonOf(await verifyPageInclusion({ ...reply, proof }, raw, expected)), 'the inclusion proof is not a list of 32-byte hashes', JSON.stringify(proof));
    }
  });

  it('refuses two checkpoints of two logs, a proof between other sizes, or one that is not a list of hashes', async () => {
    const [older, newer] = [await checkpoint(3), await checkpoint(6)];
    const reply = { from: 3, to: 6, proof: tree.consistencyProof(3, 6).map(toHex) };
    assert.equal(reasonOf(await verifyCheckpointConsistency(older, newer, reply, raw)), 'ok');
    assert.equal(reasonOf(await verifyCheckpointConsistency(await checkpoint(3, { logId: 'other-log' }), newer, reply, raw)), 'the checkpoints are of two logs (other-log, test-log)');
    assert.equal(reasonOf(await verifyCheckpointConsistency(older, newer, { ...reply, from: 2 }, raw)), 'the proof is from 2 to 6, not from 3 to 6');
    assert.equal(reasonOf(await verifyCheckpointConsistency(older, newer, { ...reply, to: 5 }, raw)), 'the proof is from 3 to 5, not from 3 to 6');
    for (const proof of [['ab'], 'ab'] as unknown as string[][]) {
      assert.equal(reasonOf(await verifyCheckpointConsistency(older, newer, { ...reply, proof }, raw)), 'the consistency proof is not a list of 32-byte hashes');
    }
  });
});
