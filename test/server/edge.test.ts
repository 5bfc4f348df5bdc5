import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { Client } from '@colyseus/sdk';
import { SignJWT } from 'jose';
import type { RunningServer } from '../../src/server/app';
import { startTestServer } from '../support/game-server';

const SECRET = 'edge-test-secret-of-at-least-32-chars!';

describe('the HTTP edge', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let base: string;

  before(async () => {
    server = await startTestServer({ JWT_SECRET: SECRET, CORS_ORIGINS: 'https://games.example', DEV_LOGIN_PER_MINUTE: '5', MAX_BODY_BYTES: '8192' });
    base = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await server.stop();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  async function errorOf(res: Response): Promise<{ code: string; message: string; raw: string }> {
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const raw = await res.text();
    const { error } = JSON.parse(raw) as { error: { code: string; message: string } };
    return { ...error, raw };
  }

  describe('body limits', () => {
    it('refuses a matchmaking body over the limit before reading it', async () => {
      const res = await post('/matchmake/create/table', JSON.stringify({ game: 'rain-diamonds', pad: 'x'.repeat(1_000_000) }));
      assert.equal(res.status, 413);
      assert.equal((await errorOf(res)).code, 'request/too_large');
    });

    it('refuses a streamed body that gives no length', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${base}/matchmake/create/table`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.write('{"game":');
        req.end('"rain-diamonds"}');
      });
      assert.equal(status, 411);
    });

    it('refuses a large body on our own routes too', async () => {
      const res = await post('/auth/dev-login', JSON.stringify({ name: 'x'.repeat(20_000) }));
      assert.equal(res.status, 413);
      assert.equal((await errorOf(res)).code, 'request/too_large');
    });
  });

  describe('errors', () => {
    it('answers a malformed JSON body with a code and a sentence, no stack trace, no path', async () => {
      const res = await post('/auth/dev-login', '{"name": "Alice"');
      assert.equal(res.status, 400);
      const error = await errorOf(res);
      assert.equal(error.code, 'request/malformed_json');
      assert.doesNotMatch(error.raw, /\bat |\/src\/|node_modules|<html/i);
    });

    it('answers an unknown route in JSON', async () => {
      const res = await fetch(`${base}/no/such/route`);
      assert.equal(res.status, 404);
      assert.equal((await errorOf(res)).code, 'request/not_found');
    });
  });

  describe('matchmaking errors', () => {
    /** A matchmaking answer: the one error shape, and the SDK's `message` beside it. */
    async function matchmakingError(res: Response): Promise<{ code: string; message: string }> {
      const raw = await res.text();
      const body = JSON.parse(raw) as { error: { code: string; message: string }; message: string };
      assert.equal(body.message, `${body.error.code}: ${body.error.message}`, raw);
      assert.doesNotMatch(raw, /"error":"/, 'not Colyseus\'s own { code, error } shape');
      return body.error;
    }

    it('answers a room name nobody defined 404 join/no_room, not Colyseus\'s 520', async () => {
      const res = await post('/matchmake/joinOrCreate/no_such_room', '{}');
      assert.equal(res.status, 404);
      assert.equal((await matchmakingError(res)).code, 'join/no_room');
    });

    it('answers a room id that is not open 404 join/no_room, not 522', async () => {
      const res = await post('/matchmake/joinById/abcdefghi', '{}');
      assert.equal(res.status, 404);
      assert.equal((await matchmakingError(res)).code, 'join/no_room');
    });

    it('refuses a reconnection by token 403 auth/reconnection_token, never Colyseus\'s 524 (a dropped player joins again with their token)', async () => {
      const feed = await new Client(base).joinOrCreate('feed');
      try {
        const res = await post(`/matchmake/reconnect/${feed.roomId}`, JSON.stringify({ reconnectionToken: `${feed.roomId}:not-a-session` }));
        assert.equal(res.status, 403);
        assert.equal((await errorOf(res)).code, 'auth/reconnection_token');
      } finally {
        await feed.leave();
      }
    });

    it('keeps a room\'s own refusal, its status and code, in the same shape', async () => {
      const res = await post('/matchmake/create/table', JSON.stringify({ game: 'rain-diamonds' }));
      assert.equal(res.status, 401);
      assert.equal((await matchmakingError(res)).code, 'auth/missing');
    });
  });

  describe('tokens', () => {
    it('refuses a token that never expires', async () => {
      const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('p-1').sign(new TextEncoder().encode(SECRET));
      const res = await fetch(`${base}/history`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 401);
      assert.equal((await errorOf(res)).code, 'auth/invalid');
    });
  });

  describe('headers', () => {
    it('sends security headers and no X-Powered-By, on our routes and on Colyseus\'s', async () => {
      for (const res of [await fetch(`${base}/health`), await post('/matchmake/create/table', '{}')]) {
        assert.match(res.headers.get('strict-transport-security') ?? '', /max-age=\d+/);
        assert.equal(res.headers.get('x-frame-options'), 'DENY');
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
        assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
        assert.equal(res.headers.get('x-powered-by'), null);
        await res.body?.cancel();
      }
    });

    it('lets a page of a lone process connect to its own origin only', async () => {
      const alone = await fetch(`${base}/health`);
      assert.match(alone.headers.get('content-security-policy') ?? '', /connect-src 'self';/);
      await alone.body?.cancel();
    });

    it('allows only listed origins and the server\'s own, never any origin with credentials', async () => {
      const evil = await post('/matchmake/create/table', '{}', { origin: 'https://evil.example' });
      assert.equal(evil.headers.get('access-control-allow-origin'), null);
      await evil.body?.cancel();
      const preflight = await fetch(`${base}/matchmake/create/table`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      assert.equal(preflight.status, 403);
      assert.equal(preflight.headers.get('access-control-allow-origin'), null);
      await preflight.body?.cancel();

      const listed = await fetch(`${base}/matchmake/create/table`, { method: 'OPTIONS', headers: { origin: 'https://games.example', 'access-control-request-method': 'POST' } });
      assert.equal(listed.status, 204);
      assert.equal(listed.headers.get('access-control-allow-origin'), 'https://games.example');
      assert.equal(listed.headers.get('access-control-allow-credentials'), 'true');
      const own = await fetch(`${base}/health`, { headers: { origin: base } });
      assert.equal(own.headers.get('access-control-allow-origin'), base);
      await own.body?.cancel();
    });
  });

  describe('dev login', () => {
    it('normalizes the pseudonym and refuses blank, look-alike and invisible names', async () => {
      const ok = await post('/auth/dev-login', JSON.stringify({ name: '  Ａlice  ' }));
      assert.equal(ok.status, 200);
      assert.equal(((await ok.json()) as { pseudonym: string }).pseudonym, 'Alice');
      for (const name of [' ', '\u0410lice', 'Al\u200Bice']) {
        const res = await post('/auth/dev-login', JSON.stringify({ name }));
        assert.equal(res.status, 400, JSON.stringify(name));
        assert.equal((await errorOf(res)).code, 'auth/malformed');
      }
    });

    it('limits dev logins per address', async () => {
      // Five per minute; the test before used four (one accepted, three refused).
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await post('/auth/dev-login', JSON.stringify({ name: 'Bob' }))).status);
      assert.deepEqual(statuses, [200, 429, 429]);
      const res = await post('/auth/dev-login', JSON.stringify({ name: 'Bob' }));
      assert.equal((await errorOf(res)).code, 'auth/rate_limited');
    });
  });
});

// Its own server, after the other's stop: Colyseus's matchmaker is one per process, so two
// servers running at once in one process share it, and stopping one leaves the other half
// stopped (its sockets open: mocha would never exit).
describe('the HTTP edge of one of several processes', function () {
  this.timeout(30_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer({ JWT_SECRET: SECRET, PUBLIC_ADDRESS: '127.0.0.1:4001', PUBLIC_ADDRESSES: '127.0.0.1:4001,127.0.0.1:4002,games.example/node-3' });
  });
  after(async () => {
    await server.stop();
  });

  it('lets a page connect to its own origin and to the deployment\'s processes, and nowhere else', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/health`);
    const connectSrc = /connect-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1]?.split(' ');
    assert.deepEqual(connectSrc, [
      "'self'",
      'ws://127.0.0.1:4001', 'wss://127.0.0.1:4001', 'http://127.0.0.1:4001', 'https://127.0.0.1:4001',
      'ws://127.0.0.1:4002', 'wss://127.0.0.1:4002', 'http://127.0.0.1:4002', 'https://127.0.0.1:4002',
      'ws://games.example/node-3/', 'wss://games.example/node-3/', 'http://games.example/node-3/', 'https://games.example/node-3/',
    ]);
    await res.body?.cancel();
  });
});
