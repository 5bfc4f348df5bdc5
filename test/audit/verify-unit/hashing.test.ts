import { strict as assert } from 'node:assert';
import { pageRootOf, sha256, unitSeedOf } from '../../../src/audit/verify-unit/hashing';
import { unitSeed } from '../../../src/fairness/printing';

describe('the verifier\'s hashing (WebCrypto)', () => {
  it('hashes parts as one message, and derives a unit seed as the printer does', async () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    assert.deepEqual(await sha256(bytes('unit-'), bytes('seed')), await sha256(bytes('unit-seed')));
    const seed = 'ab'.repeat(32);
    assert.equal(await unitSeedOf(seed, 7), Buffer.from(unitSeed(Buffer.from(seed, 'hex'), 7)).toString('hex'));
  });

  for (const [what, crypto] of [['no crypto', undefined], ['a crypto without subtle', {}]] as const) {
    it(`refuses to hash where WebCrypto is missing (${what}), saying so`, async () => {
      const kept = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
      Object.defineProperty(globalThis, 'crypto', { value: crypto, configurable: true, writable: true });
      try {
        await assert.rejects(sha256(new Uint8Array(1)), { message: 'WebCrypto (crypto.subtle) is not available here' });
        await assert.rejects(unitSeedOf('ab'.repeat(32), 0), { message: 'WebCrypto (crypto.subtle) is not available here' });
        await assert.rejects(pageRootOf({ version: 2, position: 0, tierId: 0, secret: 'ab'.repeat(32), siblings: [] }, { game: 'mine-d-or', stake: 50, blockId: 'b' }), { message: 'WebCrypto (crypto.subtle) is not available here' });
      } finally {
        Object.defineProperty(globalThis, 'crypto', kept);
      }
    });
  }
});
