import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyRecall } from '../../src/audit/verify-recall';
import { publicBlockDetail, type PublicBlockDetail } from '../../src/dealer/fairness-report';
import { MemoryStore } from '../../src/dealer/memory/store';
import { findPrizeTable } from '../../src/games/prize-tables';
import { PlayService } from '../../src/play/play-service';
import type { RecallRecord } from '../../src/protocol/recall';
import { MemoryActionLog } from '../../src/units/action-log';

const NOW = 1_764_000_000_000;

/** A finished Noël unit's recall, and its block as the public route shows it (still open). */
async function finishedRecall(): Promise<{ dealer: MemoryStore; recall: RecallRecord; published: PublicBlockDetail }> {
  const dealer = new MemoryStore();
  const table = findPrizeTable('noel-de-la-chance', 50)!;
  await dealer.openEmission({ emissionId: 'noel-50', table, blockCount: 1, now: NOW });
  await dealer.deposit('p1', 10_000, 'd1', NOW);
  const play = new PlayService(dealer, new MemoryActionLog(), () => NOW + 1);
  const bought = await play.buy({ playerId: 'p1', pseudonym: 'P' }, { game: 'noel-de-la-chance', stake: 50, requestId: 'r1' });
  assert.ok(bought.ok);
  const acted = await play.act('p1', bought.units, { action: { type: 'pick', symbol: 'gift' } });
  assert.ok(!acted.refusal && acted.units[0]!.finished);
  const recall = (await play.recall('p1', acted.units[0]!.sale.unitId))!.record;
  return { dealer, recall, published: (await publicBlockDetail(dealer, 'noel-50.0'))! };
}

/** A deep copy of the recall with one change. */
function tampered(recall: RecallRecord, change: (r: any) => void): unknown {
  const copy = JSON.parse(JSON.stringify(recall));
  change(copy);
  return copy;
}

const flipHex = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);

describe('verify-unit', () => {
  let recall: RecallRecord;
  let published: PublicBlockDetail;
  let dealer: MemoryStore;
  before(async () => {
    ({ dealer, recall, published } = await finishedRecall());
  });

  it('verifies a recall while its block is still open, against the published page root', () => {
    assert.equal(published.state, 'open');
    const result = verifyRecall(recall, published);
    assert.deepEqual(result.problems, []);
    assert.ok(result.ok);
    assert.ok(result.passed.some((line) => /published at .*, before the sale/.test(line)));
    assert.ok(result.passed.some((line) => /re-scores/.test(line)));
  });

  const tamperings: [string, (r: any) => void][] = [
    ['the outcome (the proven tier)', (r) => (r.fairness.proof.tierId = (r.fairness.proof.tierId + 1) % 7)],
    ['the position', (r) => { r.fairness.proof.position += 1; r.position += 1; r.fairness.position += 1; }],
    ['the salt', (r) => (r.fairness.proof.salt = flipHex(r.fairness.proof.salt))],
    ['a sibling hash', (r) => (r.fairness.proof.siblings[5] = flipHex(r.fairness.proof.siblings[5]))],
    ['the recalled page root', (r) => (r.fairness.pageRoot = flipHex(r.fairness.pageRoot))],
    ['the recalled commitment', (r) => (r.fairness.commitment = flipHex(r.fairness.commitment))],
    ['the prize', (r) => (r.prize += 50)],
    ['the scenario', (r) => (r.scenario.cells = r.scenario.cells.map(() => r.scenario.symbol))],
  ];
  for (const [what, change] of tamperings) {
    it(`fails when ${what} is changed`, () => {
      const result = verifyRecall(tampered(recall, change), published);
      assert.equal(result.ok, false, `tampering with ${what} went through`);
    });
  }

  it('fails when the published page root differs from the one the proof leads to', () => {
    const other = { ...published, pages: published.pages.map((p) => ({ ...p, root: flipHex(p.root) })) };
    assert.equal(verifyRecall(recall, other).ok, false);
  });

  it('fails when the page was published after the sale', () => {
    const late = { ...published, pages: published.pages.map((p) => ({ ...p, publishedAt: new Date(NOW + 60_000).toISOString() })) };
    const result = verifyRecall(recall, late);
    assert.equal(result.ok, false);
    assert.ok(result.problems.some((line) => /after the sale/.test(line)));
  });

  it('refuses an unfinished unit and a recall without a proof', () => {
    assert.equal(verifyRecall(tampered(recall, (r) => (r.status = 'in_progress')), published).ok, false);
    assert.equal(verifyRecall(tampered(recall, (r) => (r.fairness.proof = null)), published).ok, false);
    assert.equal(verifyRecall({ format: 'unit-recall/v1' }).ok, false);
    assert.equal(verifyRecall(null).ok, false);
  });

  it('re-derives the salt, the tier and the page root from the seed as the closed block publishes it', async () => {
    const seed = Buffer.from(await dealer.blockSeed('noel-50.0')).toString('hex');
    const closed = { ...published, state: 'closed' as const, seed };
    const result = verifyRecall(recall, closed);
    assert.deepEqual(result.problems, []);
    assert.ok(result.passed.some((line) => /seed re-derives the root of page 0/.test(line)));
    assert.ok(result.passed.some((line) => /re-generates the scenario exactly/.test(line)));
    const wrongSeed = { ...closed, seed: flipHex(seed) };
    assert.equal(verifyRecall(recall, wrongSeed).ok, false);
  });

  it('runs as npm run verify-unit: exit 0 for the recall, 1 once tampered, 2 without a file', function () {
    this.timeout(30_000);
    const dir = mkdtempSync(join(tmpdir(), 'verify-unit-'));
    const files = { recall: join(dir, 'recall.json'), bad: join(dir, 'bad.json'), block: join(dir, 'block.json') };
    writeFileSync(files.recall, JSON.stringify(recall));
    writeFileSync(files.bad, JSON.stringify(tampered(recall, (r) => (r.fairness.proof.salt = flipHex(r.fairness.proof.salt)))));
    writeFileSync(files.block, JSON.stringify(published));
    const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/verify-unit.ts', ...args], { encoding: 'utf8' });
    const good = run(files.recall, '--block', files.block);
    assert.equal(good.status, 0, good.stdout + good.stderr);
    assert.match(good.stdout, /^verified$/m);
    const bad = run(files.bad, '--block', files.block);
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /NOT verified/);
    assert.equal(run().status, 2);
  });
});
