import { strict as assert } from 'node:assert';
import type { Server } from 'node:http';
import express from 'express';
import { MemoryStore } from '../../src/dealer/memory/store';
import { mountFairnessRoutes } from '../../src/server/fairness-routes';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';

const NOW = 1_764_000_000_000;

describe('fairness routes', () => {
  let server: Server;
  let base: string;
  let dealer: MemoryStore;
  /** Block noel.0's units, sold out (the block closed) and none of them settled yet. */
  const sold: string[] = [];
  before(async () => {
    dealer = new MemoryStore();
    await dealer.emissions.openEmission({ emissionId: 'noel', table: TEN_UNIT_TABLE, blockCount: 2, now: NOW });
    await dealer.wallets.deposit('p', 1_000, 'd', NOW);
    for (let i = 0; i < 10; i++) {
      const bought = await dealer.sales.purchase({ playerId: 'p', requestId: `r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: NOW + i });
      assert.ok(bought.ok);
      sold.push(bought.sale.unitId);
    }
    const app = express();
    mountFairnessRoutes(app, dealer);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('lists every block with its commitment, without a token, and no seed while a unit of the block is in play', async () => {
    const res = await fetch(`${base}/fairness/blocks`);
    assert.equal(res.status, 200);
    const { blocks } = (await res.json()) as { blocks: Record<string, unknown>[] };
    assert.deepEqual(blocks.map((b) => [b['blockId'], b['state'], b['scheme'], b['pageCount'], b['pagesPublished']]), [
      ['noel.0', 'closed', 3, 1, 1],
      ['noel.1', 'open', 3, 1, 1],
    ]);
    assert.equal(blocks[0]!['seed'], null, 'a closed block whose units are not all settled keeps its seed: it would reprint them');
    assert.equal(blocks[1]!['seed'], null, 'an open block keeps its seed');
    for (const block of blocks) {
      assert.equal(block['commitment'], (await dealer.emissions.block(String(block['blockId'])))!.commitment);
      assert.ok(!('sold' in block) && !('soldPerTier' in block) && !('settled' in block), 'sales stay behind /admin and PRIZES_LEFT');
    }
  });

  it("publishes a closed block's seed once its last unit is settled, not before", async () => {
    const seedOf = async () => ((await (await fetch(`${base}/fairness/blocks/noel.0`)).json()) as { seed: string | null }).seed;
    for (const unitId of sold.slice(0, 9)) await dealer.sales.settle(unitId, NOW + 100);
    assert.equal(await seedOf(), null, 'one unit still in play');
    await dealer.sales.settle(sold[9]!, NOW + 100);
    assert.equal(await seedOf(), (await dealer.emissions.block('noel.0'))!.seed);
    assert.match(String(await seedOf()), /^[0-9a-f]{64}$/);
  });

  it("shows one block's published page roots and, once all are published, its root", async () => {
    const res = await fetch(`${base}/fairness/blocks/noel.1`);
    assert.equal(res.status, 200);
    const block = (await res.json()) as { pages: { page: number; root: string; publishedAt: string }[]; root: string; merkleScheme: string };
    assert.equal(block.merkleScheme, 'merkle-sha256/v3');
    assert.deepEqual(block.pages.map((p) => p.page), [0]);
    assert.equal(block.pages[0]!.root, (await dealer.pages.pageCommitments('noel.1'))![0]!.root);
    assert.equal(block.pages[0]!.publishedAt, new Date(NOW).toISOString(), 'page 0 is published when the block is printed');
    assert.equal(block.root, block.pages[0]!.root, 'a one-page block: its root is its page root');
  });

  it('answers 404 for an unknown or malformed block id', async () => {
    for (const id of ['noel.7', 'nope.0', '..%2F..', 'x'.repeat(300)]) {
      const res = await fetch(`${base}/fairness/blocks/${id}`);
      assert.equal(res.status, 404, id);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'fairness/unknown_block');
    }
  });
});
