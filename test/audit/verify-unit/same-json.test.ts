import { strict as assert } from 'node:assert';
import { sameJson } from '../../../src/audit/verify-unit/same-json';

describe('sameJson', () => {
  it('holds equal the same JSON, keys in any order, and a key whose value is undefined the same as no key (a JSON round trip drops it)', () => {
    for (const [a, b] of [
      [1, 1],
      ['star', 'star'],
      [null, null],
      [[1, [2, { a: 3 }]], [1, [2, { a: 3 }]]],
      [{ a: 1, b: { c: [2] } }, { b: { c: [2] }, a: 1 }],
      [{ a: 1, b: undefined }, { a: 1 }],
      [{ a: 1 }, { a: 1, b: undefined }],
    ] as const) {
      assert.equal(sameJson(a, b), true, `${JSON.stringify(a)} and ${JSON.stringify(b)}`);
    }
  });

  it('tells apart values of other types, null from an object, a list from an object, and lists or objects that differ in a length, a key or a value', () => {
    for (const [a, b] of [
      [1, 2],
      [1, '1'],
      [1, {}],
      [{}, 1],
      ['', []],
      [null, {}],
      [{}, null],
      [[], {}],
      [{}, []],
      [[1], { 0: 1 }],
      [[undefined], []],
      [[1, 2], [1]],
      [[1, 2], [2, 1]],
      [{ a: 1 }, { a: 1, b: 2 }],
      [{ a: 1, b: 2 }, { a: 1 }],
      [{ a: 1 }, { b: 1 }],
      [{ a: undefined, b: 1 }, { a: 1 }],
      [{ a: { b: 1 } }, { a: { b: 2 } }],
    ] as const) {
      assert.equal(sameJson(a, b), false, `${JSON.stringify(a)} and ${JSON.stringify(b)}`);
    }
  });
});
