import { strict as assert } from 'node:assert';
import { askToBuy, PENDING_ASKS } from '../../web/src/purchase-retry';

/** A room request's rejection as the SDK gives it: the server's refusal as its reason. */
const refused = (code: string) => Object.assign(new Error(code), { reason: { code, message: code } });

describe('a purchase asked again while it is being settled', () => {
  const noWait = async () => undefined;

  it('asks again with the same request while the answer is wallet/pending, and gives the answer that came', async () => {
    let asked = 0;
    const reply = await askToBuy(async () => {
      if (++asked < 3) throw refused('wallet/pending');
      return { unitIds: ['u1', 'u2'] };
    }, noWait);
    assert.deepEqual(reply, { unitIds: ['u1', 'u2'] });
    assert.equal(asked, 3);
  });

  it('gives any other refusal at once', async () => {
    let asked = 0;
    await assert.rejects(askToBuy(async () => {
      asked++;
      throw refused('limit/stake_week');
    }, noWait), (err: Error) => err.message === 'limit/stake_week');
    assert.equal(asked, 1);
  });

  it(`stops after ${PENDING_ASKS} asks, with the last refusal`, async () => {
    let asked = 0;
    await assert.rejects(askToBuy(async () => {
      asked++;
      throw refused('wallet/pending');
    }, noWait), (err: Error) => err.message === 'wallet/pending');
    assert.equal(asked, PENDING_ASKS);
  });
});
