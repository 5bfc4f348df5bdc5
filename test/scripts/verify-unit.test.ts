import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import { CheckpointLog } from '../../src/server/checkpoints';
import { mountFairnessRoutes } from '../../src/server/fairness-routes';
import { mountLogRoutes } from '../../src/server/log-routes';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';
import { NOW, playRecalls, type PlayedRecall } from '../audit/verify-unit/recalls';
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

  it('fetches the published block from the server the recall names, prints each check, and fails the checkpoint of a server with no log of page roots', async () => {
    const run = await runScript('verify-unit', [write('recall.json', { ...played.recall, fairness: { ...played.recall.fairness, server: origin } })]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    for (const id of ['proof', 'published-root', 'published-in-time', 'unit-seed', 'steps', 'scenario', 'prize', 'ledger']) assert.match(run.stdout, new RegExp(`^ok +${id} `, 'm'));
    assert.match(run.stdout, new RegExp(`^FAIL checkpoint +the server has no log of page roots \\(${origin}/fairness/log/key answered 404\\)`, 'm'));
    assert.match(run.stdout, /^NOT verified$/m);
    assert.match(run.stdout, new RegExp(`^note: the published block and the log were asked of ${origin}, the server the recall itself names: .*give --url`, 'm'), 'says whose word it took');
  });

  it('takes a saved answer with --block (the log not asked: a note), and --url over the recall\'s server', async () => {
    const recall = write('recall.json', played.recall);
    const saved = await runScript('verify-unit', [recall, '--block', write('block.json', played.published)]);
    assert.equal(saved.code, 0, saved.stdout);
    assert.match(saved.stdout, /^note: the log of page roots was not asked/m);
    const asked = await runScript('verify-unit', [recall, '--url', origin]);
    assert.match(asked.stdout, /^ok +published-root /m);
    assert.doesNotMatch(asked.stdout, /the server the recall itself names/, 'with --url the operator\'s address is the one asked');
    assert.match(asked.stdout, /^FAIL checkpoint /m);
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

describe('npm run verify-unit with the log of page roots', function () {
  this.timeout(180_000);
  let dir: string;
  let server: Server;
  let recallFile: string;
  let grow: () => Promise<void>;
  let keyId: string;
  let fixture: Awaited<ReturnType<typeof playRecalls>>;
  const settings = { checkpointSigningKey: newCheckpointSigningKey(), checkpointPreviousKeys: [], checkpointLogId: 'test-log' };
  let clock = NOW;
  const others: Server[] = [];

  /** A server publishing the fixture's blocks, with `log` as its log of page roots: its origin. */
  const serve = async (log: CheckpointLog): Promise<{ server: Server; origin: string }> => {
    const app = express();
    mountFairnessRoutes(app, fixture.dealer);
    mountLogRoutes(app, log);
    const listening = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    return { server: listening, origin: `http://127.0.0.1:${(listening.address() as AddressInfo).port}` };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'verify-unit-log-'));
    fixture = await playRecalls();
    const { log } = await CheckpointLog.start(fixture.dealer.log, settings, () => clock);
    keyId = log.keys.keyId;
    let origin: string;
    ({ server, origin } = await serve(log));
    const recall = fixture.units['500000-carats'].win.recall;
    recallFile = join(dir, 'recall.json');
    writeFileSync(recallFile, JSON.stringify({ ...recall, fairness: { ...recall.fairness, server: origin } }));
    grow = async () => {
      await fixture.dealer.emissions.openEmission({ emissionId: 'later', table: PRIZE_TABLES.filter((t) => t.game === 'noel-de-la-chance')[1]!, blockCount: 2, now: NOW });
      clock += 1_000;
    };
  });

  after(() => {
    for (const s of [server, ...others]) s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks the page root in the signed log, saves the checkpoint, and next time checks the new one extends it', async () => {
    const saved = join(dir, 'checkpoint.json');
    const first = await runScript('verify-unit', [recallFile, '--save-checkpoint', saved]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /^ok +checkpoint +page \d+ of .* is leaf \d+ of the log test-log/m);
    assert.match(first.stdout, new RegExp(`^note: the log's key ${keyId} is the one http://127\\.0\\.0\\.1:\\d+ answered; give --key`, 'm'), 'says the key was the server\'s word');
    const checkpoint = JSON.parse(readFileSync(saved, 'utf8')) as { treeSize: number; rootHash: string };
    await grow();
    const next = await runScript('verify-unit', [recallFile, '--checkpoint', saved]);
    assert.equal(next.code, 0, next.stdout + next.stderr);
    assert.match(next.stdout, new RegExp(`extends the checkpoint saved at ${checkpoint.treeSize} leaves`));
    assert.doesNotMatch(next.stdout, /the log's key .* is the one/, 'the saved checkpoint holds the key');
    const forged = join(dir, 'forged.json');
    writeFileSync(forged, JSON.stringify({ ...checkpoint, rootHash: checkpoint.rootHash.replace(/^./, (c) => (c === '0' ? '1' : '0')) }));
    const refused = await runScript('verify-unit', [recallFile, '--checkpoint', forged]);
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stdout, /^FAIL checkpoint .*does not extend/m);
  });

  it('with --key, holds the log to that key: the log\'s own verifies, another fails', async () => {
    const pinned = await runScript('verify-unit', [recallFile, '--key', keyId]);
    assert.equal(pinned.code, 0, pinned.stdout + pinned.stderr);
    assert.doesNotMatch(pinned.stdout, /the log's key .* is the one/, 'the key is held, not taken');
    const other = keyId.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const refused = await runScript('verify-unit', [recallFile, '--key', other]);
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stdout, new RegExp(`^FAIL checkpoint .*not the key ${other} held for it`, 'm'));
  });

  it('exits 1 with its table of checks, the checkpoint failed, when the log was rolled back or forked under the same key', async () => {
    const saved = join(dir, 'checkpoint-now.json');
    const now = await runScript('verify-unit', [recallFile, '--save-checkpoint', saved]);
    assert.equal(now.code, 0, now.stdout + now.stderr);
    const size = (JSON.parse(readFileSync(saved, 'utf8')) as { treeSize: number }).treeSize;
    const leaves = await fixture.dealer.log.logLeaves(0, size);
    // The same key over other leaves: the log restarted (its first leaves, the recall's page among them), or rewritten.
    const logOf = async (kept: string[]) => (await CheckpointLog.start({
      logSize: async () => kept.length,
      logLeaves: async (from, count) => kept.slice(from, from + count),
      logIndexOf: (blockId, page) => fixture.dealer.log.logIndexOf(blockId, page),
    }, settings, () => clock)).log;
    const page = JSON.parse(readFileSync(recallFile, 'utf8')).fairness.page as number;
    const kept = (await fixture.dealer.log.logIndexOf(JSON.parse(readFileSync(recallFile, 'utf8')).blockId, page))! + 1;
    assert.ok(kept < size, 'the recall\'s page is in the log restarted');
    const rewritten = [...leaves.slice(0, kept), ...leaves.slice(kept).map((l) => l.replace(/ (\d+)$/, (_, t: string) => ` ${Number(t) + 1}`))];
    for (const [what, log, reason] of [
      ['rolled back', await logOf(leaves.slice(0, kept)), new RegExp(`rolled back: its checkpoint has ${kept} leaves, fewer than the ${size}`)],
      ['forked', await logOf(rewritten), /the log forked: its checkpoint of \d+ leaves does not extend the one saved/],
    ] as const) {
      const { server: other, origin } = await serve(log);
      others.push(other);
      const run = await runScript('verify-unit', [recallFile, '--url', origin, '--checkpoint', saved]);
      assert.equal(run.code, 1, `${what}: ${run.stdout}${run.stderr}`);
      for (const id of ['proof', 'published-root', 'steps', 'ledger', 'times']) assert.match(run.stdout, new RegExp(`^ok +${id} `, 'm'), `${what}: the table`);
      assert.match(run.stdout, new RegExp(`^FAIL checkpoint +.*${reason.source}`, 'm'), `${what}: ${run.stdout}`);
      assert.match(run.stdout, /^NOT verified$/m);
    }
  });
});
