import { strict as assert } from 'node:assert';
import { generateKeyPairSync, sign } from 'node:crypto';
import { verifyUnit, type LogAnswers } from '../../../src/audit/verify-unit';
import { checkpointBody, keyIdOf } from '../../../src/audit/transparency-log';
import { pageOf } from '../../../src/fairness/page-geometry';
import { PRIZE_TABLES } from '../../../src/games/prize-tables';
import type { InclusionReply, SignedCheckpoint } from '../../../src/protocol/transparency-log';
import { CheckpointLog } from '../../../src/server/checkpoints';
import { newCheckpointSigningKey } from '../../../tools/checkpoint-key';
import { NOW, playRecalls, type PlayedRecall } from './recalls';

const flipHex = (hex: string, at = 0) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);

describe('verify-unit: the checkpoint check (the log of page roots)', function () {
  this.timeout(180_000);
  let played: PlayedRecall;
  let answers: LogAnswers;
  let saved: SignedCheckpoint;
  let log: CheckpointLog;
  let fixture: Awaited<ReturnType<typeof playRecalls>>;
  let clock = NOW;

  before(async () => {
    fixture = await playRecalls();
    played = fixture.units['500000-carats'].win;
    ({ log } = await CheckpointLog.start(fixture.dealer.log, { checkpointSigningKey: newCheckpointSigningKey(), checkpointPreviousKeys: [], checkpointLogId: 'test-log' }, () => clock));
    saved = await log.checkpoint();
    // The log grows after the checkpoint saved: a new emission prints its blocks.
    const otherPrice = PRIZE_TABLES.filter((t) => t.game === 'noel-de-la-chance')[1]!;
    await fixture.dealer.emissions.openEmission({ emissionId: 'later', table: otherPrice, blockCount: 2, now: NOW });
    clock += 1_000;
    const page = pageOf(played.published.size, played.recall.position);
    const inclusion = (await log.inclusionOf(played.recall.blockId, page))!;
    assert.ok(inclusion.checkpoint.treeSize > saved.treeSize, 'the log grew after the saved checkpoint');
    answers = { key: log.keys, inclusion, saved: { checkpoint: saved, consistency: (await log.consistency(saved.treeSize, inclusion.checkpoint.treeSize))! } };
  });

  const check = async (log: LogAnswers) => (await verifyUnit(played.recall, { published: played.published, log })).checks.find((c) => c.id === 'checkpoint')!;

  it('says verified when the page root is a leaf under a signed checkpoint that extends the one saved', async () => {
    const result = await verifyUnit(played.recall, { published: played.published, log: answers });
    assert.ok(result.ok, JSON.stringify(result.checks.filter((c) => !c.ok)));
    assert.match(result.checks.find((c) => c.id === 'checkpoint')!.detail, /extends the checkpoint saved/);
    const { saved: _, ...withoutSaved } = answers;
    assert.ok((await check(withoutSaved)).ok, 'without a saved checkpoint: inclusion only');
  });

  it('notes when the log was not asked', async () => {
    const result = await verifyUnit(played.recall, { published: played.published });
    assert.equal(result.checks.some((c) => c.id === 'checkpoint'), false);
    assert.match(result.notes.join(), /log of page roots was not asked/);
  });

  it('refuses a log whose leaf gives the page another publication time than the block, or a time after the sale', async () => {
    const page = pageOf(played.published.size, played.recall.position);
    const leafAt = Number(answers.inclusion!.leaf.split(' ')[7]);
    const routeSays = (at: number) => ({ ...played.published, pages: played.published.pages.map((p) => (p.page === page ? { ...p, publishedAt: new Date(at).toISOString() } : p)) });
    // The route and the recall agree on a time a minute before the one the log fixes.
    const minuteBefore = new Date(leafAt - 60_000).toISOString();
    const earlier = await verifyUnit({ ...played.recall, fairness: { ...played.recall.fairness, pagePublishedAt: minuteBefore } }, { published: routeSays(leafAt - 60_000), log: answers });
    assert.deepEqual(earlier.checks.filter((c) => !c.ok).map((c) => c.id), ['checkpoint'], 'the block route says the page was published a minute before the log says');
    assert.match(earlier.checks.find((c) => c.id === 'checkpoint')!.detail, /published at .* the block says/);
    const soldBefore = { ...played.recall, soldAt: new Date(leafAt - 1).toISOString() };
    const late = await verifyUnit(soldBefore, { log: answers, offline: true });
    assert.match(late.checks.find((c) => c.id === 'checkpoint')!.detail, /after the sale/);
  });

  it('refuses a log whose leaf names the page under another scheme, game or price than the recall', async () => {
    const [tag, scheme, game, stake, ...rest] = answers.inclusion!.leaf.split(' ');
    // A log of one leaf, signed by its own key: only the leaf's fields differ from the recall's.
    const signedLog = async (leaf: string): Promise<LogAnswers> => {
      const store = { logSize: async () => 1, logLeaves: async (from: number) => (from === 0 ? [leaf] : []), logIndexOf: async () => 0 };
      const { log: one } = await CheckpointLog.start(store, { checkpointSigningKey: newCheckpointSigningKey(), checkpointPreviousKeys: [], checkpointLogId: 'test-log' }, () => clock);
      return { key: one.keys, inclusion: (await one.inclusion(0))! };
    };
    assert.ok((await check(await signedLog(answers.inclusion!.leaf))).ok, 'the leaf untouched, in a log of its own');
    for (const [what, leaf] of [
      ['scheme', [tag, '2', game, stake, ...rest]],
      ['game', [tag, scheme, 'mine-d-or', stake, ...rest]],
      ['price', [tag, scheme, game, String(Number(stake) * 2), ...rest]],
    ] as const) {
      const result = await check(await signedLog(leaf.join(' ')));
      assert.equal(result.ok, false, what);
      assert.match(result.detail, /names .* not the recall's/, what);
    }
  });

  it('holds the log to the key pinned: another server\'s log of the same leaf, signed by its own key, fails', async () => {
    const leaf = answers.inclusion!.leaf;
    const store = { logSize: async () => 1, logLeaves: async (from: number) => (from === 0 ? [leaf] : []), logIndexOf: async () => 0 };
    const { log: other } = await CheckpointLog.start(store, { checkpointSigningKey: newCheckpointSigningKey(), checkpointPreviousKeys: [], checkpointLogId: 'test-log' }, () => clock);
    const impostor: LogAnswers = { key: other.keys, inclusion: (await other.inclusion(0))!, pinnedKeyId: log.keys.keyId };
    const result = await check(impostor);
    assert.equal(result.ok, false);
    assert.match(result.detail, /not the key .* held for it/);
    assert.ok((await check({ ...answers, pinnedKeyId: log.keys.keyId })).ok, 'the log\'s own key, pinned');
  });

  it('fails a log rolled back (smaller than a checkpoint it signed before) or forked (a checkpoint no proof joins to the saved one), each under the right key, saying which', async () => {
    const settings = { checkpointSigningKey: newCheckpointSigningKey(), checkpointPreviousKeys: [], checkpointLogId: 'test-log' };
    // One key, three logs: what it signed before (the true leaves and 8 more), and two it answers now.
    const logOf = async (leaves: string[]) => (await CheckpointLog.start({
      logSize: async () => leaves.length,
      logLeaves: async (from, count) => leaves.slice(from, from + count),
      logIndexOf: async (blockId, page) => {
        const index = leaves.findIndex((l) => l.split(' ')[4] === blockId && l.split(' ')[5] === String(page));
        return index < 0 ? undefined : index;
      },
    }, settings, () => clock)).log;
    const extra = (name: string, n: number) => Array.from({ length: n }, (_, k) => `page-root/v1 3 mine-d-or 50 ${name}.${k} 0 ${'ab'.repeat(32)} ${NOW}`);
    const leaves = await fixture.dealer.log.logLeaves(0, await fixture.dealer.log.logSize());
    const before = await logOf([...leaves, ...extra('seen', 8)]);
    const savedBefore = await before.checkpoint();
    const page = pageOf(played.published.size, played.recall.position);
    const answersOf = async (now: CheckpointLog): Promise<LogAnswers> => {
      const inclusion = (await now.inclusionOf(played.recall.blockId, page))!;
      return { key: now.keys, inclusion, saved: { checkpoint: savedBefore, consistency: await now.consistency(savedBefore.treeSize, inclusion.checkpoint.treeSize) } };
    };
    const rolledBack = await answersOf(await logOf(leaves));
    assert.equal(rolledBack.saved!.consistency, undefined, 'no consistency proof to a smaller log');
    const result = await verifyUnit(played.recall, { published: played.published, log: rolledBack });
    assert.deepEqual(result.checks.filter((c) => !c.ok).map((c) => c.id), ['checkpoint']);
    assert.match(result.checks.find((c) => c.id === 'checkpoint')!.detail, new RegExp(`rolled back: its checkpoint has ${leaves.length} leaves, fewer than the ${savedBefore.treeSize}`));
    for (const [what, now] of [['the same size, other leaves', [...leaves, ...extra('other', 8)]], ['larger, other leaves', [...leaves, ...extra('other', 12)]]] as const) {
      const detail = (await check(await answersOf(await logOf([...now])))).detail;
      assert.match(detail, /^the log forked: its checkpoint of \d+ leaves does not extend the one saved/, `${what}: ${detail}`);
    }
    assert.ok((await check(await answersOf(await logOf([...leaves, ...extra('seen', 12)])))).ok, 'a log that grew from the saved one');
  });

  it('looks up the root the proof leads to, dated by the unit\'s own page of the block, whatever else the recall or the block says', async () => {
    const page = pageOf(played.published.size, played.recall.position);
    const checkOf = async (recall: unknown, published: unknown) => (await verifyUnit(recall, { published: published as PlayedRecall['published'], log: answers })).checks.find((c) => c.id === 'checkpoint')!;
    const own = played.published.pages.find((p) => p.page === page)!;
    // Another page listed first, published at another time: only the unit's page dates its leaf.
    const otherFirst = { ...played.published, pages: [{ ...own, page: page + 1, publishedAt: new Date(NOW - 60_000).toISOString() }, ...played.published.pages] };
    assert.ok((await checkOf(played.recall, otherFirst)).ok, 'another page listed first');
    for (const [what, published] of [['a block listing no page', { ...played.published, pages: undefined }], ['a block listing other pages only', { ...played.published, pages: played.published.pages.filter((p) => p.page !== page) }]] as const) {
      assert.ok((await checkOf(played.recall, published)).ok, `${what}: the leaf checked without the block's time`);
    }
    const fairness = played.recall.fairness;
    assert.ok((await checkOf({ ...played.recall, fairness: { ...fairness, pageRoot: flipHex(fairness.pageRoot!) } }, played.published)).ok, 'a recalled root altered: the proof\'s root is the one in the log');
    assert.ok((await checkOf({ ...played.recall, fairness: { ...fairness, proof: { ...fairness.proof!, siblings: fairness.proof!.siblings.slice(1) } } }, played.published)).ok, 'a proof cut short: the recalled root is the one looked up');
  });

  it('fails the checkpoint check of a server answering that it keeps no log of page roots, saying so', async () => {
    const result = await verifyUnit(played.recall, { published: played.published, log: { missing: 'GET /fairness/log/key answered 404' } });
    assert.deepEqual(result.checks.filter((c) => !c.ok), [
      { id: 'checkpoint', ok: false, detail: 'the server has no log of page roots (GET /fairness/log/key answered 404): nothing shows the page root is the one it published first' },
    ]);
  });

  it('says which leaf of which log, under which checkpoint and key, and which saved checkpoint it extends', async () => {
    const page = pageOf(played.published.size, played.recall.position);
    const cp = answers.inclusion!.checkpoint;
    const leafOf = `page ${page} of ${played.recall.blockId} is leaf ${answers.inclusion!.index} of the log test-log, under its checkpoint of ${cp.treeSize} leaves signed by key ${cp.keyId}`;
    assert.deepEqual(await check(answers), { id: 'checkpoint', ok: true, detail: `${leafOf}, which extends the checkpoint saved at ${saved.treeSize} leaves` });
    const { saved: _, ...withoutSaved } = answers;
    assert.deepEqual(await check(withoutSaved), { id: 'checkpoint', ok: true, detail: leafOf });
  });

  it('passes a page whose leaf is dated at the very time of the sale, and fails one dated a millisecond after', async () => {
    const leafAt = Number(answers.inclusion!.leaf.split(' ')[7]);
    const soldAt = (ms: number) => ({ ...played.recall, soldAt: new Date(ms).toISOString() });
    const at = (ms: number) => verifyUnit(soldAt(ms), { log: answers, offline: true });
    assert.equal((await at(leafAt)).checks.find((c) => c.id === 'checkpoint')!.ok, true);
    const page = pageOf(played.published.size, played.recall.position);
    assert.deepEqual((await at(leafAt - 1)).checks.find((c) => c.id === 'checkpoint'), {
      id: 'checkpoint', ok: false, detail: `the log's leaf says page ${page} was published at ${new Date(leafAt).toISOString()}, after the sale at ${new Date(leafAt - 1).toISOString()}`,
    });
  });

  it('refuses a saved checkpoint the log cannot be held to, saying why: of no key it lists, of another log, unsigned, or without a consistency proof', async () => {
    const cp = answers.inclusion!.checkpoint;
    const refused = (detail: string) => ({ id: 'checkpoint', ok: false, detail });
    const { keys: _, ...keyWithoutList } = answers.key;
    assert.deepEqual(await check({ ...answers, key: keyWithoutList as LogAnswers['key'] }), refused(`the saved checkpoint names key ${saved.keyId}, which the log does not list`));
    assert.deepEqual(await check({ ...answers, saved: { ...answers.saved!, checkpoint: undefined as unknown as SignedCheckpoint } }), refused('the saved checkpoint names key undefined, which the log does not list'));
    assert.deepEqual(await check({ ...answers, saved: { ...answers.saved!, checkpoint: { ...saved, logId: 'other-log' } } }),
      refused('the log\'s checkpoint does not extend the one saved: the checkpoints are of two logs (other-log, test-log)'));
    const unsigned = await check({ ...answers, saved: { checkpoint: { ...cp, treeSize: cp.treeSize + 1 }, consistency: undefined } });
    assert.equal(unsigned.ok, false);
    assert.match(unsigned.detail, /^the checkpoint saved before does not verify: .*signature/);
    assert.deepEqual(await check({ ...answers, saved: { checkpoint: saved, consistency: undefined } }),
      refused(`the log gives no consistency proof from the saved checkpoint of ${saved.treeSize} leaves to its ${cp.treeSize}: nothing shows it extends what it signed before`));
  });

  it('refuses every alteration of the log’s answers, with the reason', async () => {
    const inclusion = answers.inclusion!;
    const cp = inclusion.checkpoint;
    const other = generateKeyPairSync('ed25519');
    const otherRaw = Buffer.from(other.publicKey.export({ format: 'jwk' }).x!, 'base64url');
    const resigned = async (c: Omit<SignedCheckpoint, 'signature' | 'keyId'>): Promise<SignedCheckpoint> => {
      const unsigned = { ...c, keyId: await keyIdOf(otherRaw) };
      return { ...unsigned, signature: sign(null, checkpointBody(unsigned), other.privateKey).toString('base64') };
    };
    const withInclusion = (change: Partial<InclusionReply>): LogAnswers => ({ ...answers, inclusion: { ...inclusion, ...change } });
    const sig = Buffer.from(cp.signature, 'base64');
    sig[0]! ^= 1;
    const leafParts = inclusion.leaf.split(' ');
    const altered: [string, LogAnswers, RegExp][] = [
      ['signature', withInclusion({ checkpoint: { ...cp, signature: sig.toString('base64') } }), /signature does not verify/],
      ['tree size', withInclusion({ checkpoint: { ...cp, treeSize: cp.treeSize + 1 } }), /signature does not verify/],
      ['root hash', withInclusion({ checkpoint: { ...cp, rootHash: flipHex(cp.rootHash) } }), /signature does not verify/],
      ['signed by another key', withInclusion({ checkpoint: await resigned(cp) }), /names key .*not the key given/],
      ['leaf time', withInclusion({ leaf: [...leafParts.slice(0, 7), String(Number(leafParts[7]) + 1)].join(' ') }), /does not lead to the tree’s root/],
      ['leaf root', withInclusion({ leaf: [...leafParts.slice(0, 6), flipHex(leafParts[6]!), leafParts[7]].join(' ') }), /page root is not the one of the proof/],
      ['leaf of another page', withInclusion({ leaf: [...leafParts.slice(0, 5), String(Number(leafParts[5]) + 1), ...leafParts.slice(6)].join(' ') }), /names page/],
      ['proof node', withInclusion({ proof: inclusion.proof.map((p, i) => (i === 0 ? flipHex(p, 5) : p)) }), /does not lead to the tree’s root/],
      ['proof order', withInclusion({ proof: [inclusion.proof[1]!, inclusion.proof[0]!, ...inclusion.proof.slice(2)] }), /does not lead|longer|shorter/],
      ['index', withInclusion({ index: inclusion.index + 1 }), /does not lead|not in a tree|longer|shorter/],
      ['page missing from the log', { ...answers, inclusion: undefined }, /holds no leaf/],
      ['key of another log', { ...answers, key: { ...answers.key, raw: otherRaw.toString('base64') } }, /not the key given/],
      ['saved checkpoint altered', { ...answers, saved: { ...answers.saved!, checkpoint: { ...saved, rootHash: flipHex(saved.rootHash) } } }, /older checkpoint: .*signature/],
      ['saved checkpoint by an unlisted key', { ...answers, saved: { ...answers.saved!, checkpoint: await resigned(saved) } }, /which the log does not list/],
      ['consistency proof node', { ...answers, saved: { ...answers.saved!, consistency: { ...answers.saved!.consistency!, proof: answers.saved!.consistency!.proof.map((p, i) => (i === 0 ? flipHex(p, 9) : p)) } } }, /does not extend/],
      ['consistency proof of other sizes', { ...answers, saved: { ...answers.saved!, consistency: { ...answers.saved!.consistency!, from: saved.treeSize - 1 } } }, /does not extend/],
      ['saved checkpoint newer than the log’s', { ...answers, saved: { checkpoint: cp, consistency: { from: cp.treeSize, to: saved.treeSize, proof: [] } } }, /does not extend/],
    ];
    for (const [what, log, reason] of altered) {
      const result = await check(log);
      assert.equal(result.ok, false, what);
      assert.match(result.detail, reason, `${what}: ${result.detail}`);
    }
  });
});
