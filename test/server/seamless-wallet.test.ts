import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@colyseus/sdk';
import { SignJWT } from 'jose';
import type { LedgerLine } from '../../src/protocol/operator-api';
import type { RunningServer } from '../../src/server/app';
import { reconcile } from '../../src/wallet/reconcile';
import { ledgerLines } from '../../src/wallet/seamless/ledger';
import { ReferenceOperator } from '../../tools/reference-operator';
import { RedisServer } from '../../tools/redis-server';
import { setHarnessStakeLimit } from '../../tools/stake-limit';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';
import { startTestServer } from '../support/game-server';
import { eventually, reasonOf } from '../rooms/helpers';

const SECRET = 'the shared operator secret, 32+ chars';
const JWT_SECRET = 'the servers token secret, 32+ characters';
const ADMIN = 'operator-admin-token';
const CHECKPOINT_KEY = newCheckpointSigningKey();
const STAKE = 500;
const GAME = '500000-carats';

/** Waits until `check` holds (the outbox's sender works on its own schedule). */
const waitFor = (check: () => Promise<boolean>, what: string, timeoutMs = 20_000) => eventually(check, (ok) => ok, what, timeoutMs);

describe('the seamless wallet, against the reference operator', function () {
  this.timeout(120_000);
  let dir: string;
  let operator: ReferenceOperator;
  let redis: RedisServer;
  let server: RunningServer;
  let players = 0;

  const env = () => ({
    WALLET_MODE: 'seamless', WALLET_URL: `http://127.0.0.1:${operator.port}/wallet`, OPERATOR_SECRET: SECRET, WALLET_TIMEOUT_MS: '1000',
    JWT_SECRET, REDIS_URL: redis.url, REDIS_PREFIX: 'seamless-test', CHECKPOINT_SIGNING_KEY: CHECKPOINT_KEY, OPERATOR_TOKEN: ADMIN,
  });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seamless-'));
    operator = await ReferenceOperator.start({ ledger: join(dir, 'ledger.ndjson'), secret: SECRET, adminToken: ADMIN, env: { OPERATOR_AUTO_CREATE: '1', START_BALANCE_CENTS: '5000' } });
    redis = await RedisServer.start();
    server = await startTestServer(env());
  });
  after(async () => {
    await server?.stop();
    await operator?.kill();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await operator.admin('DELETE', '/admin/faults');
  });

  async function player(name = `p${++players}`) {
    const token = await new SignJWT({ name }).setProtectedHeader({ alg: 'HS256' }).setSubject(name).setExpirationTime('1h').sign(new TextEncoder().encode(JWT_SECRET));
    await setHarnessStakeLimit(`http://127.0.0.1:${server.port}`, token);
    const client = new Client(`http://127.0.0.1:${server.port}`);
    client.auth.token = token;
    const room = await client.create('table', { game: GAME });
    room.onMessage('*', () => undefined);
    return { name, token, room };
  }

  /** The server's ledger and the operator's, once every movement is decided. */
  async function ledgers(): Promise<{ server: LedgerLine[]; operator: LedgerLine[] }> {
    const outbox = server.services.seamless!.outbox;
    await waitFor(async () => (await outbox.due(Number.MAX_SAFE_INTEGER, 1)).length === 0, 'every movement decided');
    // The top-ups are the operator's own (deposits): not the game server's movements.
    return { server: ledgerLines(await outbox.created(0, Number.MAX_SAFE_INTEGER)), operator: (await operator.ledger()).filter((l) => l.round !== 'top-up') };
  }

  async function faults(plan: unknown): Promise<void> {
    const { status } = await operator.admin('POST', '/admin/faults', plan);
    assert.equal(status, 200, 'the fault plan taken');
  }

  const balanceAt = async (name: string) => (await operator.call('balance', { player: name, currency: 'EUR' })).body['balance'] as number;

  it("debits each stake and credits each prize on the operator's ledger, the two ledgers equal", async () => {
    const { name, room } = await player();
    let won = 0;
    for (let i = 0; i < 6; i++) {
      const bought = (await room.request('buy', { stake: STAKE, requestId: `u${i}` })) as { unitIds: string[]; wallet: { balance: number } };
      assert.equal(bought.wallet.balance, 5000 - STAKE * (i + 1) + won, "the wallet shown is the operator's");
      await room.request('act', { action: { type: 'auto' } });
      const sale = await server.services.dealer.sales.getSale(bought.unitIds[0]!);
      won += sale!.prize;
    }
    await waitFor(async () => (await balanceAt(name)) === 5000 - 6 * STAKE + won, 'the prizes credited');
    const { server: ours, operator: theirs } = await ledgers();
    assert.deepEqual(reconcile(ours, theirs).differences, []);
    assert.equal(theirs.filter((l) => l.player === name && l.kind === 'debit').length, 6);
    await room.leave();
  });

  it("ends a purchase the operator refuses with its own code, dealing nothing and debiting nothing", async () => {
    const { name, room } = await player();
    await operator.admin('POST', '/admin/players', { player: name, blocked: true });
    await assert.rejects(room.request('buy', { stake: STAKE, requestId: 'blocked' }), (err: unknown) => /wallet\/player_blocked/.test(JSON.stringify(err)));
    assert.deepEqual(await server.services.dealer.sales.listSales(name, 0, 10), []);
    assert.deepEqual((await operator.ledger()).filter((l) => l.player === name), []);
    await room.leave();
  });

  it('rolls back a debit whose answer was lost after it was made, and deals nothing', async () => {
    const { name, room } = await player();
    await faults({ seed: '1', rules: [{ fault: 'drop', calls: ['debit'], count: 1 }] });
    await assert.rejects(room.request('buy', { stake: STAKE, requestId: 'dropped' }), (err: unknown) => /wallet\/undecided/.test(JSON.stringify(err)));
    assert.deepEqual(await server.services.dealer.sales.listSales(name, 0, 10), []);
    const { server: ours, operator: theirs } = await ledgers();
    assert.deepEqual(theirs.filter((l) => l.player === name).map((l) => [l.kind, l.state]).sort(), [['debit', 'rolled_back'], ['rollback', 'applied']]);
    assert.equal(await balanceAt(name), 5000);
    assert.deepEqual(reconcile(ours, theirs).differences, []);
    // The same purchase again buys nothing: its debit is rolled back.
    await assert.rejects(room.request('buy', { stake: STAKE, requestId: 'dropped' }), (err: unknown) => /wallet\/undecided/.test(JSON.stringify(err)));
    await room.leave();
  });

  it("pays a prize after the wallet's outage, and after a restart of the game server", async () => {
    const { name, room } = await player();
    // Money for a hundred tickets: the loop buys until one wins (ten losses in a row happen).
    const start = 5000 + 100 * STAKE;
    assert.equal((await operator.call('credit', { transactionId: `top-up-${name}`, player: name, round: 'top-up', game: 'top-up', amount: 100 * STAKE, currency: 'EUR' })).status, 200);
    let prize = 0;
    let bought = 0;
    for (let i = 0; prize === 0; i++) {
      const { unitIds } = (await room.request('buy', { stake: STAKE, requestId: `w${i}` }).catch((err: unknown) => assert.fail(`buy ${i}: ${reasonOf(err)}`))) as { unitIds: string[] };
      bought++;
      // The credit of a win meets the outage: the unit is settled, its credit left due.
      await faults({ seed: '2', rules: [], outage: { seconds: 3, mode: 'reset', calls: ['credit'] } });
      await room.request('act', { action: { type: 'auto' } }).catch((err: unknown) => assert.fail(`act ${i}: ${reasonOf(err)}`));
      prize = (await server.services.dealer.sales.getSale(unitIds[0]!))!.prize;
      if (prize === 0) await operator.admin('DELETE', '/admin/faults');
    }
    await room.leave();
    assert.equal(await balanceAt(name), start - bought * STAKE, 'not paid during the outage');
    // Another process takes over the outbox.
    await server.stop();
    server = await startTestServer(env());
    await waitFor(async () => (await balanceAt(name)) === start - bought * STAKE + prize, 'the prize paid after the outage', 30_000);
    const { server: ours, operator: theirs } = await ledgers();
    assert.deepEqual(reconcile(ours, theirs).differences, []);
    assert.equal(theirs.filter((l) => l.player === name && l.kind === 'credit').length, 1, 'paid once');
  });
});
