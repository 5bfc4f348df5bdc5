import { strict as assert } from 'node:assert';
import { fromHex, toHex } from '../../src/random/hex';

describe('hex', () => {
  it('writes bytes as lowercase hex and reads them back', () => {
    const bytes = Uint8Array.from([0, 1, 0x7f, 0x80, 0xab, 0xff]);
    assert.equal(toHex(bytes), '00017f80abff');
    assert.deepEqual(fromHex('00017F80abff'), bytes);
  });

  it('refuses text that is not whole bytes of hex, rather than reading zeros', () => {
    assert.throws(() => fromHex('abc'), RangeError);
    assert.throws(() => fromHex('zz'), RangeError);
    assert.throws(() => fromHex('0x12'), RangeError);
  });
});
