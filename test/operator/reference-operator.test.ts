import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSignature, MAX_SKEW_SECONDS, SIGNATURE_HEADER } from '../../src/operator/signature';
import type { LaunchRequest, MoveRequest, RollbackRequest } from '../../src/protocol/operator-api';
import { ReferenceOperator } from '../../tools/reference-operator';

const SECRET = 's'.repeat(40);
const TOKEN = 'admin-token-of-the-test';

let ids = 0;
function debit(player: string, amount = 200, fields: Partial<MoveRequest> = {}): MoveRequest {
  ids++;
  return { transactionId: `d-${ids}`, player, round: `r-${ids}`, game: 'noel', amount, currency: 'EUR', ...fields };
}
function credit(player: string, amount = 500): MoveRequest {
  ids++;
  return { transactionId: `c-${ids}`, player, round: `r-${ids}`, game: 'noel', amount, currency: 'EUR' };
}
function rollback(of: MoveRequest | string, player: string): RollbackRequest {
  ids++;
  return { transactionId: `rb-${ids}`, referenceTransactionId: typeof of === 'string' ? of : of.transactionId, player, round: `r-${ids}`, currency: 'EUR' };
}

/** A game server's stand-in: its catalog, and a launch that checks the signature and records the request. */
function stubGameServer(launches: LaunchRequest[]): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/games') return void res.end(JSON.stringify([{ id: 'noel', name: 'Mission Noël' }, { id: 'astro', name: 'Astro' }]));
      const signed = checkSignature(SECRET, req.headers[SIGNATURE_HEADER] as string, { method: req.method!, path: req.url!, body }, Date.now());
      if (req.url !== '/operator/launch' || !signed.ok) return void res.writeHead(401).end('{}');
      launches.push(JSON.parse(body) as LaunchRequest);
      res.end(JSON.stringify({ url: 'http://game.test/launch/one-use-code', expiresAt: Date.now() + 60_000 }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('the reference operator', function () {
  this.timeout(60_000);
  let dir: string;
  let operator: ReferenceOperator;
  let game: Server;
  const launches: LaunchRequest[] = [];
  let players = 0;
  const newPlayer = async () => {
    const player = `p${++players}`;
    assert.equal((await operator.admin('POST', '/admin/players', { player })).status, 200);
    return player;
  };
  const balanceOf = async (player: string) => (await operator.call('balance', { player, currency: 'EUR' })).body['balance'];
  const linesOf = async (player: string) => (await operator.ledger()).filter((l) => l.player === player);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'operator-'));
    game = await stubGameServer(launches);
    const { port } = game.address() as { port: number };
    operator = await ReferenceOperator.start({ ledger: join(dir, 'ledger.ndjson'), secret: SECRET, adminToken: TOKEN, gameServer: `http://127.0.0.1:${port}`, env: { START_BALANCE_CENTS: '1000' } });
  });
  afterEach(async () => {
    await operator.admin('DELETE', '/admin/faults');
  });
  after(async () => {
    await operator?.stop();
    game?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('wallet', () => {
    it('opens an account with the starting balance, and debits and credits it', async () => {
      const player = await newPlayer();
      assert.deepEqual((await operator.call('balance', { player, currency: 'EUR' })).body, { balance: 1000, currency: 'EUR' });
      const paid = await operator.call('debit', debit(player, 200));
      assert.equal(paid.status, 200);
      assert.equal(paid.body['balance'], 800);
      assert.match(paid.body['operatorTransactionId'] as string, /^op-\d+$/);
      assert.equal((await operator.call('credit', credit(player, 500))).body['balance'], 1300);
    });

    it('answers the same transaction id with the same answer and never moves twice', async () => {
      const player = await newPlayer();
      const d = debit(player);
      const c = credit(player);
      const first = [await operator.call('debit', d), await operator.call('credit', c)];
      assert.deepEqual([await operator.call('debit', d), await operator.call('credit', c)], first);
      assert.equal(await balanceOf(player), 1300);
      assert.deepEqual((await linesOf(player)).map((l) => l.transactionId), [d.transactionId, c.transactionId]);
    });

    it('refuses a transaction id used again for another movement (400 invalid_request)', async () => {
      const player = await newPlayer();
      const d = debit(player, 200);
      await operator.call('debit', d);
      assert.deepEqual(await operator.call('debit', { ...d, amount: 300 }).then((r) => [r.status, r.body['error']]), [400, 'invalid_request']);
      assert.equal(await balanceOf(player), 800);
    });

    it('refuses a debit above the balance (402 insufficient_funds), moving nothing', async () => {
      const player = await newPlayer();
      const refused = await operator.call('debit', debit(player, 1001));
      assert.equal(refused.status, 402);
      assert.equal(refused.body['error'], 'insufficient_funds');
      assert.equal(refused.body['balance'], 1000);
      assert.deepEqual(await linesOf(player), []);
    });

    it('undoes a debit once, whatever the rollbacks of it', async () => {
      const player = await newPlayer();
      const d = debit(player, 200);
      await operator.call('debit', d);
      const rb = rollback(d, player);
      assert.equal((await operator.call('rollback', rb)).body['balance'], 1000);
      assert.equal((await operator.call('rollback', rb)).body['balance'], 1000);
      assert.equal((await operator.call('rollback', rollback(d, player))).status, 200);
      assert.equal(await balanceOf(player), 1000);
      assert.deepEqual((await linesOf(player)).map((l) => [l.kind, l.state, l.amount]), [['debit', 'rolled_back', 200], ['rollback', 'applied', 200], ['rollback', 'unmatched', 0]]);
    });

    it('acknowledges the rollback of a debit it never saw, and refuses that debit arriving later (409 transaction_rolled_back)', async () => {
      const player = await newPlayer();
      const late = debit(player, 200);
      const rb = await operator.call('rollback', rollback(late, player));
      assert.deepEqual([rb.status, rb.body['balance']], [200, 1000]);
      const refused = await operator.call('debit', late);
      assert.deepEqual([refused.status, refused.body['error']], [409, 'transaction_rolled_back']);
      assert.equal(await balanceOf(player), 1000);
    });

    it('refuses a blocked player (403 player_blocked) but still pays their prize', async () => {
      const player = await newPlayer();
      await operator.admin('POST', '/admin/players', { player, blocked: true });
      assert.deepEqual(await operator.call('debit', debit(player)).then((r) => [r.status, r.body['error']]), [403, 'player_blocked']);
      assert.equal((await operator.call('credit', credit(player, 100))).status, 200);
      await operator.admin('POST', '/admin/players', { player, blocked: false });
      assert.equal((await operator.call('debit', debit(player))).status, 200);
    });

    it('refuses a player without an account (404 unknown_player)', async () => {
      assert.deepEqual(await operator.call('debit', debit('nobody')).then((r) => [r.status, r.body['error']]), [404, 'unknown_player']);
    });

    it('refuses a call signed with another secret, or at a time more than 300 s off (401 invalid_signature)', async () => {
      const player = await newPlayer();
      const forged = await operator.call('debit', debit(player), { secret: 'x'.repeat(40) });
      assert.deepEqual([forged.status, forged.body['error']], [401, 'invalid_signature']);
      const stale = await operator.call('debit', debit(player), { signedAt: Date.now() - (MAX_SKEW_SECONDS + 1) * 1000 });
      assert.deepEqual([stale.status, stale.body['error'], stale.body['message']], [401, 'invalid_signature', 'signature skew']);
      assert.equal((await operator.call('debit', debit(player), { signedAt: Date.now() - (MAX_SKEW_SECONDS - 10) * 1000 })).status, 200);
    });

    it('refuses a malformed body (400 invalid_request)', async () => {
      const player = await newPlayer();
      for (const bad of [{ ...debit(player), amount: 1.5 }, { ...debit(player), currency: 'USD' }, { ...debit(player), extra: 1 }]) {
        const answer = await operator.call('debit', bad as MoveRequest);
        assert.deepEqual([answer.status, answer.body['error']], [400, 'invalid_request'], JSON.stringify(bad));
      }
    });
  });

  describe('faults', () => {
    const plan = (rule: object) => operator.admin('POST', '/admin/faults', { seed: 'test', rules: [rule] });

    it('refuses the admin calls without the bearer token', async () => {
      const res = await fetch(`${operator.url}/admin/faults`, { method: 'POST', body: '{}' });
      assert.equal(res.status, 401);
    });

    it('adds latency', async () => {
      const player = await newPlayer();
      await plan({ fault: 'latency', ms: 400, count: 1, calls: ['debit'] });
      const start = Date.now();
      assert.equal((await operator.call('debit', debit(player))).status, 200);
      assert.ok(Date.now() - start >= 400);
    });

    it('holds a call unanswered until the client gives up, moving nothing (or moving, with apply)', async () => {
      const player = await newPlayer();
      await plan({ fault: 'timeout', count: 1, calls: ['debit'] });
      await assert.rejects(operator.call('debit', debit(player), { timeoutMs: 300 }), /aborted/);
      await plan({ fault: 'timeout', apply: true, count: 1, calls: ['debit'] });
      const d = debit(player);
      await assert.rejects(operator.call('debit', d, { timeoutMs: 300 }), /aborted/);
      assert.deepEqual((await linesOf(player)).map((l) => l.transactionId), [d.transactionId]);
    });

    it('answers a 5xx, moving nothing (or moving, with apply)', async () => {
      const player = await newPlayer();
      await plan({ fault: 'status', status: 503, count: 1, calls: ['credit'] });
      assert.equal((await operator.call('credit', credit(player))).status, 503);
      assert.deepEqual(await linesOf(player), []);
      await plan({ fault: 'status', apply: true, count: 1, calls: ['credit'] });
      const c = credit(player);
      assert.equal((await operator.call('credit', c)).status, 500);
      assert.equal((await operator.call('credit', c)).status, 200);
      assert.equal(await balanceOf(player), 1500);
    });

    it('drops the answer of a movement it applied, and answers its retry without moving again', async () => {
      const player = await newPlayer();
      await plan({ fault: 'drop', count: 1, calls: ['debit'] });
      const d = debit(player, 300);
      await assert.rejects(operator.call('debit', d), /fetch failed/);
      assert.equal(await balanceOf(player), 700);
      assert.equal((await operator.call('debit', d)).body['balance'], 700);
      assert.equal((await linesOf(player)).length, 1);
    });

    it('answers a movement it applied with a body that is not JSON', async () => {
      const player = await newPlayer();
      await plan({ fault: 'garble', count: 1, calls: ['debit'] });
      const d = debit(player, 300);
      await assert.rejects(operator.call('debit', d), SyntaxError);
      assert.equal((await operator.call('debit', d)).body['balance'], 700);
      assert.equal((await linesOf(player)).length, 1);
    });

    it('takes a call delivered twice once, answering the second delivery', async () => {
      const player = await newPlayer();
      await plan({ fault: 'duplicate', count: 1, calls: ['credit'] });
      const answer = await operator.call('credit', credit(player, 250));
      assert.deepEqual([answer.status, answer.body['balance']], [200, 1250]);
      assert.equal((await linesOf(player)).length, 1);
    });

    it('refuses with the code asked, moving nothing, then lets the next call through', async () => {
      const player = await newPlayer();
      await plan({ fault: 'refuse', code: 'limit_reached', count: 1, calls: ['debit'] });
      const d = debit(player);
      assert.deepEqual(await operator.call('debit', d).then((r) => [r.status, r.body['error']]), [403, 'limit_reached']);
      assert.equal((await operator.call('debit', d)).status, 200);
    });

    it('cuts the connection of a call, moving nothing', async () => {
      const player = await newPlayer();
      await plan({ fault: 'reset', count: 1, calls: ['debit'] });
      await assert.rejects(operator.call('debit', debit(player)), /fetch failed/);
      assert.deepEqual(await linesOf(player), []);
    });

    it('applies a rule to its calls only', async () => {
      const player = await newPlayer();
      await plan({ fault: 'reset', probability: 1, calls: ['credit'] });
      assert.equal((await operator.call('debit', debit(player))).status, 200);
      await assert.rejects(operator.call('credit', credit(player)), /fetch failed/);
    });

    it('goes down for an outage of some seconds, then answers again', async () => {
      const player = await newPlayer();
      await operator.admin('POST', '/admin/faults', { seed: 'x', rules: [], outage: { seconds: 1, mode: 'reset' } });
      await assert.rejects(operator.call('balance', { player, currency: 'EUR' }), /fetch failed/);
      await operator.admin('POST', '/admin/faults', { seed: 'x', rules: [], outage: { seconds: 1, mode: 'status', calls: ['debit'] } });
      assert.equal((await operator.call('debit', debit(player))).status, 503);
      assert.equal((await operator.call('credit', credit(player))).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.equal((await operator.call('debit', debit(player))).status, 200);
      const { body } = await operator.admin('GET', '/admin/faults');
      assert.deepEqual((body as { injected: object }).injected, { 'debit:outage': 1 });
    });

    it('decides by probability from the seed: the same seed, the same faults', async () => {
      const player = await newPlayer();
      const pattern = async () => {
        await operator.admin('POST', '/admin/faults', { seed: 'reproducible', rules: [{ fault: 'refuse', code: 'limit_reached', probability: 0.5, calls: ['balance'] }] });
        const statuses = [];
        for (let i = 0; i < 24; i++) statuses.push((await operator.call('balance', { player, currency: 'EUR' })).status);
        return statuses.join(' ');
      };
      const first = await pattern();
      assert.match(first, /200/);
      assert.match(first, /403/);
      assert.equal(await pattern(), first);
    });

    it('refuses a plan it cannot read (400), naming the field', async () => {
      const { status, body } = await operator.admin('POST', '/admin/faults', { seed: 's', rules: [{ fault: 'refuse', code: 'nope', count: 1 }] });
      assert.equal(status, 400);
      assert.match((body as { message: string }).message, /rules\[0\]\.code/);
    });
  });

  describe('lobby and ledger', () => {
    it('shows the balance and a « Jouer » per game, and launches with a signed request, redirecting to the URL it got', async () => {
      const player = await newPlayer();
      const page = await (await fetch(`${operator.url}/lobby?player=${player}`)).text();
      assert.match(page, /10\.00 €/);
      assert.equal(page.match(/>Jouer</g)?.length, 2);
      const res = await fetch(`${operator.url}/lobby/launch`, { method: 'POST', body: new URLSearchParams({ player, game: 'noel' }), redirect: 'manual' });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get('location'), 'http://game.test/launch/one-use-code');
      assert.deepEqual(launches.at(-1), { player, currency: 'EUR', language: 'fr', returnUrl: `${operator.url}/lobby?player=${player}`, game: 'noel' });
    });

    it("gives the game server, at each launch, the player's limits and exclusion the operator holds", async () => {
      const player = await newPlayer();
      const protection = { limits: { stakeWeek: 5000, stakeDay: 1000 }, excludedUntil: Date.now() + 86_400_000 };
      assert.equal((await operator.admin('POST', '/admin/players', { player, protection })).status, 200);
      await fetch(`${operator.url}/lobby/launch`, { method: 'POST', body: new URLSearchParams({ player, game: 'noel' }), redirect: 'manual' });
      assert.deepEqual(launches.at(-1), { player, currency: 'EUR', language: 'fr', returnUrl: `${operator.url}/lobby?player=${player}`, game: 'noel', ...protection });
      assert.equal((await operator.admin('POST', '/admin/players', { player, protection: { limits: { stakeWeek: -1 } } })).status, 400);
    });

    it('exports the ledger of a Paris day as NDJSON', async () => {
      const player = await newPlayer();
      await operator.call('debit', debit(player));
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(Date.now());
      assert.ok((await operator.ledger(today)).some((l) => l.player === player));
      assert.deepEqual(await operator.ledger('2000-01-01'), []);
    });
  });

  describe('after a kill -9 and a restart', () => {
    it('keeps the balances, the answers given and the rollbacks of debits never seen', async () => {
      const player = await newPlayer();
      const d = debit(player, 300);
      const paid = await operator.call('debit', d);
      const late = debit(player, 100);
      await operator.call('rollback', rollback(late, player));
      await operator.admin('POST', '/admin/faults', { seed: 'x', rules: [{ fault: 'drop', count: 1, calls: ['credit'] }] });
      const c = credit(player, 50);
      await assert.rejects(operator.call('credit', c), /fetch failed/);
      const before = await operator.ledger();
      await operator.kill();
      await operator.restart();
      assert.deepEqual(await operator.ledger(), before);
      assert.equal(await balanceOf(player), 750);
      assert.deepEqual(await operator.call('debit', d), paid);
      assert.equal((await operator.call('credit', c)).body['balance'], 750);
      assert.equal((await operator.call('debit', late)).body['error'], 'transaction_rolled_back');
    });
  });
});
