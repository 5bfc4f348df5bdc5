import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type Room } from '@colyseus/sdk';
import { Redis } from 'ioredis';
import { SignJWT } from 'jose';
import { RedisWalletTransactions } from '../../src/wallet/seamless/redis-wallet-transactions';
import { reconcile } from '../../src/wallet/reconcile';
import { ledgerLines } from '../../src/wallet/seamless/ledger';
import { startCluster, type Cluster } from '../../scripts/start-cluster';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';
import { ReferenceOperator } from '../../tools/reference-operator';
import { freePort, RedisServer } from '../../tools/redis-server';
import { tablesOnTwoProcesses } from '../support/two-processes';
import { leaveQuietly } from '../rooms/helpers';

const SECRET = 'the shared operator secret, 32+ chars';
const JWT_SECRET = 'the race tests token secret, 32+ chars';
const PREFIX = 'seamless-race';
const STAKE = 100;
const ROUNDS = 4;

/**
 * Two server processes on one Redis, one player, two purchases at once — one table on each
 * process (two games at the same price) — at a balance just enough for one, and at a stake
 * limit's exact boundary: one unit is dealt, the other refused, and the two ledgers agree. One
 * debit of a player at a time goes to the operator (the player's debit slot): the limit refuses
 * the second purchase before its debit is asked.
 */
describe('the seamless wallet, two processes racing for one player', function () {
  this.timeout(180_000);
  let dir: string;
  let operator: ReferenceOperator;
  let redis: RedisServer;
  let cluster: Cluster;
  let reader: Redis;
  const logs: string[] = [];
  const rooms: Room[] = [];

  before(async function () {
    this.timeout(120_000);
    dir = mkdtempSync(join(tmpdir(), 'seamless-race-'));
    operator = await ReferenceOperator.start({ ledger: join(dir, 'ledger.ndjson'), secret: SECRET, env: { OPERATOR_AUTO_CREATE: '1', START_BALANCE_CENTS: String(STAKE) } });
    redis = await RedisServer.start();
    reader = new Redis(redis.url);
    cluster = await startCluster({
      ports: [await freePort(), await freePort()],
      env: {
        REDIS_URL: redis.url, REDIS_PREFIX: PREFIX, JWT_SECRET, CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey(), EMISSION_BLOCKS: '2', PACE_UNIT_MS: '0',
        WALLET_MODE: 'seamless', WALLET_URL: `http://127.0.0.1:${operator.port}/wallet`, OPERATOR_SECRET: SECRET,
      },
      onLine: (i, line) => logs.push(`[p${i}] ${line}`),
    });
  });
  after(async function () {
    this.timeout(60_000);
    for (const room of rooms) await leaveQuietly(room);
    await cluster?.stop();
    reader?.disconnect();
    await redis?.stop();
    await operator?.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(logs.slice(-40).join('\n'));
  });

  const url = (i: number) => `http://127.0.0.1:${cluster.processes[i]!.port}`;


  async function tokenOf(player: string): Promise<string> {
    return new SignJWT({ name: player }).setProtectedHeader({ alg: 'HS256' }).setSubject(player).setExpirationTime('1h').sign(new TextEncoder().encode(JWT_SECRET));
  }

  /** A table of Noël on one process and one of Mine d'or on the other, both at 1 €. */
  async function twoTables(player: string): Promise<[Room, Room]> {
    const token = await tokenOf(player);
    const open = async (i: number, game: string) => {
      const client = new Client(url(i));
      client.auth.token = token;
      const room = await client.create('table', { game });
      room.onMessage('*', () => undefined);
      rooms.push(room);
      return room;
    };
    return tablesOnTwoProcesses(reader, open, ['noel-de-la-chance', 'mine-d-or']);
  }

  async function setLimit(player: string, cents: number): Promise<void> {
    const res = await fetch(`${url(0)}/protection/limits`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${await tokenOf(player)}` }, body: JSON.stringify({ stake_week: cents }) });
    assert.equal(res.status, 200);
  }

  /** Both purchases at once; each answer's code ('sold' for a unit). */
  async function race(a: Room, b: Room, round: number): Promise<string[]> {
    const buy = (room: Room, id: string) => room.request('buy', { stake: STAKE, requestId: id }).then(() => 'sold', (err: unknown) => /"code":"([^"]+)"|([a-z]+\/[a-z_]+)/.exec(JSON.stringify(err))?.slice(1).find(Boolean) ?? String(err));
    return (await Promise.all([buy(a, `a${round}`), buy(b, `b${round}`)])).sort();
  }

  async function ledgersAgree(): Promise<void> {
    const outbox = new RedisWalletTransactions(reader, PREFIX);
    const deadline = Date.now() + 30_000;
    while ((await outbox.due(Number.MAX_SAFE_INTEGER, 1)).length > 0) {
      assert.ok(Date.now() < deadline, 'every movement decided');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The top-ups are the operator's own (deposits): not the game server's movements.
    const theirs = (await operator.ledger()).filter((l) => l.round !== 'top-up');
    const differences = reconcile(ledgerLines(await outbox.created(0, Number.MAX_SAFE_INTEGER)), theirs).differences;
    assert.deepEqual(differences, []);
  }

  it('at a balance just enough for one: one unit, the other refused by the operator', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const player = `poor${round}`;
      await setLimit(player, 100_000);
      const [a, b] = await twoTables(player);
      const codes = await race(a, b, round);
      const lines = (await operator.ledger()).filter((l) => l.player === player);
      const debits = lines.filter((l) => l.kind === 'debit' && l.state === 'standing');
      // One debit at a time: a Mine d'or ticket that wins at purchase is credited before the
      // other purchase's debit, which that prize then pays for.
      const paidBefore = lines.some((l) => l.kind === 'credit' && l.amount >= STAKE);
      assert.deepEqual(codes, paidBefore && debits.length === 2 ? ['sold', 'sold'] : ['purchase/insufficient_funds', 'sold']);
      assert.equal(debits.length, codes.filter((c) => c === 'sold').length, 'one standing debit a unit sold');
    }
    await ledgersAgree();
  });

  it("at the stake limit's exact boundary: one unit, the other refused by the limit before any debit of it", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const player = `limited${round}`;
      await setLimit(player, STAKE);
      // Money for ten stakes: only the limit can refuse.
      assert.equal((await operator.call('credit', { transactionId: `top-up-${player}`, player, round: 'top-up', game: 'top-up', amount: 10 * STAKE, currency: 'EUR' })).status, 200);
      const [a, b] = await twoTables(player);
      assert.deepEqual(await race(a, b, round), ['limit/stake_week', 'sold']);
      const debits = (await operator.ledger()).filter((l) => l.player === player && l.kind === 'debit');
      assert.deepEqual(debits.map((l) => l.state), ['standing'], 'one debit asked, and it stands');
    }
    await ledgersAgree();
  });
});
