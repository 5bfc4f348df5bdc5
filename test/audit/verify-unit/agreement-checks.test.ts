import { strict as assert } from 'node:assert';
import { completedByCheck, presentationCheck, purchaseCheck, timesCheck } from '../../../src/audit/verify-unit/agreement-checks';
import type { RecallRead } from '../../../src/audit/verify-unit/recall-shape';
import { readExample } from './recalls';

// The RAIN DIAMONDS example: sold at .986 with its first step and its stake, its five boxes opened and finished at .991.
const SOLD = '2026-12-02T02:32:12.986Z';
const FINISHED = '2026-12-02T02:32:12.991Z';
const rain = (change?: (r: any) => void) => timesCheck(readExample('rain-diamonds', change));
const failing = (detail: string) => ({ id: 'times', ok: false, detail });

describe('timesCheck', () => {
  it('passes a recall sold after its page was published, at its first step and its stake, finished at its last step', () => {
    assert.deepEqual(rain(), { id: 'times', ok: true, detail: `sold at ${SOLD}, after its page was published and before each of its 6 steps, finished at ${FINISHED}, after the last` });
  });

  it('passes a page published at the very time of the sale, and a recall without journal lines', () => {
    assert.equal(rain((r) => (r.fairness.pagePublishedAt = r.soldAt)).ok, true);
    assert.equal(rain((r) => (r.ledger = [])).ok, true);
  });

  it('refuses each time out of order, or not a date, with the sentence saying which', () => {
    assert.deepEqual(rain((r) => (r.finishedAt = 'soon')), failing('the finish time (finishedAt) of a finished unit is not a date'));
    assert.deepEqual(rain((r) => (r.finishedAt = '2026-12-02T02:32:12.985Z')), failing(`the unit finished at 2026-12-02T02:32:12.985Z, before its sale at ${SOLD}`));
    assert.deepEqual(rain((r) => (r.steps[2].at = 12)), failing('step 2\'s time is not a date'));
    assert.deepEqual(rain((r) => (r.steps[2].at = '2026-12-02T02:32:12.985Z')), failing(`step 2 is dated 2026-12-02T02:32:12.985Z, before the sale at ${SOLD}`));
    assert.deepEqual(rain((r) => (r.steps[2].at = '2026-12-02T02:32:12.992Z')), failing(`step 2 is dated 2026-12-02T02:32:12.992Z, after the finish at ${FINISHED}`));
    assert.deepEqual(rain((r) => (r.fairness.pagePublishedAt = null)), failing('the page\'s publication time (pagePublishedAt) is not a date'));
    assert.deepEqual(rain((r) => (r.fairness.pagePublishedAt = '2026-12-02T02:32:12.987Z')), failing(`the recall says page 0 was published at 2026-12-02T02:32:12.987Z, after the sale at ${SOLD}`));
    assert.deepEqual(rain((r) => (r.ledger[0].at = FINISHED)), failing(`the stake's journal line is dated ${FINISHED}, the sale ${SOLD}: they are one write`));
    assert.deepEqual(rain((r) => (r.ledger[0].at = 'at the sale')), failing(`the stake's journal line is dated not a date, the sale ${SOLD}: they are one write`));
  });
});

describe('completedByCheck', () => {
  it('passes a unit completed by the author of its last step, the player or the server', () => {
    assert.deepEqual(completedByCheck(readExample('rain-diamonds')), { id: 'completed-by', ok: true, detail: 'completed by the player, as its last step says' });
    assert.deepEqual(completedByCheck(readExample('rain-diamonds', (r) => { r.completedBy = 'server'; r.steps[5].by = 'server'; })), { id: 'completed-by', ok: true, detail: 'completed by the server, as its last step says' });
  });

  it('refuses another author, and one named for a recall without steps, saying who completed it', () => {
    assert.deepEqual(completedByCheck(readExample('rain-diamonds', (r) => (r.completedBy = 'server'))), {
      id: 'completed-by', ok: false, detail: 'the recall says completed by "server", but its last step is by player: completed by the player',
    });
    assert.deepEqual(completedByCheck(readExample('rain-diamonds', (r) => { r.completedBy = 'server'; r.steps = []; })), {
      id: 'completed-by', ok: false, detail: 'the recall says completed by "server", but its last step is by undefined: completed by the player',
    });
    assert.equal(completedByCheck(readExample('rain-diamonds', (r) => (r.steps = []))).ok, true, 'no step: the player\'s, as a unit without steps would be');
  });
});

