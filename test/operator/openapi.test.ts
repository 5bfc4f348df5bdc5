import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import {
  WALLET_ERROR_CODES,
  WALLET_ERROR_STATUS,
  type BalanceRequest,
  type EndSessionsRequest,
  type LaunchRequest,
  type MoveRequest,
  type RollbackRequest,
  type WalletCall,
} from '../../src/protocol/operator-api';
import { signRequest, SIGNATURE_HEADER } from '../../src/operator/signature';
import type { RunningServer } from '../../src/server/app';
import { ReferenceOperator } from '../../tools/reference-operator';
import { startTestServer } from '../support/game-server';
import { MemoryStore } from '../../src/dealer/memory/store';
import { OperatorWallet } from '../../src/wallet/seamless/operator-wallet';
import { SeamlessMoney } from '../../src/wallet/seamless/seamless-money';
import { MemoryWalletTransactions } from '../../src/wallet/seamless/wallet-transactions';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';

/**
 * docs/operator-api.yaml against what really crosses the wire: the reference operator's answers,
 * its launch requests, the game server's wallet calls (its client and SeamlessMoney, through a
 * proxy), and requests built from the protocol's types.
 */

const DOC_ID = 'https://lottery.example/operator-api';
type Doc = any;
const doc: Doc = parse(readFileSync('docs/operator-api.yaml', 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...doc, $id: DOC_ID });

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
const compiled = new Map<string, ValidateFunction>();
function schemaAt(path: string): ValidateFunction {
  let validate = compiled.get(path);
  if (!validate) compiled.set(path, (validate = ajv.compile({ $ref: `${DOC_ID}#/${path}` })));
  return validate;
}

