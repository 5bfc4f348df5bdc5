import { strict as assert } from 'node:assert';
import { SignJWT } from 'jose';
import type { RunningServer } from '../../src/server/app';
import { startTestServer } from '../support/game-server';

const SECRET = 'wallet-routes-secret-of-32-chars-or-more';
const OPERATOR = 'operator-token-for-the-wallet-tests';

describe('wallet funding (operator API)', function () {
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

  const call = (operation: string, playerId: string, body: unknown, token = OPERATOR) =>
    fetch(`${base}/admin/wallets/${playerId}/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });

  it('deposits once per request id and answers the same journal line to a retry', async () => {
    const first = await call('deposit', 'acct-1', { amount: 2500, requestId: 'dep-1' });
    assert.equal(first.status, 200);
    const body = (await first.json()) as { balance: number; entry: { seq: number; kind: string; amount: number } };
    assert.equal(body.balance, 2500);
    assert.deepEqual([body.entry.seq, body.entry.kind, body.entry.amount], [1, 'deposit', 2500]);
    const retry = (await (await call('deposit', 'acct-1', { amount: 2500, requestId: 'dep-1' })).json()) as typeof body;
    assert.equal(retry.balance, 2500);
    assert.deepEqual(retry.entry, body.entry);
  });

  it('withdraws, never below zero, and shows both in the player\'s wallet journal', async () => {
    await call('deposit', 'acct-2', { amount: 2000, requestId: 'dep-1' });
    const refused = await call('withdraw', 'acct-2', { amount: 2001, requestId: 'wd-1' });
    assert.equal(refused.status, 409);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'wallet/insufficient_funds');
    const ok = await call('withdraw', 'acct-2', { amount: 1500, requestId: 'wd-1' });
    assert.equal(((await ok.json()) as { balance: number }).balance, 500);

    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct-2').setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
    const wallet = (await (await fetch(`${base}/wallet`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      balance: number;
      journal: { kind: string; amount: number; balance: number }[];
    };
    assert.equal(wallet.balance, 500);
    assert.deepEqual(wallet.journal.map((e) => [e.kind, e.amount, e.balance]), [['withdrawal', -1500, 500], ['deposit', 2000, 2000]]);
    const admin = (await (await fetch(`${base}/admin/wallets/acct-2`, { headers: { authorization: `Bearer ${OPERATOR}` } })).json()) as { balance: number; journal: unknown[] };
    assert.equal(admin.balance, 500);
    assert.equal(admin.journal.length, 2);
  });

  it('refuses callers without the operator token, and amounts that are not whole positive cents', async () => {
    assert.equal((await call('deposit', 'acct-3', { amount: 100, requestId: 'x' }, 'wrong-token')).status, 401);
    assert.equal((await fetch(`${base}/admin/wallets/acct-3`)).status, 401);
    for (const body of [{ amount: -100, requestId: 'x' }, { amount: 10.5, requestId: 'x' }, { amount: '100', requestId: 'x' }, { amount: 0, requestId: 'x' }, { amount: 100 }, { amount: 100, requestId: 'a|b' }]) {
      const res = await call('deposit', 'acct-3', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'wallet/malformed');
    }
    assert.equal((await call('deposit', 'bad%20id', { amount: 100, requestId: 'x' })).status, 400);
    assert.equal(await server.services.dealer.balance('acct-3'), 0);
  });
});
