import { strict as assert } from 'node:assert';
import { verifyUnit } from '../../../src/audit/verify-unit';
import { readRecall } from '../../../src/audit/verify-unit/recall-shape';
import { exampleRecall } from './recalls';

/** A saved scheme 3 recall of docs/recall-examples/, to malform. */
const v3 = (): any => exampleRecall('mine-d-or').recall;

/** The same recall as unit-recall/v2 of scheme 2 would carry it: the proof's secret is a salt. */
function v2(): any {
  const r = v3();
  r.format = 'unit-recall/v2';
  delete r.fairness.server;
  r.fairness.scheme = 2;
  const { unitSeed, ...proof } = r.fairness.proof;
  r.fairness.proof = { ...proof, scheme: 'merkle-sha256/v2', salt: unitSeed };
  return r;
}

const HASH = 'ab'.repeat(32);

/** Each malformed recall, what is wrong with it, and the one sentence the verifier must answer. */
const MALFORMED: readonly (readonly [what: string, make: () => unknown, sentence: string])[] = [
  ['null', () => null, 'the recall is not a JSON object'],
  ['a list', () => [v3()], 'the recall is not a JSON object'],
  ['a string', () => JSON.stringify(v3()), 'the recall is not a JSON object'],
  ['a number', () => 42, 'the recall is not a JSON object'],
  ['an unknown format', () => ({ ...v3(), format: 'unit-recall/v9' }), 'format unit-recall/v9: this verifier reads unit-recall/v3 and unit-recall/v2'],
  ['an unfinished unit', () => ({ ...v3(), status: 'in_progress' }), 'the unit is not finished: its outcome and proof are shown once its reveal ends'],
  ['a game that is not a string', () => ({ ...v3(), game: 5 }), '5 is not one of the five games'],
  ['an unknown game', () => ({ ...v3(), game: 'poker' }), 'poker is not one of the five games'],
  ['a price the game is not sold at', () => ({ ...v3(), stake: 51 }), 'mine-d-or is not sold at 51 cents'],
  ['a price as text', () => ({ ...v3(), stake: '50' }), 'mine-d-or is not sold at 50 cents'],
  ['no unit id', () => ({ ...v3(), unitId: 7 }), 'the unit id, block id or position is missing'],
  ['no block id', () => ({ ...v3(), blockId: null }), 'the unit id, block id or position is missing'],
  ['a negative position', () => ({ ...v3(), position: -1 }), 'the unit id, block id or position is missing'],
  ['a fractional position', () => ({ ...v3(), position: 1.5 }), 'the unit id, block id or position is missing'],
  ['a position as text', () => ({ ...v3(), position: '2' }), 'the unit id, block id or position is missing'],
  // A number Date.parse would read as a year once made text: only a string is a date.
  ['a sale time as a number', () => ({ ...v3(), soldAt: 2026 }), 'the sale time is not a date'],
  ['a sale time that is no date', () => ({ ...v3(), soldAt: 'yesterday' }), 'the sale time is not a date'],
  ['a fractional prize', () => ({ ...v3(), prize: 1.5 }), 'the prize or a balance is not a whole number of cents'],
  ['a balance before as text', () => ({ ...v3(), balanceBefore: '1000' }), 'the prize or a balance is not a whole number of cents'],
  ['no balance after the stake', () => ({ ...v3(), balanceAfterStake: null }), 'the prize or a balance is not a whole number of cents'],
  ['no balance after the prize', () => { const r = v3(); delete r.balanceAfterPrize; return r; }, 'the prize or a balance is not a whole number of cents'],
  ['a ledger that is not a list', () => ({ ...v3(), ledger: { 0: v3().ledger[0] } }), 'the ledger is not a list of journal lines'],
  ...([
    ['null', () => null],
    ['with a negative seq', (l: any) => ({ ...l, seq: -1 })],
    ['with no kind', (l: any) => ({ ...l, kind: undefined })],
    ['with a fractional amount', (l: any) => ({ ...l, amount: -0.5 })],
    ['with a balance as text', (l: any) => ({ ...l, balance: String(l.balance) })],
    ['with no reference', (l: any) => ({ ...l, ref: null })],
  ] as const).map(([how, line]) => [`a journal line ${how}, after a good one`, () => { const r = v3(); r.ledger[1] = line(r.ledger[1]); return r; }, 'the ledger is not a list of journal lines'] as const),
  ['steps that are not a list', () => ({ ...v3(), steps: 'none' }), 'the steps are not a list of steps with events'],
  ['a step null, after a good one', () => { const r = v3(); r.steps.push(null); return r; }, 'the steps are not a list of steps with events'],
  ['a step whose events are not a list, after a good one', () => { const r = v3(); r.steps.push({ ...r.steps[0], events: 'grid_revealed' }); return r; }, 'the steps are not a list of steps with events'],
  ['no fairness record', () => ({ ...v3(), fairness: null }), 'the recall has no fairness record'],
  ['a fairness record that is a list', () => ({ ...v3(), fairness: [v3().fairness] }), 'the recall has no fairness record'],
  ['scheme 1', () => { const r = v3(); r.fairness.scheme = 1; return r; }, 'scheme 1: no per-unit proof; verify the whole block once it closes (npm run verify-block)'],
  ['scheme 3 as text', () => { const r = v3(); r.fairness.scheme = '3'; return r; }, 'scheme 3: no per-unit proof; verify the whole block once it closes (npm run verify-block)'],
  ['no proof', () => { const r = v3(); r.fairness.proof = null; return r; }, 'the recall carries no proof'],
  ['a proof of scheme 2 in a scheme 3 record', () => { const r = v3(); r.fairness.proof.scheme = 'merkle-sha256/v2'; return r; }, 'the proof\'s scheme merkle-sha256/v2 is not the block\'s (merkle-sha256/v3)'],
  ['a proof of scheme 3 in a scheme 2 record', () => { const r = v2(); r.fairness.proof.scheme = 'merkle-sha256/v3'; return r; }, 'the proof\'s scheme merkle-sha256/v3 is not the block\'s (merkle-sha256/v2)'],
  ...([
    ['a size as text', { size: '8' }],
    ['a size of 0', { size: 0 }],
    ['a negative position', { position: -1 }],
    ['no tier', { tierId: undefined }],
    ['a tier above 255 (one byte in the leaf)', { tierId: 256 }],
  ] as const).map(([how, change]) => [`a proof with ${how}`, () => { const r = v3(); Object.assign(r.fairness.proof, change); return r; }, 'the proof\'s size, position or tier is not a small whole number'] as const),
  ['a unit seed in capitals', () => { const r = v3(); r.fairness.proof.unitSeed = r.fairness.proof.unitSeed.toUpperCase(); return r; }, 'the proof\'s unit seed is not 32 bytes of lowercase hex'],
  ['a scheme 3 proof with a salt for its unit seed', () => { const r = v3(); r.fairness.proof.salt = r.fairness.proof.unitSeed; delete r.fairness.proof.unitSeed; return r; }, 'the proof\'s unit seed is not 32 bytes of lowercase hex'],
  ['a salt one byte short', () => { const r = v2(); r.fairness.proof.salt = r.fairness.proof.salt.slice(2); return r; }, 'the proof\'s salt is not 32 bytes of lowercase hex'],
  ['a scheme 2 proof with a unit seed for its salt', () => { const r = v2(); r.fairness.proof.unitSeed = r.fairness.proof.salt; delete r.fairness.proof.salt; return r; }, 'the proof\'s salt is not 32 bytes of lowercase hex'],
  ['siblings that are not a list', () => { const r = v3(); r.fairness.proof.siblings = HASH; return r; }, 'the proof\'s siblings are not 32-byte hex hashes'],
  ['a sibling that is not a hash, after good ones', () => { const r = v3(); r.fairness.proof.siblings.push('ab'); return r; }, 'the proof\'s siblings are not 32-byte hex hashes'],
];

