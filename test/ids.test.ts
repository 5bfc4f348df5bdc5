import { strict as assert } from 'node:assert';
import { isClientRequestId, unitRequestIds } from '../src/ids';

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
});