describe('purchaseCheck', () => {
  const purchase = (name: string, change: (r: any) => void) => purchaseCheck(readExample(name, change));
  const refused = (detail: string) => ({ id: 'purchase', ok: false, detail });

  it('passes a unit bought alone, and one unit of a lamp pair naming the other', () => {
    assert.deepEqual(purchaseCheck(readExample('rain-diamonds')), { id: 'purchase', ok: true, detail: 'bought alone, with no pair link' });
    assert.deepEqual(purchaseCheck(readExample('mysteres-de-la-lampe-pair')), { id: 'purchase', ok: true, detail: 'one unit of a lamp pair, with mysteres-de-la-lampe-50.0:10' });
  });

  it('refuses a purchase missing, or without a request id', () => {
    for (const p of [undefined, null, 'r7', {}, { requestId: 7, pairedUnitId: null }]) {
      assert.deepEqual(purchase('rain-diamonds', (r) => (r.purchase = p)), refused('the recall has no purchase with a request id'), JSON.stringify(p));
    }
  });

  it('refuses a pair link that is neither a unit id nor null', () => {
    assert.deepEqual(purchase('rain-diamonds', (r) => (r.purchase.pairedUnitId = 10)), refused('the pair link (purchase.pairedUnitId) is neither a unit id nor null'));
    assert.deepEqual(purchase('rain-diamonds', (r) => delete r.purchase.pairedUnitId), refused('the pair link (purchase.pairedUnitId) is neither a unit id nor null'));
  });

  it('refuses a pair\'s request id or a pair link on a game that sells no pairs', () => {
    assert.deepEqual(purchase('rain-diamonds', (r) => (r.purchase.requestId = 'r7-1')), refused('the request id r7-1 is one of a lamp pair\'s, on a unit of rain-diamonds'));
    assert.deepEqual(purchase('rain-diamonds', (r) => (r.purchase.pairedUnitId = 'rain-diamonds-500.0:8')), refused('a pair link to rain-diamonds-500.0:8 on a unit of rain-diamonds: only the lamp sells two units at once'));
  });

  it('reads the whole request id: one ending in -0 or -1 only before its last line, or after its first, is not a pair\'s', () => {
    for (const requestId of ['r7-0x', '\nr7-0', 'r7-1\n']) {
      assert.deepEqual(purchase('rain-diamonds', (r) => (r.purchase.requestId = requestId)), { id: 'purchase', ok: true, detail: 'bought alone, with no pair link' }, JSON.stringify(requestId));
    }
  });

  it('refuses a lamp pair link from a single purchase, to the unit itself, or to no unit', () => {
    assert.deepEqual(purchase('mysteres-de-la-lampe-pair', (r) => (r.purchase.requestId = 'pair0')), refused('a pair link to mysteres-de-la-lampe-50.0:10, but the request id pair0 is a single purchase\'s (a pair\'s end in -0 or -1)'));
    assert.deepEqual(purchase('mysteres-de-la-lampe-pair', (r) => (r.purchase.pairedUnitId = r.unitId)), refused('the pair link mysteres-de-la-lampe-50.0:9 does not name another unit'));
    for (const link of ['mysteres-de-la-lampe-50.0', 'mysteres-de-la-lampe-50.0:10x', '\nmysteres-de-la-lampe-50.0:10', ':10']) {
      assert.deepEqual(purchase('mysteres-de-la-lampe-pair', (r) => (r.purchase.pairedUnitId = link)), refused(`the pair link ${link} does not name another unit`), JSON.stringify(link));
    }
  });
});

describe('presentationCheck', () => {
  // Read in a hook, not as the file loads: a broken reader fails these tests, not the test run.
  let noel: RecallRead;
  let dealt: readonly unknown[];
  before(() => {
    noel = readExample('noel-de-la-chance');
    dealt = noel.steps[0]!.events;
  });
  const DECOR = '["holly","candle","snowflake","bauble","sleigh"]';
  const refused = (detail: string) => ({ id: 'presentation', ok: false, detail });

  it('passes the Noël symbols offered as the purchase step deals them, and the game\'s decor', () => {
    assert.deepEqual(presentationCheck(noel, dealt), { id: 'presentation', ok: true, detail: 'the symbols offered (["star","bell","gift"]) are the ones the purchase step deals, in order, and the decor is the game\'s' });
  });

  it('passes no presentation on another game, and refuses one', () => {
    assert.deepEqual(presentationCheck(readExample('mine-d-or'), []), { id: 'presentation', ok: true, detail: 'mine-d-or shows nothing beside its scenario, and none is recalled' });
    assert.deepEqual(presentationCheck(readExample('mine-d-or', (r) => (r.presentation = {})), []), refused('a presentation is recalled for mine-d-or, which has none'));
  });

  it('refuses a Noël presentation when the purchase step could not be dealt again', () => {
    assert.deepEqual(presentationCheck(noel, undefined), refused('the purchase step cannot be dealt again: the symbols offered are not known'));
    assert.deepEqual(presentationCheck(noel, [null, { type: 'cell_revealed' }]), refused('the purchase step cannot be dealt again: the symbols offered are not known'));
  });

  it('refuses other symbols offered, or none, quoting at most 160 characters of what the recall presents', () => {
    const expected = `{"offeredSymbols":["star","bell","gift"],"decorSymbols":${DECOR}}`;
    assert.deepEqual(presentationCheck(readExample('noel-de-la-chance', (r) => r.presentation.offeredSymbols.reverse()), dealt),
      refused(`the recall presents {"offeredSymbols":["gift","bell","star"],"decorSymbols":${DECOR}}, but the purchase step deals ${expected}`));
    assert.deepEqual(presentationCheck(readExample('noel-de-la-chance', (r) => delete r.presentation), dealt), refused(`the recall presents undefined, but the purchase step deals ${expected}`));
    const long = { offeredSymbols: Array(20).fill('star'), decorSymbols: [] };
    assert.deepEqual(presentationCheck(readExample('noel-de-la-chance', (r) => (r.presentation = long)), dealt),
      refused(`the recall presents ${JSON.stringify(long).slice(0, 160)}, but the purchase step deals ${expected}`));
  });
});
