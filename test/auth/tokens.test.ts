import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { AuthError, TokenVerifier, type Player } from '../../src/auth/tokens';
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

/** Who the token names, without its expiry. */
function who({ playerId, pseudonym }: Player): Player {
  return { playerId, pseudonym };
}

describe('token verifier', () => {
  it('says when the token dies: its exp, in milliseconds', async () => {
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_SECRET: SECRET }));
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p-1').setExpirationTime(exp).sign(new TextEncoder().encode(SECRET));
    assert.equal((await verifier.verify(token)).expiresAt, exp * 1000);
  });

  it('accepts a token it signed for the dev login and reads the player from it', async () => {
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_SECRET: SECRET }));
    const token = await verifier.signDemo({ playerId: 'p-1', pseudonym: 'Alice' }, 60);
    assert.deepEqual(who(await verifier.verify(token)), { playerId: 'p-1', pseudonym: 'Alice' });
  });

  it('gives a token without a valid name a pseudonym that says nothing of the account', async () => {
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_SECRET: SECRET }));
    const key = new TextEncoder().encode(SECRET);
    const token = await new SignJWT({ name: '<script>' }).setProtectedHeader({ alg: 'HS256' }).setSubject('account-123456').setExpirationTime('1h').sign(key);
    assert.deepEqual(who(await verifier.verify(token)), { playerId: 'account-123456', pseudonym: 'Anonymous' });
  });

  it('refuses missing, malformed, expired and forged tokens with their own codes', async () => {
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_SECRET: SECRET }));
    const key = new TextEncoder().encode(SECRET);
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p').setExpirationTime(1000).sign(key);
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p').sign(new TextEncoder().encode('x'.repeat(40)));
    const noSubject = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key);
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
    assert.deepEqual(who(await verifier.verify(good)), { playerId: 'acct-9', pseudonym: 'Bob' });
    const wrongIssuer = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setSubject('acct-9').setIssuer('someone').setExpirationTime('1h').sign(privateKey);
    assert.equal(await code(verifier.verify(wrongIssuer)), 'auth/invalid');
    // The classic algorithm-confusion attack: HS256 keyed with the public key's text.
    const confused = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct-9').setIssuer('operator').sign(new TextEncoder().encode(pem));
    assert.equal(await code(verifier.verify(confused)), 'auth/invalid');
    await assert.rejects(verifier.signDemo({ playerId: 'x', pseudonym: 'x' }, 60), /HS256/);
  });

  it('refuses a token without an expiry, and one living longer than TOKEN_MAX_SECONDS', async () => {
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_SECRET: SECRET, TOKEN_MAX_SECONDS: '3600' }));
    const key = new TextEncoder().encode(SECRET);
    const forever = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p').setIssuedAt().sign(key);
    const tooLong = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p').setIssuedAt().setExpirationTime('2h').sign(key);
    const tooLongNoIat = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p').setExpirationTime('2h').sign(key);
    const fine = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p').setIssuedAt().setExpirationTime('1h').sign(key);
    assert.equal(await code(verifier.verify(forever)), 'auth/invalid');
    assert.equal(await code(verifier.verify(tooLong)), 'auth/invalid');
    assert.equal(await code(verifier.verify(tooLongNoIat)), 'auth/invalid');
    assert.equal(await code(verifier.verify(fine)), 'accepted');
  });

  it('refuses a token issued in the future, so that it cannot outlive TOKEN_MAX_SECONDS, and allows a minute of clock skew', async () => {
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_SECRET: SECRET, TOKEN_MAX_SECONDS: '3600' }));
    const key = new TextEncoder().encode(SECRET);
    const now = Math.floor(Date.now() / 1000);
    const issuedAt = (iat: number) => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p').setIssuedAt(iat).setExpirationTime(iat + 1800).sign(key);
    const tenYears = 10 * 365 * 86_400;
    assert.equal(await code(verifier.verify(await issuedAt(now + tenYears))), 'auth/invalid');
    assert.equal(await code(verifier.verify(await issuedAt(now + 120))), 'auth/invalid');
    assert.equal(await code(verifier.verify(await issuedAt(now + 30))), 'accepted');
  });

  it('shows a token\'s name normalized, and a name of mixed scripts as Anonymous', async () => {
    const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_SECRET: SECRET }));
    const key = new TextEncoder().encode(SECRET);
    const sign = (name: string) => new SignJWT({ name }).setProtectedHeader({ alg: 'HS256' }).setSubject('p').setExpirationTime('1h').sign(key);
    assert.equal((await verifier.verify(await sign(' Ａlice '))).pseudonym, 'Alice');
    assert.equal((await verifier.verify(await sign('\u0410lice'))).pseudonym, 'Anonymous');
  });

  it('verifies operator tokens against the operator\'s key set (JWT_JWKS_URL)', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    const jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(jwks.address() as { port: number }).port}/jwks.json`;
      const verifier = await TokenVerifier.fromConfig(loadConfig({ JWT_JWKS_URL: url }));
      const good = await new SignJWT({ name: 'Bob' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setSubject('acct-1').setExpirationTime('1h').sign(privateKey);
      assert.deepEqual(who(await verifier.verify(good)), { playerId: 'acct-1', pseudonym: 'Bob' });
      const other = await generateKeyPair('RS256');
      const stranger = await new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setSubject('acct-1').setExpirationTime('1h').sign(other.privateKey);
      assert.equal(await code(verifier.verify(stranger)), 'auth/invalid');
    } finally {
      jwks.close();
    }
  });
});
