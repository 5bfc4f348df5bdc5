import { strict as assert } from 'node:assert';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { AuthError, TokenVerifier } from '../../src/auth/tokens';
import { loadConfig } from '../../src/config';

const SECRET = 's'.repeat(40);

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'accepted';
  } catch (err) {
    assert.ok(err instanceof AuthError);
    return err.code;
  }
}

describe('token verifier', () => {
  it('accepts a token it signed for the dev login and reads the player from it', async () => {
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_SECRET: SECRET }));
    const token = await verifier.signDemo({ playerId: 'p-1', pseudonym: 'Alice' }, 60);
    assert.deepEqual(await verifier.verify(token), { playerId: 'p-1', pseudonym: 'Alice' });
  });

  it('gives a token without a valid name a pseudonym that says nothing of the account', async () => {
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_SECRET: SECRET }));
    const key = new TextEncoder().encode(SECRET);
    const token = await new SignJWT({ name: '<script>' }).setProtectedHeader({ alg: 'HS256' }).setSubject('account-123456').sign(key);
    assert.deepEqual(await verifier.verify(token), { playerId: 'account-123456', pseudonym: 'Anonymous' });
  });

  it('refuses missing, malformed, expired and forged tokens with their own codes', async () => {
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_SECRET: SECRET }));
    const key = new TextEncoder().encode(SECRET);
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p').setExpirationTime(1000).sign(key);
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p').sign(new TextEncoder().encode('x'.repeat(40)));
    const noSubject = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).sign(key);
    assert.equal(await code(verifier.verify(undefined)), 'auth/missing');
    assert.equal(await code(verifier.verify('abc')), 'auth/malformed');
    assert.equal(await code(verifier.verify(expired)), 'auth/expired');
    assert.equal(await code(verifier.verify(forged)), 'auth/invalid');
    assert.equal(await code(verifier.verify(noSubject)), 'auth/invalid');
  });

  it('verifies operator tokens against a public key, and refuses an HS256 token signed with the key text', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const pem = await exportSPKI(publicKey);
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_PUBLIC_KEY: pem, JWT_ALGORITHM: 'ES256', JWT_ISSUER: 'operator' }));
    const good = await new SignJWT({ name: 'Bob' }).setProtectedHeader({ alg: 'ES256' }).setSubject('acct-9').setIssuer('operator').setExpirationTime('1h').sign(privateKey);
    assert.deepEqual(await verifier.verify(good), { playerId: 'acct-9', pseudonym: 'Bob' });
    const wrongIssuer = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setSubject('acct-9').setIssuer('someone').sign(privateKey);
    assert.equal(await code(verifier.verify(wrongIssuer)), 'auth/invalid');
    // The classic algorithm-confusion attack: HS256 keyed with the public key's text.
    const confused = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct-9').setIssuer('operator').sign(new TextEncoder().encode(pem));
    assert.equal(await code(verifier.verify(confused)), 'auth/invalid');
    await assert.rejects(verifier.signDemo({ playerId: 'x', pseudonym: 'x' }, 60), /HS256/);
  });
});
