import { strict as assert } from 'node:assert';
import { blockIdOf, DEPOSIT_REF, EMISSION_ID, gamePrice, isClientRequestId, isPlayerId, parseBlockId, parseUnitId, REQUEST_ID, unitIdOf, unitRequestIds } from '../src/ids';

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

describe('the names of emissions, blocks, units, players and references', () => {
  const accepts = (rule: (name: string) => boolean, yes: string[], no: string[]) => {
    for (const name of yes) assert.equal(rule(name), true, `${name} accepted`);
    for (const name of no) assert.equal(rule(name), false, `${name} refused`);
  };
  // Each rule whole, its ends anchored: a name with a character outside the alphabet at either end is refused.
  const outside = (ok: string) => [` ${ok}`, `${ok} `, `${ok}|x`, `é${ok}`];

  it('names an emission, and a request at the dealer, with 1–64 of A–Z, a–z, 0–9, _ and -', () => {
    for (const rule of [EMISSION_ID, REQUEST_ID]) {
      accepts((n) => rule.test(n), ['a', 'Az_0-9', 'x'.repeat(64)], ['', 'x'.repeat(65), 'a.b', 'a:b', ...outside('ab')]);
    }
  });

  it('names a player with 1–64 of A–Z, a–z, 0–9, _, ., : and -, and only with text', () => {
    accepts(isPlayerId, ['p', 'dev:Alice.1_x-y', 'x'.repeat(64)], ['', 'x'.repeat(65), 'a/b', ...outside('ab')]);
    for (const notText of [42, undefined, null, ['p1']]) assert.equal(isPlayerId(notText), false, String(notText));
  });

  it('takes a deposit reference of 1–128 of A–Z, a–z, 0–9, _, ., : and -', () => {
    accepts((n) => DEPOSIT_REF.test(n), ['d', 'deposit:r1.x-y_Z', 'x'.repeat(128)], ['', 'x'.repeat(129), 'a/b', ...outside('ab')]);
  });

  it('writes a block as <emission>.<index> and a unit as <block>:<position>, and reads back only what it writes', () => {
    assert.equal(blockIdOf('noel-2', 7), 'noel-2.7');
    assert.equal(unitIdOf('noel-2.7', 13), 'noel-2.7:13');
    assert.equal(gamePrice('mine-d-or', 200), 'mine-d-or:200');
    assert.deepEqual(parseBlockId('noel-2.7'), { emissionId: 'noel-2', index: 7, blockId: 'noel-2.7' });
    assert.deepEqual(parseUnitId('noel-2.7:13'), { emissionId: 'noel-2', index: 7, blockId: 'noel-2.7', position: 13 });
    const e = 'x'.repeat(64);
    // Indexes of up to 9 digits, positions of up to 10, without a leading zero (0 itself is one).
    for (const block of [`${e}.0`, 'a.5', 'a.12', 'a.123456789']) {
      assert.equal(parseBlockId(block)?.blockId, block, block);
      for (const position of ['0', '5', '12', '1234567890']) assert.equal(parseUnitId(`${block}:${position}`)?.position, Number(position), `${block}:${position}`);
    }
    const badBlocks = ['a', 'a.', '.1', `${e}x.1`, 'a.01', 'a.1234567890', 'a.b.1', 'a:1.1', 'a.1a', ...outside('a.1')];
    for (const block of [...badBlocks, 'a.1:2']) assert.equal(parseBlockId(block), undefined, block);
    for (const unit of [...badBlocks.map((b) => `${b}:1`), 'a.1', 'a.1:', 'a.1:01', 'a.1:12345678901', 'a.1:1a', ...outside('a.1:1')]) {
      assert.equal(parseUnitId(unit), undefined, unit);
    }
  });
});
