import { strict as assert } from 'node:assert';
import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { canonicalJson, GENESIS } from '../../src/archive/records';
import { Keyring, SealingKey } from '../../src/archive/seal';

describe("the archive's seals and keyring", () => {
  const key = SealingKey.generate();

  it('names a key by the first 16 hex digits of the SHA-256 of its public key (SPKI DER), as published', () => {
    const spki = Buffer.from(key.published.spki, 'base64');
    assert.equal(key.id, createHash('sha256').update(spki).digest('hex').slice(0, 16));
    assert.deepEqual(key.published, { id: key.id, spki: key.published.spki });
  });

  it('signs the canonical JSON of its domain, stream, range and hash, which a regulator verifies with the public key alone', () => {
    const seal = key.seal('money', 1, 5, GENESIS, 1_700_000_000_000);
    const signed = Buffer.from(canonicalJson(['instant-games-archive-seal/1', 'money', 1, 5, GENESIS]));
    const publicKey = createPublicKey({ key: Buffer.from(key.published.spki, 'base64'), format: 'der', type: 'spki' });
    assert.ok(verify(null, signed, publicKey, Buffer.from(seal.sig, 'base64')));
    assert.equal(seal.key, key.id);
  });

  it('reads back the PKCS#8 PEM it gives: the same key', () => {
    const again = SealingKey.fromPem(key.pem());
    assert.equal(again.id, key.id);
    assert.ok(new Keyring([key.published]).verify(again.seal('play', 6, 10, GENESIS, 0)));
  });

  it('refuses a signing key that is not Ed25519', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    assert.throws(() => SealingKey.fromPem(ec), /the archive's signing key must be Ed25519, not ec/);
  });

  it('verifies a seal by a key of the ring only, and only with a signature', () => {
    const ring = new Keyring([key.published]);
    const seal = key.seal('money', 1, 5, GENESIS, 0);
    assert.equal(ring.verify(seal), true);
    assert.equal(ring.verify({ ...seal, last: 6 }), false, 'the range is signed');
    assert.equal(new Keyring().verify(seal), false, 'a key not in the ring');
    assert.equal(ring.verify({ ...seal, sig: undefined as unknown as string }), false, 'no signature');
  });

  it("refuses a keyring whose text has no list of keys, or a key that is not the Ed25519 key its id names", () => {
    assert.throws(() => Keyring.parse('{}'), /a keyring is \{"keys": \[\{"id", "spki"\}, …\]\}/);
    assert.equal(Keyring.parse(new Keyring([key.published]).toJson()).has(key.id), true);
    const other = SealingKey.generate();
    assert.throws(() => new Keyring([{ id: other.id, spki: key.published.spki }]), new RegExp(`key ${other.id} is not the Ed25519 key its id names`));
    const ecSpki = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'der', type: 'spki' });
    const ecId = createHash('sha256').update(ecSpki).digest('hex').slice(0, 16);
    assert.throws(() => new Keyring([{ id: ecId, spki: ecSpki.toString('base64') }]), /is not the Ed25519 key its id names/);
  });
});