describe('readRecall', () => {
  for (const [what, make, sentence] of MALFORMED) {
    it(`refuses ${what}: "${sentence}"`, () => {
      assert.equal(readRecall(make()), sentence);
    });
  }

  it('reads a scheme 3 recall into the fields the checks use, its proof\'s secret the unit seed', () => {
    const r = v3();
    const read = readRecall(r);
    assert.ok(typeof read === 'object');
    assert.equal(read.soldAt, Date.parse(r.soldAt));
    assert.equal(read.finishedAt, Date.parse(r.finishedAt));
    assert.deepEqual(read.ledger, r.ledger.map((l: any) => ({ ...l, at: Date.parse(l.at) })));
    assert.deepEqual(read.proof, { version: 3, size: r.fairness.proof.size, position: r.position, tierId: r.fairness.proof.tierId, secret: r.fairness.proof.unitSeed, siblings: r.fairness.proof.siblings });
  });

  it('reads a scheme 2 recall, its proof\'s secret the salt', () => {
    const r = v2();
    const read = readRecall(r);
    assert.ok(typeof read === 'object');
    assert.equal(read.proof.version, 2);
    assert.equal(read.proof.secret, r.fairness.proof.salt);
  });

  it('reads, to be checked after, what is well typed though wrong: an empty ledger, no steps, no siblings, a proof of one unit of tier 255, a finish time that is no date', () => {
    const r = v3();
    Object.assign(r, { ledger: [], steps: [], finishedAt: 'never' });
    Object.assign(r.fairness.proof, { size: 1, tierId: 255, siblings: [] });
    const read = readRecall(r);
    assert.ok(typeof read === 'object');
    assert.deepEqual([read.ledger, read.steps, read.proof.siblings, read.proof.size, read.proof.tierId, read.finishedAt], [[], [], [], 1, 255, Number.NaN]);
  });

  it('answers a malformed recall with the format check alone, failed with its sentence', async () => {
    assert.deepEqual(await verifyUnit({ ...v3(), position: -1 }, { offline: true }), {
      ok: false,
      checks: [{ id: 'format', ok: false, detail: 'the unit id, block id or position is missing' }],
      notes: [],
    });
  });
});
