import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerLine } from '../../src/protocol/operator-api';
import { runScript } from './run-script';

const debit: LedgerLine = { transactionId: 'd1', player: 'p1', round: 'r1', game: 'noel', kind: 'debit', amount: 200, at: Date.UTC(2026, 2, 10, 11), state: 'standing' };
const credit: LedgerLine = { ...debit, transactionId: 'c1', kind: 'credit', amount: 1000 };

describe('npm run reconcile', function () {
  this.timeout(60_000);
  let dir: string;
  const file = (name: string, lines: readonly unknown[]) => {
    const path = join(dir, name);
    writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
    return path;
  };

  before(() => (dir = mkdtempSync(join(tmpdir(), 'reconcile-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 and prints the totals when the two ledgers agree', async () => {
    const run = await runScript('reconcile', ['--server', file('s.ndjson', [debit, credit]), '--operator', file('o.ndjson', [credit, debit])]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /2026-03-10 +p1 +2\.00 +10\.00 +2\.00 +10\.00\n/);
    assert.match(run.stdout, /0 differences/);
  });

  it('exits 1 and lists each difference', async () => {
    const run = await runScript('reconcile', ['--server', file('s.ndjson', [debit, credit]), '--operator', file('o.ndjson', [{ ...debit, amount: 300 }]), '--day', '2026-03-10']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /2 differences on 2026-03-10/);
    assert.match(run.stdout, /amount differs: d1: server 2\.00 €, operator 3\.00 €/);
    assert.match(run.stdout, /only on the server: credit c1 \(player p1, round r1, 10\.00 €\)/);
  });

  it('reads a ledger from a URL with its bearer token', async () => {
    const server = createServer((req, res) => {
      if (req.headers.authorization !== 'Bearer op-token') return void res.writeHead(401).end();
      res.end(`${JSON.stringify(debit)}\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/ledger?day=2026-03-10`;
    try {
      const run = await runScript('reconcile', ['--server', file('s.ndjson', [debit]), '--operator', url], { RECONCILE_OPERATOR_TOKEN: 'op-token' });
      assert.equal(run.code, 0, run.stderr);
      const refused = await runScript('reconcile', ['--server', url, '--operator', url]);
      assert.equal(refused.code, 3);
      assert.match(refused.stderr, /HTTP 401/);
    } finally {
      server.close();
    }
  });

  it('exits 3 naming a missing file, or a bad line with its number', async () => {
    const missing = await runScript('reconcile', ['--server', join(dir, 'nope.ndjson'), '--operator', file('o.ndjson', [debit])]);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /nope\.ndjson: no such file/);
    const bad = await runScript('reconcile', ['--server', file('s.ndjson', [debit, '{"oops"']), '--operator', file('o.ndjson', [debit])]);
    assert.equal(bad.code, 3);
    assert.match(bad.stderr, /s\.ndjson: line 2: not JSON/);
  });

  it('exits 2 without both sources', async () => {
    const run = await runScript('reconcile', ['--server', 'x']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--server and --operator are both needed/);
  });
});
