import { strict as assert } from 'node:assert';
import { decodeLeaf, encodeLeaf, type PageLeaf } from '../../src/fairness/page-log';

const LEAF: PageLeaf = { scheme: 2, game: '500000-carats', stake: 1000, blockId: '500000-carats-1000.3', page: 12, root: 'ab'.repeat(32), publishedAt: 1_700_000_000_123 };

describe('page log leaves', () => {
  it('writes a leaf as its documented text and reads it back', () => {
    const text = encodeLeaf(LEAF);
    assert.equal(text, `page-root/v1 2 500000-carats 1000 500000-carats-1000.3 12 ${'ab'.repeat(32)} 1700000000123`);
    assert.deepEqual(decodeLeaf(text), LEAF);
  });

  it('refuses fields that would not read back the same', () => {
    for (const bad of [{ game: 'a b' }, { root: 'AB'.repeat(32) }, { page: -1 }, { stake: 1.5 }, { blockId: '' }]) {
      assert.throws(() => encodeLeaf({ ...LEAF, ...bad }), RangeError, JSON.stringify(bad));
    }
  });

  it('reads nothing from a text that is not exactly a leaf', () => {
    const text = encodeLeaf(LEAF);
    for (const bad of [`${text} `, text.replace('page-root/v1', 'page-root/v2'), text.replace(' 12 ', ' 012 '), text.replace(' 12 ', '  12 '), text.slice(0, -1) + 'x']) {
      assert.equal(decodeLeaf(bad), undefined, bad);
    }
  });
});
