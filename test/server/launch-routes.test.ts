import { strict as assert } from 'node:assert';
import { Client } from '@colyseus/sdk';
import { signRequest, SIGNATURE_HEADER } from '../../src/operator/signature';
import type { LaunchSessionReply } from '../../src/protocol/http';
import type { LaunchReply, LaunchRequest } from '../../src/protocol/operator-api';
import type { ProtectionState } from '../../src/protocol/protection';
import type { RunningServer } from '../../src/server/app';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';
import { RedisServer } from '../../tools/redis-server';
import { startTestServer, startTestServerOnItsPort } from '../support/game-server';

const SECRET = 'operator-secret-of-at-least-32-characters';
const JWT_SECRET = 'launch-jwt-secret-of-at-least-32-chars';
const ENV = { OPERATOR_SECRET: SECRET, JWT_SECRET };
const RETURN_URL = 'https://casino.example/lobby';
const LAUNCH: LaunchRequest = { player: 'op-player-1', currency: 'EUR', language: 'fr', returnUrl: RETURN_URL, game: 'rain-diamonds' };

const base = (server: RunningServer) => `http://127.0.0.1:${server.port}`;

/** An operator's signed POST, as its back end sends it; `sign` changes how it is signed. */
async function signed(server: RunningServer, path: string, body: unknown, sign: (text: string) => string | undefined = (text) => signRequest(SECRET, { method: 'POST', path, body: text }, Date.now())) {
  const text = JSON.stringify(body);
  const signature = sign(text);
  return fetch(`${base(server)}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { [SIGNATURE_HEADER]: signature }) },
    body: text,
  });
}

/**
 * Two requests alike in the same second are one signature: the second would be taken for a
 * replay. Each launch here is its own (its return URL's query).
 */
let launches = 0;
async function launchUrl(server: RunningServer, request: LaunchRequest = LAUNCH): Promise<LaunchReply> {
  const res = await signed(server, '/operator/launch', { ...request, returnUrl: `${request.returnUrl}?launch=${++launches}` });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as LaunchReply;
}

/** The browser's first hop: the launch URL opened, its answer not followed. */
const open = (url: string) => fetch(url, { redirect: 'manual' });

/** The launch opened and its handle exchanged, as the page does: the session's token. */
async function launchSession(server: RunningServer, request: LaunchRequest = LAUNCH): Promise<LaunchSessionReply> {
  const opened = await open((await launchUrl(server, request)).url);
  const handle = /^lottery_launch=([^;]+)/.exec(opened.headers.get('set-cookie') ?? '')![1]!;
  const res = await fetch(`${base(server)}/auth/launch-session`, { method: 'POST', headers: { cookie: `lottery_launch=${handle}` } });
  assert.equal(res.status, 200);
  return (await res.json()) as LaunchSessionReply;
}

const refusalCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;
const protection = (server: RunningServer, token: string) => fetch(`${base(server)}/protection`, { headers: { authorization: `Bearer ${token}` } });

describe('operator launch (embedded)', function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ ...ENV, LAUNCH_TTL_SECONDS: '5' });
  });
  after(async () => {
    await server.stop();
  });

  it('refuses a launch with no signature, a wrong one, or one outside the allowed skew', async () => {
    const path = '/operator/launch';
    const cases: [string, (text: string) => string | undefined][] = [
      ['missing', () => undefined],
      ['wrong secret', (text) => signRequest('another-secret-of-at-least-32-characters', { method: 'POST', path, body: text }, Date.now())],
      ['another body', () => signRequest(SECRET, { method: 'POST', path, body: '{}' }, Date.now())],
      ['skewed', (text) => signRequest(SECRET, { method: 'POST', path, body: text }, Date.now() - 301_000)],
    ];
    for (const [what, sign] of cases) {
      const res = await signed(server, path, LAUNCH, sign);
      assert.equal(res.status, 401, what);
      assert.equal(await refusalCode(res), 'operator/signature', what);
    }
  });

  it('takes a signed request once: the same request sent again makes no second URL', async () => {
    const text = JSON.stringify(LAUNCH);
    const signature = signRequest(SECRET, { method: 'POST', path: '/operator/launch', body: text }, Date.now());
    const send = () => signed(server, '/operator/launch', LAUNCH, () => signature);
    assert.equal((await send()).status, 200);
    const again = await send();
    assert.equal(again.status, 409);
    assert.equal(await refusalCode(again), 'operator/replayed');
  });

  it('refuses a launch not of the documented shape, saying which field', async () => {
    for (const bad of [{ ...LAUNCH, returnUrl: 'http://casino.example/lobby' }, { ...LAUNCH, currency: 'USD' }, { ...LAUNCH, game: 'poker' }, { ...LAUNCH, extra: 1 }]) {
      const res = await signed(server, '/operator/launch', bad);
      assert.equal(res.status, 400);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(error.code, 'operator/malformed');
    }
    assert.equal((await signed(server, '/operator/launch', { ...LAUNCH, returnUrl: 'http://localhost:8080/lobby' })).status, 200, 'http on localhost');
  });

  it('answers a one-use URL of its own origin, whose first hop leaves no code or token in the address', async () => {
    const { url, expiresAt } = await launchUrl(server);
    assert.match(url, new RegExp(`^${base(server)}/launch/[A-Za-z0-9_-]{43}$`));
    assert.ok(Math.abs(expiresAt - (Date.now() + 5000)) < 2000);
    const opened = await open(url);
    assert.equal(opened.status, 303);
    const location = opened.headers.get('location')!;
    assert.equal(location, '/?launched=1&lang=fr&game=rain-diamonds');
    const cookie = opened.headers.get('set-cookie')!;
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=None', 'Path=/auth/launch-session']) assert.ok(cookie.includes(attribute), `${attribute} in ${cookie}`);
    assert.equal(opened.headers.get('cache-control'), 'no-store');
  });

  it('opens a launch URL once: the second use is a page saying so, with no session', async () => {
    const { url } = await launchUrl(server);
    assert.equal((await open(url)).status, 303);
    const second = await open(url);
    assert.equal(second.status, 410);
    assert.equal(second.headers.get('set-cookie'), null);
    const page = await second.text();
    assert.match(page, /déjà servi ou a expiré/);
    assert.ok(page.includes(`<a href="${RETURN_URL}?launch=${launches}" target="_top">Retour au lobby</a>`), 'the way back');
  });

  it('refuses a launch URL once its time ran out', async () => {
    const { url } = await launchUrl(server);
    await new Promise((resolve) => setTimeout(resolve, 5200));
    const late = await open(url);
    assert.equal(late.status, 410);
    assert.equal(late.headers.get('set-cookie'), null);
  });

  it("trades the session handle once for a token of the player, which the player's routes take", async () => {
    const opened = await open((await launchUrl(server)).url);
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    const exchange = () => fetch(`${base(server)}/auth/launch-session`, { method: 'POST', headers: { cookie } });
    const first = await exchange();
    assert.equal(first.status, 200);
    assert.match(first.headers.get('set-cookie')!, /^lottery_launch=; .*Max-Age=0/, 'the cookie is cleared');
    const session = (await first.json()) as LaunchSessionReply;
    assert.deepEqual({ ...session, token: '', expiresAt: 0 }, { token: '', playerId: 'op-player-1', expiresAt: 0, returnUrl: `${RETURN_URL}?launch=${launches}`, language: 'fr', game: 'rain-diamonds' });
    assert.ok(session.expiresAt > Date.now() && session.expiresAt <= Date.now() + 12 * 3600_000 + 1000);
    assert.equal((await protection(server, session.token)).status, 200);
    const second = await exchange();
    assert.equal(second.status, 401);
    assert.equal(await refusalCode(second), 'auth/no_launch_session');
    assert.equal(await refusalCode(await fetch(`${base(server)}/auth/launch-session`, { method: 'POST' })), 'auth/no_launch_session');
  });

  it("applies the operator's exclusion as its block, and its limits beside the player's", async () => {
    const until = Date.now() + 3600_000;
    const { token } = await launchSession(server, { ...LAUNCH, player: 'op-player-2', excludedUntil: until, limits: { stakeWeek: 2000 } });
    const state = (await (await protection(server, token)).json()) as ProtectionState;
    assert.deepEqual(state.blocked, { reason: 'operator_exclusion', until });
    assert.deepEqual(state.limits[0]!.operator, { amount: 2000, left: 2000 });
    assert.equal(state.limits[0]!.amount, null, "the player's own limit is theirs");
    assert.equal(state.stakeLimitSet, true);
    assert.deepEqual(state.history.filter((c) => c.by === 'operator').map((c) => c.what).sort(), ['block', 'limit']);
  });

  it('ends the sessions of a player: their token is refused, a later launch is not', async () => {
    const { token } = await launchSession(server, { ...LAUNCH, player: 'op-player-3' });
    const ended = await signed(server, '/operator/sessions/end', { player: 'op-player-3' });
    assert.equal(ended.status, 200);
    const refused = await protection(server, token);
    assert.equal(refused.status, 401);
    assert.equal(await refusalCode(refused), 'auth/session_ended');
    const { token: next } = await launchSession(server, { ...LAUNCH, player: 'op-player-3' });
    assert.equal((await protection(server, next)).status, 200);
  });
});

describe('operator launch settings', function () {
  this.timeout(30_000);
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("lets the operator's sites frame the page (frame-ancestors, no X-Frame-Options), and nobody by default", async () => {
    server = await startTestServer({ ...ENV, OPERATOR_ORIGINS: 'https://casino.example,http://localhost:8080' });
    const framed = await fetch(`${base(server)}/health`);
    assert.match(framed.headers.get('content-security-policy')!, /frame-ancestors 'self' https:\/\/casino\.example http:\/\/localhost:8080(;|$)/);
    assert.equal(framed.headers.get('x-frame-options'), null);
    await server.stop();
    server = await startTestServer(ENV);
    const alone = await fetch(`${base(server)}/health`);
    assert.match(alone.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    assert.equal(alone.headers.get('x-frame-options'), 'DENY');
  });

  it('refuses the dev login and the funding routes in seamless mode', async () => {
    server = await startTestServer({ ...ENV, WALLET_MODE: 'seamless', WALLET_URL: 'http://127.0.0.1:9/wallet', OPERATOR_TOKEN: 'operator-token' });
    const login = await fetch(`${base(server)}/auth/dev-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Alice"}' });
    assert.equal(login.status, 404);
    assert.equal(await refusalCode(login), 'auth/dev_login_off');
    for (const operation of ['deposit', 'withdraw']) {
      const res = await fetch(`${base(server)}/admin/wallets/p1/${operation}`, {
        method: 'POST',
        headers: { authorization: 'Bearer operator-token', 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 100, requestId: `r-${operation}` }),
      });
      assert.equal(res.status, 409, operation);
      assert.equal(await refusalCode(res), 'wallet/not_here');
    }
  });

  it('has the launch off without OPERATOR_SECRET', async () => {
    server = await startTestServer({ JWT_SECRET });
    const res = await signed(server, '/operator/launch', LAUNCH);
    assert.equal(res.status, 404);
    assert.equal(await refusalCode(res), 'operator/launch_off');
  });
});

