import { strict as assert } from 'node:assert';
import { leafSchemeOf, pageOf, pageRange, pageTree, proveUnit } from '../../../src/dealer/merkle';
import { printBlock, unitSeed } from '../../../src/dealer/printing';
import { verifyUnit } from '../../../src/audit/verify-unit';
import { publicBlockDetail } from '../../../src/dealer/fairness-report';
import { findPrizeTable } from '../../../src/games/prize-tables';
import { rulesOf } from '../../../src/games/registry';
import { GAME_IDS, type GameId } from '../../../src/games/types';
import type { UnitCheckId } from '../../../src/protocol/verification';
import { playRecalls, type PlayedRecall, type RecallFixture } from './recalls';

/** A deep copy to alter: alterations reach into the recall's JSON untyped. */
const copy = <T>(x: T): any => JSON.parse(JSON.stringify(x));
const flipHex = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
const failed = (result: { checks: readonly { id: UnitCheckId; ok: boolean }[] }) => result.checks.filter((c) => !c.ok).map((c) => c.id);

/** Every event of every step, with the step index, for alterations that look for one. */
function eventsOf(r: any): { step: number; event: any }[] {
  return r.steps.flatMap((s: any, step: number) => s.events.map((event: any) => ({ step, event })));
}

function findEvent(r: any, type: string, where: (e: any) => boolean = () => true): any {
  const found = eventsOf(r).find((x) => x.event.type === type && where(x.event));
  if (!found) throw new Error(`no ${type} event to alter`);
  return found.event;
}

interface Alteration {
  readonly what: string;
  readonly game: GameId;
  readonly kind: 'win' | 'lose';
  /** The check that must fail. */
  readonly check: UnitCheckId;
  readonly change: (recall: any, published: any) => void;
}

