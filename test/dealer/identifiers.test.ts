import { strict as assert } from 'node:assert';
import { checkPurchaseRequest, isClientRequestId, unitRequestIds } from '../../src/dealer/identifiers';

describe('request ids', () => {
  it('takes a client’s id of 1–48 of A–Z, a–z, 0–9 and _, and no other', () => {
    for (const id of ['r1', 'A_z9', 'x'.repeat(48)]) assert.equal(isClientRequestId(id), true, id);
    for (const id of ['', 'x'.repeat(49), 'r1-0', 'a b', 'é']) assert.equal(isClientRequestId(id), false, id);
  });

  it('buys one unit under the client’s id, and each of several under an id derived from it that no client may send', () => {
    assert.deepEqual(unitRequestIds('r1', 1), ['r1']);
    assert.deepEqual(unitRequestIds('r1', 2), ['r1-0', 'r1-1']);
    for (const id of unitRequestIds('r1', 2)) assert.equal(isClientRequestId(id), false, id);
  });

  it('gives the dealer only ids it takes, from the longest client id', () => {
    const longest = 'x'.repeat(48);
    for (const requestId of [...unitRequestIds(longest, 1), ...unitRequestIds(longest, 8)]) {
      const request = { playerId: 'p1', requestId, game: 'rain-diamonds', stake: 50, now: 0 };
      assert.equal(checkPurchaseRequest(request), undefined, requestId);
    }
  });
});
