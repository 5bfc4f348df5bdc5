import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkSignature, SIGNATURE_HEADER } from '../../../src/operator/signature';
import { OperatorWallet, type WalletCallRecord } from '../../../src/wallet/seamless/operator-wallet';

const SECRET = 'a shared secret of at least 32 characters';
const MOVE = { transactionId: 'd-0123', player: 'p1', round: 'r1', game: 'rain-diamonds', amount: 200, currency: 'EUR' as const };

/** A wallet endpoint answering each request with `handle`, after reading its body. */
async function endpoint(handle: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handle(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/wallet`, server };
}

const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('operator wallet client', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  async function client(handle: Parameters<typeof endpoint>[0], timeoutMs = 500) {
    const opened = await endpoint(handle);
    server = opened.server;
    const records: WalletCallRecord[] = [];
    return { wallet: new OperatorWallet({ url: opened.url, secret: SECRET, timeoutMs, now: () => Date.now(), recorded: (r) => records.push(r) }), records };
  }

  it('signs each call over its method, path, time and body', async () => {
    let seen: { path: string; check: ReturnType<typeof checkSignature>; body: unknown } | undefined;
    const { wallet } = await client((req, body, res) => {
      seen = { path: req.url!, check: checkSignature(SECRET, req.headers[SIGNATURE_HEADER] as string, { method: req.method!, path: req.url!, body }, Date.now()), body: JSON.parse(body) };
      json(res, 200, { balance: 9800, currency: 'EUR' });
    });
    assert.deepEqual(await wallet.debit(MOVE), { kind: 'ok', balance: 9800, status: 200 });
    assert.equal(seen?.path, '/wallet/debit');
    assert.equal(seen?.check.ok, true);
    assert.deepEqual(seen?.body, MOVE);
    const other = checkSignature('another secret, also 32 characters long', undefined, { method: 'POST', path: '/wallet/debit', body: '' }, Date.now());
    assert.equal(other.ok, false);
  });

  it('takes a 4xx with a known code for a definite refusal', async () => {
    const { wallet } = await client((_req, _body, res) => json(res, 402, { error: 'insufficient_funds', message: 'no funds', balance: 100 }));
    assert.deepEqual(await wallet.debit(MOVE), { kind: 'refused', code: 'insufficient_funds', message: 'no funds', status: 402, balance: 100 });
  });

  const undecided: [string, Parameters<typeof endpoint>[0]][] = [
    ['a 5xx', (_req, _body, res) => json(res, 503, { error: 'unavailable' })],
    ['a 4xx without a known code', (_req, _body, res) => json(res, 404, { nope: true })],
    ['an answer that is not JSON', (_req, _body, res) => res.writeHead(200).end('<html>ok</html>')],
    ['a 200 of another shape', (_req, _body, res) => json(res, 200, { balance: '98.00' })],
    ['a connection cut before the answer', (req) => req.socket.destroy()],
    ['no answer within the timeout', () => undefined],
    ['an answer that starts and never ends', (_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json' }).write('{"balance":')],
    ['an answer cut in its body', (req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '40' }).write('{"balance":9800,', () => req.socket.destroy());
    }],
  ];
  for (const [what, handle] of undecided) {
    it(`takes ${what} for undecided`, async () => {
      const { wallet, records } = await client(handle, 300);
      const answer = await wallet.credit(MOVE);
      assert.equal(answer.kind, 'undecided');
      assert.equal(records.length, 1, 'and records the call with its answer');
      assert.equal(records[0]!.answer.kind, 'undecided');
    });
  }

  it('says a call timed out when no answer came within the timeout', async () => {
    const { wallet } = await client(() => undefined, 200);
    assert.deepEqual(await wallet.debit(MOVE), { kind: 'undecided', reason: 'timeout' });
  });

  it('takes a refused connection for undecided', async () => {
    const wallet = new OperatorWallet({ url: 'http://127.0.0.1:1/wallet', secret: SECRET, timeoutMs: 500, now: () => Date.now() });
    const answer = await wallet.rollback({ transactionId: 'r-1', referenceTransactionId: 'd-1', player: 'p1', round: 'r1', currency: 'EUR' });
    assert.equal(answer.kind, 'undecided');
  });
});
