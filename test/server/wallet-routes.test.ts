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
    const admin = await (await fetch(`${base}/admin/wallets/acct-2`, { headers: { authorization: `Bearer ${OPERATOR}` } })).json();
    assert.deepEqual(admin, { playerId: 'acct-2', balance: 500, held: 0 });
  });

  it('refuses a request id sent again with another amount (409 request/mismatch), and answers the same request as the first', async () => {
    await call('deposit', 'acct-4', { amount: 1000, requestId: 'dep-1' });
    await call('withdraw', 'acct-4', { amount: 300, requestId: 'wd-1' });
    for (const [operation, amount, requestId] of [['deposit', 1001, 'dep-1'], ['withdraw', 301, 'wd-1']] as const) {
      const res = await call(operation, 'acct-4', { amount, requestId });
      assert.equal(res.status, 409, `${operation} ${amount}`);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'request/mismatch');
    }
    const again = await call('deposit', 'acct-4', { amount: 1000, requestId: 'dep-1' });
    assert.equal(again.status, 200);
    assert.deepEqual(((await again.json()) as { entry: { seq: number; amount: number } }).entry.seq, 1);
    assert.equal(await server.services.dealer.wallets.balance('acct-4'), 700);
  });

  it('refuses a withdrawal reusing a deposit\'s request id, and a deposit reusing a withdrawal\'s (409 request/mismatch), changing nothing', async () => {
    await call('deposit', 'acct-funding', { amount: 1000, requestId: 'pay-1' });
    await call('withdraw', 'acct-funding', { amount: 300, requestId: 'pay-2' });
    for (const [operation, amount, requestId] of [['withdraw', 1000, 'pay-1'], ['withdraw', 10, 'pay-1'], ['deposit', 300, 'pay-2']] as const) {
      const res = await call(operation, 'acct-funding', { amount, requestId });
      assert.equal(res.status, 409, `${operation} ${amount} ${requestId}`);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'request/mismatch');
    }
    assert.equal(await server.services.dealer.wallets.balance('acct-funding'), 700);
    assert.equal((await server.services.dealer.wallets.journal('acct-funding')).length, 2);
  });

  it('pages the operator\'s journal view newest first, with the seq to read on from', async () => {
    for (let i = 1; i <= 5; i++) await call('deposit', 'acct-5', { amount: i, requestId: `dep-${i}` });
    const page = async (query: string) => {
      const res = await fetch(`${base}/admin/wallets/acct-5/journal${query}`, { headers: { authorization: `Bearer ${OPERATOR}` } });
      return { status: res.status, body: (await res.json()) as { journal?: { seq: number }[]; next?: number | null; error?: { code: string } } };
    };
    const first = await page('?limit=2');
    assert.deepEqual([first.body.journal!.map((e) => e.seq), first.body.next], [[5, 4], 4]);
    const second = await page(`?before=${first.body.next}&limit=2`);
    assert.deepEqual([second.body.journal!.map((e) => e.seq), second.body.next], [[3, 2], 2]);
    const last = await page(`?before=${second.body.next}&limit=2`);
    assert.deepEqual([last.body.journal!.map((e) => e.seq), last.body.next], [[1], null]);
    assert.equal((await page('')).body.journal!.length, 5, 'a default page of 100');
    for (const query of ['?limit=0', '?limit=501', '?before=0', '?before=x', '?limit=2&offset=1']) {
      const refused = await page(query);
      assert.deepEqual([refused.status, refused.body.error?.code], [400, 'wallet/malformed'], query);
    }
    assert.equal((await fetch(`${base}/admin/wallets/acct-5/journal`)).status, 401);
  });

  it('gives the operator\'s events after an id, to the operator only', async () => {
    const res = await fetch(`${base}/admin/events?limit=10`, { headers: { authorization: `Bearer ${OPERATOR}` } });
    assert.deepEqual(await res.json(), { events: [], next: '0' }, 'no threshold set: no event');
    for (const query of ['?limit=0', '?limit=501', '?after=abc', '?after=1-2-3', '?since=1']) {
      const refused = await fetch(`${base}/admin/events${query}`, { headers: { authorization: `Bearer ${OPERATOR}` } });
      assert.equal(refused.status, 400, query);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'events/malformed');
    }
    assert.equal((await fetch(`${base}/admin/events`)).status, 401);
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
    assert.equal(await server.services.dealer.wallets.balance('acct-3'), 0);
  });
});

describe('withdrawal threshold (WITHDRAWAL_THRESHOLD_CENTS)', function () {
  this.timeout(30_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer({ JWT_SECRET: SECRET, OPERATOR_TOKEN: OPERATOR, WITHDRAWAL_THRESHOLD_CENTS: '0' });
  });
  after(async () => {
    await server.stop();
  });

  it('tells the operator\'s system when a prize takes a balance above the threshold', async () => {
    const { dealer } = server.services;
    const { game, stake } = (await dealer.emissions.listEmissions())[0]!;
    // Each try stakes the whole balance (down to 0, the threshold): the first win crosses it.
    let won;
    for (let i = 0; !won && i < 100; i++) {
      await dealer.wallets.deposit('acct-t', stake, `try-${i}`, Date.now());
      const bought = await dealer.sales.purchase({ playerId: 'acct-t', requestId: `r${i}`, game, stake, now: Date.now() });
      assert.ok(bought.ok);
      await dealer.sales.settle(bought.sale.unitId, Date.now());
      if (bought.sale.prize > 0) won = bought.sale;
    }
    assert.ok(won, 'a win within 100 units');
    const res = await fetch(`http://127.0.0.1:${server.port}/admin/events`, { headers: { authorization: `Bearer ${OPERATOR}` } });
    const body = (await res.json()) as { events: { id: string; playerId: string; kind: string; balance: number; threshold: number }[]; next: string };
    assert.deepEqual(body.events.map(({ playerId, kind, balance, threshold }) => ({ playerId, kind, balance, threshold })), [
      { playerId: 'acct-t', kind: 'withdrawal_threshold', balance: won.prize, threshold: 0 },
    ]);
    assert.equal(body.next, body.events[0]!.id);
  });
});
