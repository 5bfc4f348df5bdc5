import { strict as assert } from 'node:assert';
import { leafSchemeOf, pageOf, pageRange, pageTree, proveUnit } from '../../../src/fairness/merkle';
import { printBlock, unitSeed } from '../../../src/fairness/printing';
import { verifyUnit } from '../../../src/audit/verify-unit';
import { publicBlockDetail } from '../../../src/fairness/public-blocks';
import { findPrizeTable } from '../../../src/games/prize-tables';
import { GAME_IDS } from '../../../src/games/types';
import { ALTERATIONS, CONTRADICTIONS, copy, failed, flipHex } from './alterations';
import { exampleRecall, playRecalls, type PlayedRecall, type RecallFixture } from './recalls';

describe('verifyUnit (scheme 3)', function () {
  this.timeout(120_000);
  let fixture: RecallFixture;
  before(async () => {
    fixture = await playRecalls();
  });

  for (const game of GAME_IDS) {
    it(`verifies an untouched winning and losing recall of ${game}, every check against the published block`, async () => {
      for (const kind of ['win', 'lose'] as const) {
        const { recall, published } = fixture.units[game][kind];
        assert.equal(recall.format, 'unit-recall/v3');
        assert.equal(recall.fairness.server, 'https://games.example.test');
        const result = await verifyUnit(recall, { published });
        assert.deepEqual(result.checks.filter((c) => !c.ok), [], `${game} ${kind}`);
        const ids = result.checks.map((c) => c.id);
        for (const id of ['format', 'position', 'proof', 'published-root', 'published-in-time', 'prize', 'unit-seed', 'picks', 'steps', 'scenario', 'ledger', 'times', 'completed-by', 'purchase', 'presentation'] as const) assert.ok(ids.includes(id), `${game} ${kind}: ${id} checked`);
        assert.ok(result.ok);
      }
    });
  }

  it('verifies a lamp unit bought with a symbol pick', async () => {
    const result = await verifyUnit(fixture.lampSymbol.recall, { published: fixture.lampSymbol.published });
    assert.deepEqual(failed(result), []);
  });

  it('verifies a unit the server finished for its player, and both units of a lamp pair (each ledger holding the other\'s stake)', async () => {
    const { play, dealer } = fixture;
    const player = { playerId: 'player-noel-de-la-chance', pseudonym: 'P' };
    const bought = await play.buy(player, { game: 'noel-de-la-chance', stake: 50, requestId: 'left_alone' });
    assert.ok(bought.ok);
    const completed = await play.complete(bought.units[0]!);
    assert.ok(completed.ok);
    const lamp = { playerId: 'player-mysteres-de-la-lampe', pseudonym: 'P' };
    const pair = await play.buy(lamp, { game: 'mysteres-de-la-lampe', stake: 50, requestId: 'pair', picks: [{ kind: 'colour', choice: 'gold' }, { kind: 'symbol', choice: 'sun' }] });
    assert.ok(pair.ok);
    const acted = await play.act(lamp.playerId, pair.units, { action: { type: 'auto' } });
    assert.ok(!acted.refusal);
    const units = [[player.playerId, completed.unit.sale.unitId], ...acted.units.map((u) => [lamp.playerId, u.sale.unitId])] as const;
    for (const [playerId, unitId] of units) {
      const recall = (await play.recall(playerId, unitId))!.record;
      const result = await verifyUnit(recall, { published: (await publicBlockDetail(dealer, recall.blockId))! });
      assert.deepEqual(failed(result), [], unitId);
    }
  });

  it('fails without a published root unless offline, and says what offline leaves unchecked', async () => {
    const { recall } = fixture.units['rain-diamonds'].win;
    const online = await verifyUnit(recall, {});
    assert.deepEqual(failed(online), ['published-root']);
    assert.match(online.checks.find((c) => c.id === 'published-root')!.detail, /no published page root/);
    const offline = await verifyUnit(recall, { offline: true });
    assert.ok(offline.ok);
    assert.match(offline.notes.join(), /offline/);
  });

  it('checks the unit seed against the block seed once the block is closed', async () => {
    const { recall, published } = fixture.units['noel-de-la-chance'].win;
    const seed = Buffer.from(await fixture.dealer.pages.blockSeed(recall.blockId)).toString('hex');
    const closed = await verifyUnit(recall, { published: { ...published, state: 'closed', seed } });
    assert.match(closed.checks.find((c) => c.id === 'unit-seed')!.detail, /derives from the block's revealed seed/);
    assert.ok(closed.ok);
    const other = await verifyUnit(recall, { published: { ...published, state: 'closed', seed: flipHex(seed) } });
    assert.deepEqual(failed(other), ['unit-seed']);
    for (const shown of [seed.toUpperCase(), `${seed}00`, 'not a seed']) {
      const unreadable = await verifyUnit(recall, { published: { ...published, state: 'closed', seed: shown } });
      assert.deepEqual(failed(unreadable), ['unit-seed'], `a closed block showing the seed ${shown} is not passed over`);
    }
  });

  it(`rejects each of ${ALTERATIONS.length} alterations of real recalls of the five games, with the check that caught it`, async () => {
    const passed: string[] = [];
    for (const alteration of ALTERATIONS) {
      const played: PlayedRecall = fixture.units[alteration.game][alteration.kind];
      const recall = copy(played.recall);
      const published = copy(played.published);
      alteration.change(recall, published);
      const result = await verifyUnit(recall, { published });
      if (result.ok || !failed(result).includes(alteration.check)) passed.push(`${alteration.what}: failed ${JSON.stringify(failed(result))}, expected ${alteration.check}`);
    }
    assert.deepEqual(passed, []);
    assert.ok(ALTERATIONS.length >= 30);
    assert.ok(CONTRADICTIONS.length >= 20, 'at least 20 ways the recall contradicts itself');
    for (const id of ['times', 'completed-by', 'purchase', 'presentation', 'published-in-time', 'format'] as const) assert.ok(CONTRADICTIONS.some((a) => a.check === id), `${id} is tried`);
    assert.deepEqual(new Set(ALTERATIONS.map((a) => a.game)), new Set(GAME_IDS), 'every game is altered');
  });

  it('never reveals the unit seed of an unfinished unit', async () => {
    const player = { playerId: 'player-mine-d-or', pseudonym: 'P' };
    const bought = await fixture.play.buy(player, { game: 'rain-diamonds', stake: fixture.units['rain-diamonds'].win.recall.stake, requestId: 'unfinished' });
    assert.ok(bought.ok);
    const recall = (await fixture.play.recall(player.playerId, bought.units[0]!.sale.unitId))!.record;
    assert.equal(recall.status, 'in_progress');
    assert.equal(recall.fairness.proof, null);
    const seed = Buffer.from(unitSeed(await fixture.dealer.pages.blockSeed(recall.blockId), recall.position)).toString('hex');
    assert.ok(!JSON.stringify(recall).includes(seed), 'the unit seed is nowhere in the recall');
    assert.deepEqual(failed(await verifyUnit(recall, { offline: true })), ['format']);
  });
});

describe('verifyUnit (scheme 2 recalls)', function () {
  this.timeout(120_000);

  it('verifies a scheme 2 recall with what scheme 2 proves, says it cannot check the scenario\'s origin, and rejects its alterations', async () => {
    const fixture = await playRecalls();
    const { recall: v3, published: p3 } = fixture.units['noel-de-la-chance'].win;
    // The same unit as a block printed under scheme 2 would recall it.
    const block = (await fixture.dealer.emissions.block(v3.blockId))!;
    const seed = await fixture.dealer.pages.blockSeed(v3.blockId);
    const units = printBlock(findPrizeTable(v3.game, v3.stake)!, seed);
    const page = pageOf(block.size, v3.position);
    const { from, count } = pageRange(block.size, page);
    const tree = pageTree(seed, block.size, page, units.subarray(from, from + count), { version: 2 });
    const proof = proveUnit(tree, v3.position);
    const root = Buffer.from(tree.levels[tree.levels.length - 1]!).toString('hex');
    // unit-recall/v2 had no fairness.server.
    const { server: _, ...v2Fairness } = v3.fairness;
    const recall = { ...copy(v3), format: 'unit-recall/v2', fairness: { ...v2Fairness, scheme: 2, pageRoot: root, proof } };
    const published = { ...copy(p3), scheme: 2, merkleScheme: 'merkle-sha256/v2', pages: p3.pages.map((p) => (p.page === page ? { ...p, root } : p)) };
    assert.notEqual(leafSchemeOf(block).version, 2, 'the block itself is scheme 3');
    const result = await verifyUnit(recall, { published });
    assert.deepEqual(failed(result), []);
    assert.ok(!result.checks.some((c) => c.id === 'steps' || c.id === 'unit-seed'), 'scheme 2 cannot re-play the steps');
    assert.match(result.notes.join(), /scheme 2 binds the tier, not the unit seed/);
    assert.deepEqual(failed(await verifyUnit({ ...recall, format: 'unit-recall/v3', fairness: { ...recall.fairness, server: null } }, { published })), [], 'a scheme 2 block recalled today (v3)');
    for (const [what, change, check] of [
      ['the label v3 on a v2 body (no fairness.server)', (r: any) => (r.format = 'unit-recall/v3'), 'format'],
      ['a fairness.server on a v2 body', (r: any) => (r.fairness.server = null), 'format'],
      ['a step dated before the sale', (r: any) => (r.steps[1].at = new Date(Date.parse(r.soldAt) - 1).toISOString()), 'times'],
      ['completed by the server', (r: any) => (r.completedBy = 'server'), 'completed-by'],
      ['the symbols offered reordered', (r: any) => r.presentation.offeredSymbols.reverse(), 'presentation'],
      ['the salt', (r: any) => (r.fairness.proof.salt = flipHex(r.fairness.proof.salt)), 'proof'],
      ['the prize', (r: any) => (r.prize += 50), 'prize'],
      ['the scenario', (r: any) => (r.scenario.cells = r.scenario.cells.map(() => r.scenario.symbol)), 'scenario'],
      ['the ledger', (r: any) => (r.ledger[r.ledger.length - 1].amount -= 1), 'ledger'],
    ] as const) {
      const altered = copy(recall);
      change(altered);
      assert.ok(failed(await verifyUnit(altered, { published })).includes(check), what);
    }
  });
});

describe('verifyUnit: each check of the saved 500 000 CARATS example, in its sentence', () => {
  const ROOT = '89945b2840b363f3a33a62e5b5bcc0db0023d6850c1ffe8c33379d54f3a81009';
  const SOLD = '2026-12-02T02:32:13.252Z';
  /** The example's checks once `change` alters its recall and its published block; `sources` beside the block. */
  async function verified(change: (r: any, p: any) => void = () => {}, sources: { offline?: boolean; log?: { missing: string } } = {}) {
    const { recall, published } = exampleRecall('500000-carats');
    change(recall, published);
    return verifyUnit(recall, { published, ...sources });
  }
  const check = async (id: string, change: (r: any, p: any) => void) => (await verified(change)).checks.find((c) => c.id === id);
  const failing = (id: string, detail: string) => ({ id, ok: false, detail });

  it('verifies it untouched, saying what each check of the recall against the block found, and noting the log was not asked', async () => {
    const result = await verified();
    assert.deepEqual(result.checks.slice(0, 7), [
      { id: 'format', ok: true, detail: 'a finished 500000-carats unit at 500 cents, unit-recall/v3, scheme 3' },
      { id: 'position', ok: true, detail: 'position 2 of block 500000-carats-500.0 (page 0), in the proof and the recall alike' },
      { id: 'proof', ok: true, detail: `the proof leads to the recalled page root ${ROOT}` },
      { id: 'published-root', ok: true, detail: 'the proof leads to the published root of page 0 of 500000-carats-500.0, under the published commitment' },
      { id: 'published-in-time', ok: true, detail: 'page 0 was published at 2026-12-02T02:32:07.991Z, as the recall says, no later than the sale' },
      { id: 'prize', ok: true, detail: 'the proven tier 7 pays 1000 cents, the recalled prize' },
      { id: 'unit-seed', ok: true, detail: 'the unit seed is the one the proof\'s leaf binds; its derivation from the block seed is checked once that seed is public (the block closed, all its units settled)' },
    ]);
    assert.deepEqual(result.notes, ['the log of page roots was not asked: nothing here shows the published root is the one published at first (give the server, and a checkpoint saved before)']);
    assert.ok(result.ok);
  });

  it('refuses each position, block or size that is not the unit\'s, naming it', async () => {
    assert.deepEqual(await check('position', (r) => (r.fairness.position = 3)), failing('position', 'the proof\'s position 2 or the fairness record\'s 3 is not the unit\'s 2'));
    assert.deepEqual(await check('position', (r) => (r.fairness.blockId = '500000-carats-500.1')), failing('position', 'the fairness record names block 500000-carats-500.1, the unit 500000-carats-500.0'));
    assert.deepEqual(await check('position', (r) => (r.fairness.proof.size = 8016001)), failing('position', 'the proof\'s block size 8016001 or the fairness record\'s 8016000 is not the table\'s 8016000'));
    assert.deepEqual(await check('position', (r) => (r.fairness.blockSize = 8016001)), failing('position', 'the proof\'s block size 8016000 or the fairness record\'s 8016001 is not the table\'s 8016000'));
  });

  it('refuses a proof of another length than the page\'s height, or leading to another root, saying so', async () => {
    assert.deepEqual(await check('proof', (r) => r.fairness.proof.siblings.pop()), failing('proof', 'the proof has 11 siblings, a page of this block needs 12'));
    assert.deepEqual(await check('proof', (r) => r.fairness.proof.siblings.push(ROOT)), failing('proof', 'the proof has 13 siblings, a page of this block needs 12'));
    assert.deepEqual(await check('proof', (r) => (r.fairness.pageRoot = flipHex(ROOT))), failing('proof', `the proof leads to ${ROOT}, not to the recalled page root ${flipHex(ROOT)}`));
  });

  it('refuses a block published for another game, price or scheme, or without the unit\'s page, naming the difference', async () => {
    const wrong = (detail: string) => failing('published-root', detail);
    assert.deepEqual(await check('published-root', (_r, p) => (p.game = 'mine-d-or')), wrong('the published block is 500000-carats-500.0 (mine-d-or at 500 cents), not the unit\'s 500000-carats-500.0'));
    assert.deepEqual(await check('published-root', (_r, p) => (p.stake = 1000)), wrong('the published block is 500000-carats-500.0 (500000-carats at 1000 cents), not the unit\'s 500000-carats-500.0'));
    assert.deepEqual(await check('published-root', (_r, p) => (p.scheme = 2)), wrong('the block is published under scheme 2, the recall says 3'));
    for (const [what, change] of [['no page', (p: any) => delete p.pages], ['page 1 only', (p: any) => p.pages.shift()]] as const) {
      const result = await verified((_r, p) => change(p));
      assert.deepEqual(failed(result), ['published-root'], what);
      assert.equal(result.checks.find((c) => c.id === 'published-root')!.detail, `the proof leads to ${ROOT}, the published root of page 0 is not published`, what);
    }
  });

  it('finds the unit\'s page wherever the block lists it', async () => {
    assert.deepEqual(failed(await verified((_r, p) => p.pages.reverse())), []);
  });

  it('passes a page published at the very time of the sale, and refuses one published after it, or at another time than the recall says', async () => {
    const at = (ms: number) => new Date(Date.parse(SOLD) + ms).toISOString();
    assert.equal((await check('published-in-time', (r, p) => { p.pages[0].publishedAt = SOLD; r.fairness.pagePublishedAt = SOLD; }))!.ok, true);
    assert.deepEqual(await check('published-in-time', (r, p) => { p.pages[0].publishedAt = at(1); r.fairness.pagePublishedAt = at(1); }),
      failing('published-in-time', `page 0 was published at ${at(1)}, after the sale at ${SOLD}`));
    assert.deepEqual(await check('published-in-time', (r) => (r.fairness.pagePublishedAt = at(-1))),
      failing('published-in-time', `the recall says page 0 was published at ${at(-1)}, the server publishes it at 2026-12-02T02:32:07.991Z`));
  });

  it('refuses a prize other than the proven tier\'s, re-playing the unit with the proven one', async () => {
    const result = await verified((r) => (r.prize = 1500));
    assert.deepEqual(result.checks.filter((c) => !c.ok), [failing('prize', 'the proven tier 7 pays 1000 cents; the recall says 1500')]);
    assert.deepEqual(await check('prize', (r) => (r.fairness.proof.tierId = 200)), failing('prize', 'the proven tier 200 pays undefined cents; the recall says 1000'));
  });

  it('answers a recall without steps with its failed checks, not an error', async () => {
    assert.deepEqual(failed(await verified((r) => (r.steps = []))), ['steps', 'scenario']);
  });

  it('holds a closed block\'s seed to the recalled unit seed, quoting at most 80 characters of one that is not hex', async () => {
    const seed = 'ab'.repeat(32);
    const { recall } = exampleRecall('500000-carats');
    const derived = Buffer.from(unitSeed(Buffer.from(seed, 'hex'), recall.position)).toString('hex');
    assert.deepEqual(await check('unit-seed', (_r, p) => (p.seed = seed)), failing('unit-seed', `the block's revealed seed gives the unit seed ${derived} at position 2, not the recalled one`));
    assert.deepEqual(await check('unit-seed', (_r, p) => (p.seed = [seed])), failing('unit-seed', `the block's published seed ["${seed}"] is not 32 bytes of lowercase hex`));
    assert.deepEqual(await check('unit-seed', (_r, p) => (p.seed = `${seed}${seed}`)), failing('unit-seed', `the block's published seed "${seed}${seed.slice(0, 15)} is not 32 bytes of lowercase hex`));
  });
});