describe('operator launch (Redis, two processes)', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let a: RunningServer;
  let b: RunningServer;
  before(async () => {
    redis = await RedisServer.start();
    const env = { ...ENV, REDIS_URL: redis.url, REDIS_PREFIX: 'launch', CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey() };
    // Each at its public address: a seat reserved on one process may be in a room of the other.
    a = await startTestServerOnItsPort((port) => ({ ...env, PUBLIC_ADDRESS: `127.0.0.1:${port}` }));
    b = await startTestServerOnItsPort((port) => ({ ...env, PUBLIC_ADDRESS: `127.0.0.1:${port}` }));
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  it('takes a signed request once across processes: replayed on another, it is refused', async () => {
    const text = JSON.stringify(LAUNCH);
    const signature = signRequest(SECRET, { method: 'POST', path: '/operator/launch', body: text }, Date.now());
    assert.equal((await signed(a, '/operator/launch', LAUNCH, () => signature)).status, 200);
    const replayed = await signed(b, '/operator/launch', LAUNCH, () => signature);
    assert.equal(replayed.status, 409);
    assert.equal(await refusalCode(replayed), 'operator/replayed');
  });

  it('opens a launch URL once across processes', async () => {
    const { url } = await launchUrl(a);
    assert.equal((await open(url)).status, 303);
    assert.equal((await open(url.replace(base(a), base(b)))).status, 410);
  });

  it("ends a player's session on another process: the token is refused there too, and the table is closed, told why", async () => {
    const { token } = await launchSession(a, { ...LAUNCH, player: 'op-player-9' });
    const client = new Client(base(a));
    client.auth.token = token;
    const room = await client.create('table', { game: 'rain-diamonds' });
    const left = new Promise<number>((resolve) => room.onLeave((code) => resolve(code)));
    assert.equal((await signed(b, '/operator/sessions/end', { player: 'op-player-9' })).status, 200);
    assert.equal(await left, 4403);
    for (const server of [a, b]) assert.equal(await refusalCode(await protection(server, token)), 'auth/session_ended');
  });
});