function assertValid(path: string, value: unknown): void {
  const validate = schemaAt(path);
  assert.ok(validate(value), `${path}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
}

/** The JSON schema of a documented answer, its `$ref` to components/responses followed. */
function responsePath(route: string, method: string, status: number): string {
  const answer = doc.paths[route]?.[method]?.responses?.[String(status)];
  assert.ok(answer, `${method.toUpperCase()} ${route} does not document the status ${status}`);
  const base = typeof answer.$ref === 'string' ? (answer.$ref as string).slice(2) : pointer('paths', route, method, 'responses', String(status));
  return `${base}/content/application~1json/schema`;
}

function requestPath(route: string, method = 'post'): string {
  return pointer('paths', route, method, 'requestBody', 'content', 'application/json', 'schema');
}

const SECRET = 'o'.repeat(40);

describe('the OpenAPI document docs/operator-api.yaml', function () {
  this.timeout(60_000);

  it('is OpenAPI 3.1, with the signature as its security scheme', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.security, [{ signature: [] }]);
    assert.equal(doc.components.securitySchemes.signature.name, 'X-Lottery-Signature');
  });

  it('lists the wallet refusal codes of the protocol, each under its status', () => {
    assert.deepEqual(doc.components.schemas.WalletError.properties.error.enum, [...WALLET_ERROR_CODES]);
    for (const call of ['balance', 'debit', 'credit', 'rollback'] satisfies WalletCall[]) {
      const statuses = Object.keys(doc.paths[`/${call}`].post.responses).map(Number).filter((s) => s >= 400);
      for (const status of statuses) assert.ok(Object.values(WALLET_ERROR_STATUS).includes(status), `/${call} documents ${status}, no code has it`);
    }
    for (const status of new Set(Object.values(WALLET_ERROR_STATUS))) assert.ok(responsePath('/debit', 'post', status));
  });

  it('takes the requests built from the protocol types, and refuses one with a field it does not know', () => {
    const balance: BalanceRequest = { player: 'p-1', currency: 'EUR' };
    const move: MoveRequest = { transactionId: 'u1:debit', player: 'p-1', round: 'u1', game: 'noel', amount: 200, currency: 'EUR' };
    const rollback: RollbackRequest = { transactionId: 'u1:rollback', referenceTransactionId: 'u1:debit', player: 'p-1', round: 'u1', currency: 'EUR' };
    const launch: LaunchRequest = { player: 'p-1', currency: 'EUR', language: 'en', returnUrl: 'https://operator.example/lobby', game: 'noel', limits: { stakeWeek: 5000, stakeDay: 1000 }, excludedUntil: 1_800_000_000_000 };
    const end: EndSessionsRequest = { player: 'p-1' };
    assertValid(requestPath('/balance'), balance);
    for (const route of ['/debit', '/credit']) assertValid(requestPath(route), move);
    assertValid(requestPath('/rollback'), rollback);
    assertValid(requestPath('/operator/launch'), launch);
    assertValid(requestPath('/operator/sessions/end'), end);
    assert.equal(schemaAt(requestPath('/debit'))({ ...move, bonus: 1 }), false);
    assert.equal(schemaAt(requestPath('/debit'))({ ...move, amount: 2.5 }), false);
  });

  describe("against the reference operator's real answers", () => {
    let dir: string;
    let operator: ReferenceOperator;
    let game: Server;
    const launches: unknown[] = [];

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'openapi-'));
      game = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          if (req.url === '/games') return void res.end('[]');
          launches.push(JSON.parse(body));
          res.end(JSON.stringify({ url: 'http://127.0.0.1:1/launch/x', expiresAt: Date.now() + 60_000 }));
        });
      });
      await new Promise<void>((resolve) => game.listen(0, '127.0.0.1', resolve));
      operator = await ReferenceOperator.start({ ledger: join(dir, 'ledger.ndjson'), secret: SECRET, gameServer: `http://127.0.0.1:${(game.address() as { port: number }).port}` });
    });
    after(async () => {
      await operator?.stop();
      game?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('answers every wallet call, accepted or refused, as documented', async () => {
      await operator.admin('POST', '/admin/players', { player: 'p1' });
      await operator.admin('POST', '/admin/players', { player: 'blocked' });
      await operator.admin('POST', '/admin/players', { player: 'blocked', blocked: true });
      const move = (id: string, player = 'p1', amount = 200): MoveRequest => ({ transactionId: id, player, round: `r-${id}`, game: 'noel', amount, currency: 'EUR' });
      const calls: [WalletCall, BalanceRequest | MoveRequest | RollbackRequest, number, { secret?: string }?][] = [
        ['balance', { player: 'p1', currency: 'EUR' }, 200],
        ['balance', { player: 'nobody', currency: 'EUR' }, 404],
        ['balance', { player: 'blocked', currency: 'EUR' }, 403],
        ['debit', move('d1'), 200],
        ['debit', move('d2', 'p1', 1_000_000), 402],
        ['debit', move('d3', 'blocked'), 403],
        ['debit', move('d4', 'nobody'), 404],
        ['debit', { ...move('d5'), amount: 0 }, 400],
        ['debit', move('d6'), 401, { secret: 'x'.repeat(40) }],
        ['credit', move('c1', 'p1', 500), 200],
        ['credit', move('c2', 'nobody'), 404],
        ['rollback', { transactionId: 'rb1', referenceTransactionId: 'd1', player: 'p1', round: 'r-d1', currency: 'EUR' }, 200],
        ['rollback', { transactionId: 'rb2', referenceTransactionId: 'late', player: 'p1', round: 'r-late', currency: 'EUR' }, 200],
        ['debit', move('late'), 409],
        ['rollback', { transactionId: 'rb3', referenceTransactionId: 'c1', player: 'p1', round: 'r-c1', currency: 'EUR' }, 400],
      ];
      for (const [call, request, status, options] of calls) {
        const answer = await operator.call(call, request, options);
        assert.equal(answer.status, status, `${call} ${JSON.stringify(request)}: ${JSON.stringify(answer.body)}`);
        assertValid(responsePath(`/${call}`, 'post', status), answer.body);
        if (status >= 400) assert.equal(WALLET_ERROR_STATUS[answer.body['error'] as keyof typeof WALLET_ERROR_STATUS], status);
      }
    });

    it('exports ledger lines of the documented format', async () => {
      const lines = await operator.ledger();
      assert.ok(lines.length >= 4);
      for (const line of lines) assertValid('components/schemas/LedgerLine', line);
    });

    it("takes the game server's real wallet calls, a rollback's among them, and answers them as documented", async () => {
      // A proxy in front of the reference keeps what the server's client sends and what it gets.
      const seen: { path: string; request: unknown; status: number; answer: unknown }[] = [];
      const proxy = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', async () => {
          const forwarded = await fetch(`${operator.url}${req.url}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-lottery-signature': String(req.headers['x-lottery-signature']) }, body });
          const text = await forwarded.text();
          seen.push({ path: req.url!.replace(/^\/wallet/, ''), request: JSON.parse(body), status: forwarded.status, answer: JSON.parse(text) });
          // The first debit's answer is lost on its way back: the server must roll it back.
          if (seen.filter((s) => s.path === '/debit').length === 1) return void req.socket.destroy();
          res.writeHead(forwarded.status, { 'content-type': 'application/json' }).end(text);
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      try {
        await operator.admin('POST', '/admin/players', { player: 'real' });
        const store = new MemoryStore({ fundedByOperator: true });
        await store.emissions.openEmission({ emissionId: 'e1', table: TEN_UNIT_TABLE, blockCount: 1, now: Date.now() });
        const wallet = new OperatorWallet({ url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}/wallet`, secret: SECRET, timeoutMs: 2000, now: () => Date.now() });
        const money = new SeamlessMoney({ sales: store.sales, wallets: store.wallets, outbox: new MemoryWalletTransactions(), wallet, now: () => Date.now(), timeoutMs: 2000, protectionRefusal: async () => undefined });
        const buy = (requestId: string) => money.purchase({ playerId: 'real', requestId, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: Date.now() });
        assert.equal((await buy('lost')).ok, false, 'the lost debit is refused and rolled back');
        let sale;
        for (let i = 0; !sale || sale.prize === 0; i++) {
          const bought = await buy(`r${i}`);
          assert.ok(bought.ok);
          sale = bought.sale;
          await money.settle(sale, Date.now());
        }
        await money.wallet('real').catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 1100));
        await money.wallet('real');
        assert.deepEqual([...new Set(seen.map((s) => s.path))].sort(), ['/balance', '/credit', '/debit', '/rollback']);
        for (const { path, request, status, answer } of seen) {
          assertValid(requestPath(path), request);
          assertValid(responsePath(path, 'post', status), answer);
        }
      } finally {
        proxy.close();
      }
    });

    it('sends launch requests of the documented shape', async () => {
      await fetch(`${operator.url}/lobby/launch`, { method: 'POST', body: new URLSearchParams({ player: 'p1', game: 'noel' }), redirect: 'manual' });
      assert.equal(launches.length, 1);
      assertValid(requestPath('/operator/launch'), launches[0]);
    });
  });

  describe("against the game server's real launch answers", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ OPERATOR_SECRET: SECRET, JWT_SECRET: 'openapi-launch-secret-of-32-characters' });
    });
    after(async () => {
      await server?.stop();
    });

    const post = (path: string, body: object, sign = true) => {
      const text = JSON.stringify(body);
      const signature = signRequest(SECRET, { method: 'POST', path, body: text }, Date.now());
      return fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(sign ? { [SIGNATURE_HEADER]: signature } : {}) }, body: text, redirect: 'manual' });
    };

    it('answers the launch, its refusals and the end of sessions as documented', async () => {
      const launch: LaunchRequest = { player: 'p-1', currency: 'EUR', language: 'fr', returnUrl: 'https://operator.example/lobby', game: 'noel-de-la-chance', limits: { stakeWeek: 5000 } };
      const answers: [string, object, number, boolean?][] = [
        ['/operator/launch', launch, 200],
        ['/operator/launch', { ...launch, currency: 'USD' }, 400],
        ['/operator/launch', { ...launch, language: 'de' }, 401, false],
        ['/operator/sessions/end', { player: 'p-1' } satisfies EndSessionsRequest, 200],
        ['/operator/sessions/end', { player: 'not a player id' }, 400],
      ];
      for (const [path, body, status, sign] of answers) {
        const res = await post(path, body, sign);
        assert.equal(res.status, status, path);
        assertValid(responsePath(path, 'post', status), await res.json());
      }
    });

    it('opens a launch URL once, as documented', async () => {
      const res = await post('/operator/launch', { player: 'p-2', currency: 'EUR', language: 'en', returnUrl: 'https://operator.example/lobby' } satisfies LaunchRequest);
      const { url } = (await res.json()) as { url: string };
      const code = url.split('/launch/')[1]!;
      assert.ok(schemaAt(pointer('paths', '/launch/{code}', 'get', 'parameters', '0', 'schema'))(code));
      for (const status of [303, 410]) {
        const opened = await fetch(url, { redirect: 'manual' });
        assert.equal(opened.status, status);
        assert.ok(doc.paths['/launch/{code}'].get.responses[String(status)]);
      }
    });
  });
});
