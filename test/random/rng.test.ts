import { strict as assert } from 'node:assert';
import { chacha20Block, wordsLE } from '../../src/random/chacha20';
import { Rng, nonceFor } from '../../src/random/rng';

function seedOf(byte: number): Uint8Array {
  return new Uint8Array(32).fill(byte);
}

describe('chacha20', () => {
  it('matches the block function test vector of RFC 8439 §2.3.2', () => {
    const key = wordsLE(Uint8Array.from({ length: 32 }, (_, i) => i));
    const nonce = wordsLE(Uint8Array.from([0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0]));
    const out = new Uint32Array(16);
    chacha20Block(key, 1, nonce, out);
    const expected = [
      0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3, 0xc7f4d1c7, 0x0368c033, 0x9aaa2204, 0x4e6cd4c3,
      0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9, 0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2,
    ];
    assert.deepEqual(Array.from(out), expected);
  });
});

describe('rng', () => {
  it('gives the same stream for the same seed and nonce', () => {
    const a = new Rng(seedOf(7), nonceFor('test'));
    const b = new Rng(seedOf(7), nonceFor('test'));
    for (let i = 0; i < 100; i++) assert.equal(a.nextU32(), b.nextU32());
  });

  it('gives different streams for different seeds or nonces', () => {
    const a = new Rng(seedOf(7), nonceFor('a'));
    const b = new Rng(seedOf(7), nonceFor('b'));
    const c = new Rng(seedOf(8), nonceFor('a'));
    const first = a.nextU32();
    assert.notEqual(first, b.nextU32());
    assert.notEqual(first, c.nextU32());
  });

  it('draws below(n) uniformly enough over a small range', () => {
    const rng = new Rng(seedOf(1));
    const counts = [0, 0, 0, 0, 0, 0];
    const draws = 60_000;
    for (let i = 0; i < draws; i++) counts[rng.below(6)]!++;
    // 6 sigma of a binomial(60000, 1/6) is about 550: a fixed seed never fails by chance.
    for (const c of counts) assert.ok(Math.abs(c - draws / 6) < 550, `counts ${counts}`);
  });

  it('refuses seeds that are not 32 bytes and empty picks', () => {
    assert.throws(() => new Rng(new Uint8Array(16)), /32 bytes/);
    assert.throws(() => new Rng(seedOf(1)).pick([]), /empty/);
  });

  it('shuffles into a permutation and samples distinct items', () => {
    const rng = new Rng(seedOf(3));
    const items = Array.from({ length: 50 }, (_, i) => i);
    const shuffled = rng.shuffle(items.slice());
    assert.deepEqual(shuffled.slice().sort((x, y) => x - y), items);
    const sample = rng.sample(items, 10);
    assert.equal(new Set(sample).size, 10);
  });
});
