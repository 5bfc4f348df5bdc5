import { strict as assert } from 'node:assert';
import type { RunningServer } from '../../src/server/app';
import { devLogin, startTestServer } from '../support/game-server';

const SECRET = 'personal-answers-secret-of-32-chars!';
const OPERATOR = 'operator-token-of-the-personal-answers';

describe('personal answers', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let base: string;

  before(async () => {
    server = await startTestServer({ JWT_SECRET: SECRET, OPERATOR_TOKEN: OPERATOR });
    base = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await server.stop();
  });

  const cacheControlOf = async (path: string, token: string | undefined, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, { ...init, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    await res.body?.cancel();
    return res.headers.get('cache-control');
  };

  it('are never stored: the wallet, the protection, the history and recall, the dev login, the seat reservation, the operator’s answers', async () => {
    const { token, playerId } = await devLogin(server, 'Alice');
    const personal: [string, string | undefined, RequestInit?][] = [
      ['/wallet', token],
      ['/protection', token],
      ['/protection/limits', token, { method: 'PUT', body: JSON.stringify({ stake_week: 5000 }) }],
      ['/history', token],
      ['/history/noel.0:0', token],
      ['/wallet', undefined],
      ['/auth/dev-login', undefined, { method: 'POST', body: JSON.stringify({ name: 'Bob' }) }],
      ['/matchmake/create/table', token, { method: 'POST', body: JSON.stringify({ game: 'rain-diamonds' }) }],
      [`/admin/wallets/${playerId}`, OPERATOR],
      [`/admin/wallets/${playerId}/journal`, OPERATOR],
      [`/admin/players/${playerId}/protection`, OPERATOR],
      ['/admin/blocks', OPERATOR],
    ];
    for (const [path, bearer, init] of personal) assert.equal(await cacheControlOf(path, bearer, init), 'no-store', `${init?.method ?? 'GET'} ${path}${bearer ? '' : ' (no token)'}`);
  });

  it('leave the public answers cacheable as they were', async () => {
    assert.equal(await cacheControlOf('/games', undefined), 'public, max-age=60');
    assert.equal(await cacheControlOf('/fairness/blocks', undefined), null);
  });
});
