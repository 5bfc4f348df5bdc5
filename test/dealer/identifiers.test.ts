import { strict as assert } from 'node:assert';
import { checkPurchaseRequest } from '../../src/dealer/identifiers';
import { unitRequestIds } from '../../src/ids';

describe('the check of a purchase request', () => {
  it('gives the dealer only ids it takes, from the longest client id', () => {
    const longest = 'x'.repeat(48);
    for (const requestId of [...unitRequestIds(longest, 1), ...unitRequestIds(longest, 8)]) {
      const request = { playerId: 'p1', requestId, game: 'rain-diamonds', stake: 50, now: 0 };
      assert.equal(checkPurchaseRequest(request), undefined, requestId);
    }
  });
});
