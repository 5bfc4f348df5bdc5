import { strict as assert } from 'node:assert';
import { gameCatalog } from '../../src/games/catalog';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import { GAME_IDS } from '../../src/games/types';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { RunningServer } from '../../src/server/app';
import { startTestServer } from '../support/game-server';

describe('catalog routes', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.stop();
  });

  it('answers the game catalog to anyone: every game at every price, its prize table and totals', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/games`);
    assert.equal(res.status, 200);
    const catalog = (await res.json()) as GameCatalogEntry[];
    assert.deepEqual(catalog.map((g) => g.id), [...GAME_IDS]);
    const listed = catalog.flatMap((g) => g.prices.map((p) => ({ game: g.id, ...p })));
    assert.equal(listed.length, PRIZE_TABLES.length);
    for (const table of PRIZE_TABLES) {
      const price = listed.find((p) => p.game === table.game && p.stake === table.stake);
      assert.ok(price, `${table.game} at ${table.stake}`);
      assert.equal(price.blockSize, table.blockSize);
      assert.deepEqual(price.tiers.map((t) => [t.prize, t.count]), table.tiers.map((t) => [t.prize, t.count]));
      assert.deepEqual(price.tiers.map((t) => t.tierId), table.tiers.map((_, i) => i + 1));
      let total = 0;
      let winners = 0;
      for (const tier of table.tiers) {
        total += tier.prize * tier.count;
        winners += tier.count;
      }
      assert.equal(price.totalPayout, total);
      assert.equal(price.winningUnits, winners);
    }
    assert.deepEqual(catalog, gameCatalog(() => ({ unitMs: 0, stepMs: 0 })), 'the catalog itself, as JSON, with the pace the test server is set to');
  });
});
