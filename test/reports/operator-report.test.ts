import { strict as assert } from 'node:assert';
import { MemoryStore } from '../../src/dealer/memory/store';
import { blocksReport, formatBlocksReport, formatVerification, verifyBlockReport } from '../../src/reports/operator-report';
import type { DealerStore, FairnessPages } from '../../src/dealer/types';
import { dealFourteen, T0 } from '../dealer/support/fourteen-sales';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';

describe('operator report', () => {
  it('lists each block with sold and unsold units, prizes won and left per tier, commitment and state', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const report = await blocksReport(store);
    assert.equal(report.emissions.length, 1);
    const [emission] = report.emissions;
    assert.deepEqual({ ...emission!, blocks: undefined }, { emissionId: 'noel', game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, state: 'selling', blockCount: 3, blocks: undefined });
    const [closed, open, printed] = emission!.blocks;
    assert.deepEqual([closed!.state, closed!.sold, closed!.unsold], ['closed', 10, 0]);
    assert.deepEqual([open!.state, open!.sold, open!.unsold], ['open', 4, 6]);
    assert.deepEqual([printed!.state, printed!.sold, printed!.unsold], ['printed', 0, 10]);
    const total = TEN_UNIT_TABLE.tiers.reduce((sum, t) => sum + t.prize * t.count, 0);
    assert.deepEqual(closed!.tiers.map((t) => [t.tierId, t.prize, t.count, t.won, t.left]), [
      [0, 0, 4, 4, 0],
      ...TEN_UNIT_TABLE.tiers.map((t, i) => [i + 1, t.prize, t.count, t.count, 0]),
    ]);
    assert.deepEqual([closed!.prizesWon, closed!.prizesLeft], [total, 0]);
    assert.equal(open!.prizesWon + open!.prizesLeft, total);
    assert.equal(open!.tiers.reduce((n, t) => n + t.won, 0), 4);
    assert.equal(open!.seed, undefined);
    const text = formatBlocksReport(report);
    assert.match(text, /block noel\.0 {2}closed {2}sold 10 \/ 10 {2}unsold 0/);
    assert.match(text, /commitment [0-9a-f]{64}/);
  });

  it('shows a closed block’s seed, as the public routes do, only once every unit of it has ended', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const closedSeed = async () => (await blocksReport(store)).emissions[0]!.blocks[0]!.seed;
    const verifiedSeed = async () => (await verifyBlockReport(store, 'noel.0'))!.seed;
    for (let position = 0; position < 9; position++) await store.sales.settle(`noel.0:${position}`, T0 + 100);
    assert.deepEqual([await closedSeed(), await verifiedSeed()], [undefined, undefined], 'one unit still in play: its seed would reprint it');
    assert.doesNotMatch(formatBlocksReport(await blocksReport(store)), /seed/);
    await store.sales.settle('noel.0:9', T0 + 100);
    const seed = (await store.emissions.block('noel.0'))!.seed;
    assert.match(seed!, /^[0-9a-f]{64}$/);
    assert.deepEqual([await closedSeed(), await verifiedSeed()], [seed, seed]);
  });

  it('verifies a closed block from its seed, showing the seed once every unit has ended', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const inPlay = await verifyBlockReport(store, 'noel.0');
    assert.deepEqual([inPlay!.verified, inPlay!.checkedUnits, inPlay!.seed], [true, 10, undefined]);
    assert.match(formatVerification(inPlay!), /verified\. Re-printed from its seed \(withheld while a unit of it is in play\)/);
    for (let position = 0; position < 10; position++) await store.sales.settle(`noel.0:${position}`, T0 + 100);
    const report = await verifyBlockReport(store, 'noel.0');
    assert.ok(report);
    assert.deepEqual([report.verified, report.checkedUnits, report.problems], [true, 10, []]);
    assert.match(formatVerification(report), /verified\. Re-printed from seed [0-9a-f]{64}/);
  });

  it('does not verify a block still selling, and knows no unknown block', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const open = await verifyBlockReport(store, 'noel.1');
    assert.deepEqual([open!.verified, open!.problems], [false, ['block is open: its seed is revealed only once it is sold out']]);
    assert.equal(await verifyBlockReport(store, 'noel.7'), undefined);
    assert.equal(await verifyBlockReport(store, 'nothing'), undefined);
  });

  it('finds a published page root that the revealed seed does not derive', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const pages = Object.assign(Object.create(store.pages) as FairnessPages, {
      pageCommitments: async (blockId: string) => (await store.pages.pageCommitments(blockId))!.map((p) => ({ ...p, root: 'f'.repeat(64) })),
    });
    const tampered: DealerStore = { ...store, pages, close: () => store.close() };
    const report = await verifyBlockReport(tampered, 'noel.0');
    assert.equal(report!.verified, false);
    assert.match(report!.problems[0]!, /^page 0: published root f{64}, the seed derives [0-9a-f]{64}$/);
  });

  it('finds a sale recorded with another tier than the block printed', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const pages = Object.assign(Object.create(store.pages) as FairnessPages, {
      recordedTiers: async (blockId: string) => {
        const tiers = (await store.pages.recordedTiers(blockId))!;
        tiers[3] = (tiers[3]! + 1) % 8;
        return tiers;
      },
    });
    const tampered: DealerStore = { ...store, pages, close: () => store.close() };
    const report = await verifyBlockReport(tampered, 'noel.0');
    assert.equal(report!.verified, false);
    assert.match(report!.problems[0]!, /^position 3: sold as tier \d, printed tier \d$/);
    assert.match(formatVerification(report!), /NOT verified\n {2}- position 3/);
  });
});
