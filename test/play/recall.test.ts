import { strict as assert } from 'node:assert';
import { MemoryStore } from '../../src/dealer/memory/store';
import { pageRootOfProof } from '../../src/fairness/merkle';
import { unitSeed } from '../../src/fairness/printing';
import { findPrizeTable } from '../../src/games/prize-tables';
import type { LiveUnit } from '../../src/play/live-unit';
import { PlayService } from '../../src/play/play-service';
import { MemoryActionLog } from '../../src/action-log/action-log';

const NOW = 1_764_000_000_000;
const PLAYER = { playerId: 'p1', pseudonym: 'P' };

async function setUp() {
  const dealer = new MemoryStore();
  for (const [game, stake] of [['noel-de-la-chance', 50], ['mysteres-de-la-lampe', 50]] as const) {
    await dealer.emissions.openEmission({ emissionId: `${game}-${stake}`, table: findPrizeTable(game, stake)!, blockCount: 1, now: NOW });
  }
  await dealer.wallets.deposit(PLAYER.playerId, 100_000, 'd1', NOW);
  let clock = NOW;
  return { dealer, play: new PlayService(dealer, new MemoryActionLog(), () => ++clock) };
}

describe('recall', () => {
  it('names both units of a lamp pair, and its ledger reconciles the balances line by line', async () => {
    const { play } = await setUp();
    // Pairs are revealed together, after both were bought: a winning first unit's ledger holds
    // the second's stake between its own stake and prize. Buy pairs until the first one wins.
    let first: LiveUnit | undefined;
    let second: LiveUnit | undefined;
    for (let attempt = 0; attempt < 300 && !(first && first.sale.prize > 0); attempt++) {
      const bought = await play.buy(PLAYER, {
        game: 'mysteres-de-la-lampe',
        stake: 50,
        requestId: `pair${attempt}`,
        picks: [{ kind: 'colour', choice: 'gold' }, { kind: 'symbol', choice: 'star' }],
      });
      assert.ok(bought.ok && bought.units.length === 2, JSON.stringify(bought));
      const ended = await play.act('p1', bought.units, { action: { type: 'auto' } });
      assert.ok(!ended.refusal && ended.units.every((u) => u.finished), JSON.stringify(ended));
      [first, second] = ended.units;
    }
    assert.ok(first!.sale.prize > 0, 'no winning first lamp unit in 300 pairs');
    const requestId = first!.sale.requestId.replace(/-0$/, '');
    const a = (await play.recall('p1', first!.sale.unitId))!.record;
    const b = (await play.recall('p1', second!.sale.unitId))!.record;
    assert.deepEqual(a.purchase, { requestId: `${requestId}-0`, pairedUnitId: second!.sale.unitId });
    assert.deepEqual(b.purchase, { requestId: `${requestId}-1`, pairedUnitId: first!.sale.unitId });
    for (const record of [a, b]) {
      assert.equal(record.format, 'unit-recall/v3');
      assert.equal(record.ledger[0]!.kind, 'stake');
      assert.equal(record.ledger[0]!.ref, record.unitId);
      assert.equal(record.ledger[0]!.balance, record.balanceAfterStake);
      assert.equal(record.balanceBefore - record.stake, record.balanceAfterStake);
      // Every line between the stake and the prize names its unit and adds up.
      let balance = record.balanceBefore;
      for (const line of record.ledger) {
        balance += line.amount;
        assert.equal(line.balance, balance, `journal line ${line.seq}`);
        assert.ok(line.ref === a.unitId || line.ref === b.unitId, `line ${line.seq} names ${line.ref}`);
      }
      assert.equal(record.balanceAfterPrize, balance);
      const last = record.ledger[record.ledger.length - 1]!;
      if (record.prize! > 0) assert.deepEqual([last.kind, last.ref, last.amount], ['prize', record.unitId, record.prize]);
    }
    assert.ok(a.ledger.some((line) => line.kind === 'stake' && line.ref === b.unitId), "the first unit's ledger shows the second's stake");
  });

  it("records Noël's three offered symbols and its decor", async () => {
    const { play } = await setUp();
    const bought = await play.buy(PLAYER, { game: 'noel-de-la-chance', stake: 50, requestId: 'n1' });
    assert.ok(bought.ok);
    const acted = await play.act('p1', bought.units, { action: { type: 'pick', symbol: 'star' } });
    assert.ok(!acted.refusal);
    const record = (await play.recall('p1', acted.units[0]!.sale.unitId))!.record;
    assert.deepEqual(record.presentation, {
      offeredSymbols: ['star', 'bell', 'gift'],
      decorSymbols: ['holly', 'candle', 'snowflake', 'bauble', 'sleigh'],
    });
    const cells = (record.scenario as { cells: string[] }).cells;
    const named = new Set([...(record.presentation as { offeredSymbols: string[] }).offeredSymbols, ...(record.presentation as { decorSymbols: string[] }).decorSymbols]);
    assert.ok(cells.every((c) => named.has(c)), 'every cell shows an offered symbol or a decor one');
    assert.deepEqual(record.purchase, { requestId: 'n1', pairedUnitId: null });
  });

  it('carries the scheme, block, position, commitment and proof with the unit seed; no proof (nor seed) while unfinished', async () => {
    const { dealer, play } = await setUp();
    const bought = await play.buy(PLAYER, { game: 'noel-de-la-chance', stake: 50, requestId: 'n2' });
    assert.ok(bought.ok);
    const unit = bought.units[0]!;
    const pending = (await play.recall('p1', unit.sale.unitId))!.record;
    assert.equal(pending.status, 'in_progress');
    assert.equal(pending.fairness.proof, null, 'the proof would show the tier before the reveal');
    const secret = Buffer.from(unitSeed(await dealer.pages.blockSeed(unit.sale.blockId), unit.sale.position)).toString('hex');
    assert.ok(!JSON.stringify(pending).includes(secret), 'the unit seed would give the scenario away');
    assert.equal(pending.prize, null);
    assert.match(pending.fairness.pageRoot!, /^[0-9a-f]{64}$/);
    const acted = await play.act('p1', [unit], { action: { type: 'pick', symbol: 'bell' } });
    assert.ok(!acted.refusal);
    const done = (await play.recall('p1', unit.sale.unitId))!.record;
    const { fairness } = done;
    assert.deepEqual(
      [fairness.scheme, fairness.blockId, fairness.position, fairness.blockSize, fairness.page],
      [3, unit.sale.blockId, unit.sale.position, 800_000, 0],
    );
    assert.match(fairness.commitment, /^[0-9a-f]{64}$/);
    const proof = fairness.proof!;
    assert.equal(proof.scheme, 'merkle-sha256/v3');
    assert.equal(proof.unitSeed, Buffer.from(unitSeed(await dealer.pages.blockSeed(unit.sale.blockId), unit.sale.position)).toString('hex'));
    assert.equal(pageRootOfProof(proof, { game: done.game, stake: done.stake, blockId: done.blockId }), fairness.pageRoot);
    assert.ok(Date.parse(fairness.pagePublishedAt!) <= Date.parse(done.soldAt));
  });
});
