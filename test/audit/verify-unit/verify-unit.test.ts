import { strict as assert } from 'node:assert';
import { leafSchemeOf, pageOf, pageRange, pageTree, proveUnit } from '../../../src/fairness/merkle';
import { printBlock, unitSeed } from '../../../src/fairness/printing';
import { verifyUnit } from '../../../src/audit/verify-unit';
import { publicBlockDetail } from '../../../src/fairness/public-blocks';
import { findPrizeTable } from '../../../src/games/prize-tables';
import { GAME_IDS } from '../../../src/games/types';
import { ALTERATIONS, CONTRADICTIONS, copy, failed, flipHex } from './alterations';
import { playRecalls, type PlayedRecall, type RecallFixture } from './recalls';

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