const ALTERATIONS: Alteration[] = [
  // Every field a player saw.
  { what: 'a RAIN DIAMONDS grid cell', game: 'rain-diamonds', kind: 'win', check: 'steps', change: (r) => { const g = findEvent(r, 'grid_shown').grid; g[0][0] = g[0][0] === 'red' ? 'blue' : 'red'; r.scenario.grid[0][0] = g[0][0]; } },
  { what: 'the RAIN DIAMONDS gems collected', game: 'rain-diamonds', kind: 'win', check: 'steps', change: (r) => { findEvent(r, 'gems_collected').total += 1; } },
  { what: 'a RAIN DIAMONDS box\'s colour', game: 'rain-diamonds', kind: 'lose', check: 'steps', change: (r) => { const e = findEvent(r, 'box_opened'); e.colour = e.colour === 'red' ? 'blue' : 'red'; } },
  { what: 'the order of a RAIN DIAMONDS cascade\'s moves', game: 'rain-diamonds', kind: 'win', check: 'steps', change: (r) => { const e = findEvent(r, 'gems_fell', (x) => x.moves.length > 1); e.moves.reverse(); } },
  { what: 'an unmatched 500 000 CARATS amount raised to 500,000 €', game: '500000-carats', kind: 'win', check: 'steps', change: (r) => { const e = findEvent(r, 'number_revealed', (x) => !x.matched); e.amount = 50_000_000; r.scenario.amounts[e.index] = 50_000_000; } },
  { what: 'a 500 000 CARATS winning number', game: '500000-carats', kind: 'lose', check: 'steps', change: (r) => { const e = findEvent(r, 'winning_numbers_revealed'); e.numbers[0] = e.numbers[0] === 1 ? 2 : 1; r.scenario.winning = e.numbers; } },
  { what: 'a 500 000 CARATS number shown as matched', game: '500000-carats', kind: 'lose', check: 'steps', change: (r) => { findEvent(r, 'number_revealed').matched = true; } },
  { what: 'two swapped Noël cells', game: 'noel-de-la-chance', kind: 'win', check: 'steps', change: (r) => {
    const cells = eventsOf(r).filter((x) => x.event.type === 'cell_revealed').map((x) => x.event);
    const other = cells.find((c: any) => c.symbol !== cells[0].symbol);
    [cells[0].symbol, other.symbol] = [other.symbol, cells[0].symbol];
    r.scenario.cells = cells.map((c: any) => c.symbol);
  } },
  { what: 'the Noël symbols offered', game: 'noel-de-la-chance', kind: 'lose', check: 'steps', change: (r) => { findEvent(r, 'symbols_offered').symbols.reverse(); } },
  { what: 'the Noël symbol picked', game: 'noel-de-la-chance', kind: 'win', check: 'steps', change: (r) => { const e = findEvent(r, 'symbol_picked'); e.symbol = e.symbol === 'star' ? 'bell' : 'star'; } },
  { what: 'a Mine d\'or grid symbol', game: 'mine-d-or', kind: 'win', check: 'steps', change: (r) => { const e = findEvent(r, 'grid_revealed'); e.symbols[0] = e.symbols[0] === 'diamant' ? 'cactus' : 'diamant'; } },
  { what: 'a Mine d\'or stage gain', game: 'mine-d-or', kind: 'win', check: 'steps', change: (r) => { findEvent(r, 'grid_revealed').gain += 100; } },
  { what: 'a losing lamp showing a decoy (the pick\'s own result)', game: 'mysteres-de-la-lampe', kind: 'lose', check: 'steps', change: (r) => { const e = findEvent(r, 'lamp_opened'); e.result = r.picks.choice; r.scenario.result = r.picks.choice; } },
  { what: 'the lamp\'s potential gain shown', game: 'mysteres-de-la-lampe', kind: 'win', check: 'steps', change: (r) => { findEvent(r, 'potential_gain_shown').amount *= 10; } },
  { what: 'the prize in the finished event', game: '500000-carats', kind: 'win', check: 'steps', change: (r) => { findEvent(r, 'finished').prize += 100; } },
  { what: 'a step dropped', game: 'rain-diamonds', kind: 'win', check: 'steps', change: (r) => { r.steps.splice(1, 1); } },
  { what: 'the last step dropped (renumbered)', game: '500000-carats', kind: 'lose', check: 'steps', change: (r) => { r.steps.pop(); } },
  { what: 'a recorded action', game: '500000-carats', kind: 'win', check: 'steps', change: (r) => { const s = r.steps.find((x: any) => x.action?.type === 'reveal'); s.action.index = (s.action.index + 1) % 24; } },
  { what: 'the scenario swapped for another of the same score', game: 'noel-de-la-chance', kind: 'win', check: 'scenario', change: (r) => { r.scenario = rulesOf('noel-de-la-chance').generate({ stake: r.stake, prize: r.prize }, new Uint8Array(32).fill(7), { symbol: r.scenario.symbol }); } },
  { what: 'the scenario swapped (RAIN DIAMONDS)', game: 'rain-diamonds', kind: 'win', check: 'scenario', change: (r) => { r.scenario = rulesOf('rain-diamonds').generate({ stake: r.stake, prize: r.prize }, new Uint8Array(32).fill(9), undefined); } },
  // The prize and the ledger.
  { what: 'the finished prize', game: 'mine-d-or', kind: 'win', check: 'prize', change: (r) => { r.prize += 100; } },
  { what: 'a losing unit given a prize', game: 'rain-diamonds', kind: 'lose', check: 'prize', change: (r) => { r.prize = 100; } },
  { what: 'the ledger paying less than the proven prize', game: 'noel-de-la-chance', kind: 'win', check: 'ledger', change: (r) => { const last = r.ledger[r.ledger.length - 1]; last.amount -= 1; last.balance -= 1; r.balanceAfterPrize -= 1; } },
  { what: 'the ledger without the prize credit', game: 'mine-d-or', kind: 'win', check: 'ledger', change: (r) => { r.ledger.pop(); r.balanceAfterPrize = r.balanceAfterStake; } },
  { what: 'the stake debited twice as much', game: 'rain-diamonds', kind: 'lose', check: 'ledger', change: (r) => { r.ledger[0].amount *= 2; } },
  { what: 'a losing unit credited', game: '500000-carats', kind: 'lose', check: 'ledger', change: (r) => { r.ledger.push({ ...r.ledger[0], seq: r.ledger[0].seq + 1, kind: 'prize', amount: 500, balance: r.ledger[0].balance + 500 }); r.balanceAfterPrize += 500; } },
  // The picks.
  { what: 'the lamp\'s pick', game: 'mysteres-de-la-lampe', kind: 'win', check: 'picks', change: (r) => { r.picks.choice = r.picks.choice === 'red' ? 'blue' : 'red'; } },
  { what: 'the lamp\'s pick made invalid', game: 'mysteres-de-la-lampe', kind: 'lose', check: 'picks', change: (r) => { r.picks = { kind: 'colour', choice: 'purple' }; } },
  { what: 'picks added to a game that takes none', game: 'mine-d-or', kind: 'lose', check: 'picks', change: (r) => { r.picks = { kind: 'colour', choice: 'red' }; } },
  // The proof, the position, the unit seed, the domain.
  { what: 'the proven tier', game: 'noel-de-la-chance', kind: 'win', check: 'proof', change: (r) => { r.fairness.proof.tierId = (r.fairness.proof.tierId % 5) + 1; } },
  { what: 'a sibling hash', game: 'mine-d-or', kind: 'lose', check: 'proof', change: (r) => { r.fairness.proof.siblings[3] = flipHex(r.fairness.proof.siblings[3]); } },
  { what: 'a sibling dropped', game: 'rain-diamonds', kind: 'win', check: 'proof', change: (r) => { r.fairness.proof.siblings.pop(); } },
  { what: 'the recalled page root', game: 'rain-diamonds', kind: 'lose', check: 'proof', change: (r) => { r.fairness.pageRoot = flipHex(r.fairness.pageRoot); } },
  { what: 'the unit seed', game: '500000-carats', kind: 'win', check: 'proof', change: (r) => { r.fairness.proof.unitSeed = flipHex(r.fairness.proof.unitSeed); } },
  { what: 'the unit seed replaced by another', game: 'mine-d-or', kind: 'lose', check: 'proof', change: (r) => { r.fairness.proof.unitSeed = '00'.repeat(32); } },
  { what: 'the position, everywhere', game: 'noel-de-la-chance', kind: 'lose', check: 'proof', change: (r) => { for (const o of [r, r.fairness, r.fairness.proof]) o.position += 1; r.unitId = `${r.blockId}:${r.position}`; } },
  { what: 'the position of the proof alone', game: 'mysteres-de-la-lampe', kind: 'win', check: 'position', change: (r) => { r.fairness.proof.position += 1; } },
  { what: 'the unit id', game: 'rain-diamonds', kind: 'win', check: 'position', change: (r) => { r.unitId = `${r.blockId}:${r.position + 1}`; } },
  { what: 'the page', game: 'mine-d-or', kind: 'win', check: 'position', change: (r) => { r.fairness.page += 1; } },
  { what: 'the block id (domain), everywhere in the recall', game: 'noel-de-la-chance', kind: 'win', check: 'proof', change: (r) => { r.blockId = r.fairness.blockId = `${r.blockId}x`; r.unitId = `${r.blockId}:${r.position}`; } },
  { what: 'the price (domain)', game: 'noel-de-la-chance', kind: 'lose', check: 'proof', change: (r) => { r.stake = 100; r.ledger[0].amount = -100; r.balanceAfterStake = r.balanceBefore - 100; r.ledger[0].balance = r.balanceAfterStake; r.balanceAfterPrize = r.balanceAfterStake; } },
  { what: 'the game (domain)', game: 'mysteres-de-la-lampe', kind: 'lose', check: 'proof', change: (r) => { r.game = 'noel-de-la-chance'; } },
  // What was published.
  { what: 'the published page root', game: '500000-carats', kind: 'lose', check: 'published-root', change: (_r, p) => { for (const page of p.pages) page.root = flipHex(page.root); } },
  { what: 'the published commitment', game: 'mine-d-or', kind: 'win', check: 'published-root', change: (_r, p) => { p.commitment = flipHex(p.commitment); } },
  { what: 'another block published', game: 'rain-diamonds', kind: 'win', check: 'published-root', change: (_r, p) => { p.blockId = `${p.blockId}x`; } },
  { what: 'a page published after the sale', game: 'noel-de-la-chance', kind: 'win', check: 'published-in-time', change: (r, p) => { for (const page of p.pages) page.publishedAt = new Date(Date.parse(r.soldAt) + 1).toISOString(); } },
  { what: 'the format', game: 'mine-d-or', kind: 'win', check: 'format', change: (r) => { r.format = 'unit-recall/v9'; } },
  { what: 'an unfinished status', game: 'mine-d-or', kind: 'lose', check: 'format', change: (r) => { r.status = 'in_progress'; } },
];

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
        for (const id of ['format', 'position', 'proof', 'published-root', 'published-in-time', 'prize', 'unit-seed', 'picks', 'steps', 'scenario', 'ledger'] as const) assert.ok(ids.includes(id), `${game} ${kind}: ${id} checked`);
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
    const seed = Buffer.from(await fixture.dealer.blockSeed(recall.blockId)).toString('hex');
    const closed = await verifyUnit(recall, { published: { ...published, state: 'closed', seed } });
    assert.match(closed.checks.find((c) => c.id === 'unit-seed')!.detail, /derives from the block's revealed seed/);
    assert.ok(closed.ok);
    const other = await verifyUnit(recall, { published: { ...published, state: 'closed', seed: flipHex(seed) } });
    assert.deepEqual(failed(other), ['unit-seed']);
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
    assert.deepEqual(new Set(ALTERATIONS.map((a) => a.game)), new Set(GAME_IDS), 'every game is altered');
  });

  it('never reveals the unit seed of an unfinished unit', async () => {
    const player = { playerId: 'player-mine-d-or', pseudonym: 'P' };
    const bought = await fixture.play.buy(player, { game: 'rain-diamonds', stake: fixture.units['rain-diamonds'].win.recall.stake, requestId: 'unfinished' });
    assert.ok(bought.ok);
    const recall = (await fixture.play.recall(player.playerId, bought.units[0]!.sale.unitId))!.record;
    assert.equal(recall.status, 'in_progress');
    assert.equal(recall.fairness.proof, null);
    const seed = Buffer.from(unitSeed(await fixture.dealer.blockSeed(recall.blockId), recall.position)).toString('hex');
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
    const block = (await fixture.dealer.block(v3.blockId))!;
    const seed = await fixture.dealer.blockSeed(v3.blockId);
    const units = printBlock(findPrizeTable(v3.game, v3.stake)!, seed);
    const page = pageOf(block.size, v3.position);
    const { from, count } = pageRange(block.size, page);
    const tree = pageTree(seed, block.size, page, units.subarray(from, from + count), { version: 2 });
    const proof = proveUnit(tree, v3.position);
    const root = Buffer.from(tree.levels[tree.levels.length - 1]!).toString('hex');
    const recall = { ...copy(v3), format: 'unit-recall/v2', fairness: { ...v3.fairness, scheme: 2, pageRoot: root, proof } };
    const published = { ...copy(p3), scheme: 2, merkleScheme: 'merkle-sha256/v2', pages: p3.pages.map((p) => (p.page === page ? { ...p, root } : p)) };
    assert.notEqual(leafSchemeOf(block).version, 2, 'the block itself is scheme 3');
    const result = await verifyUnit(recall, { published });
    assert.deepEqual(failed(result), []);
    assert.ok(!result.checks.some((c) => c.id === 'steps' || c.id === 'unit-seed'), 'scheme 2 cannot re-play the steps');
    assert.match(result.notes.join(), /scheme 2 binds the tier, not the unit seed/);
    for (const [what, change, check] of [
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
