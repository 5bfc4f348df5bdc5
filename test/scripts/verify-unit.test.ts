import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playRecalls, type PlayedRecall } from '../audit/verify-unit/recalls';
import { runScript } from './run-script';

describe('npm run verify-unit', function () {
  this.timeout(180_000);
  let dir: string;
  let played: PlayedRecall;
  let server: Server;
  let origin: string;
  const write = (name: string, value: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(value));
    return file;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'verify-unit-'));
    played = (await playRecalls()).units['500000-carats'].win;
    // The server's public route, as GET /fairness/blocks/:blockId answers it.
    server = createServer((req, res) => {
      const found = req.url === `/fairness/blocks/${encodeURIComponent(played.recall.blockId)}`;
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(found ? played.published : { code: 'fairness/unknown_block' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fetches the published block from the server the recall names, prints each check and says verified', async () => {
    const run = await runScript('verify-unit', [write('recall.json', { ...played.recall, fairness: { ...played.recall.fairness, server: origin } })]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const id of ['proof', 'published-root', 'published-in-time', 'unit-seed', 'steps', 'scenario', 'prize', 'ledger']) assert.match(run.stdout, new RegExp(`^ok +${id} `, 'm'));
    assert.match(run.stdout, /^verified$/m);
  });

  it('takes a saved answer with --block, and --url over the recall\'s server', async () => {
    const recall = write('recall.json', played.recall);
    assert.equal((await runScript('verify-unit', [recall, '--block', write('block.json', played.published)])).code, 0);
    assert.equal((await runScript('verify-unit', [recall, '--url', origin])).code, 0);
  });

  it('says so and fails without a published root; --offline accepts with a note', async () => {
    const recall = write('recall.json', { ...played.recall, fairness: { ...played.recall.fairness, server: null } });
    const without = await runScript('verify-unit', [recall]);
    assert.equal(without.code, 1);
    assert.match(without.stdout, /names no server/);
    assert.match(without.stdout, /^FAIL published-root/m);
    assert.match(without.stdout, /^NOT verified$/m);
    const offline = await runScript('verify-unit', [recall, '--offline']);
    assert.equal(offline.code, 0, offline.stdout);
    assert.match(offline.stdout, /note: offline/);
  });

  it('fails an altered recall, naming the check, and exits 3 when the server cannot be reached', async () => {
    const altered = JSON.parse(JSON.stringify(played.recall));
    altered.ledger[altered.ledger.length - 1].amount -= 1;
    const run = await runScript('verify-unit', [write('altered.json', altered), '--url', origin]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^FAIL ledger/m);
    const unreachable = await runScript('verify-unit', [write('recall.json', played.recall), '--url', 'http://127.0.0.1:1']);
    assert.equal(unreachable.code, 3);
  });
});
