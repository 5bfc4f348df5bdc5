import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import { MemoryActionLog, type ActionLog } from '../../src/action-log/action-log';
import { RedisActionLog } from '../../src/action-log/redis-action-log';
import { MemoryStore } from '../../src/dealer/memory/store';
import { RedisStore } from '../../src/dealer/redis/store';
import type { DealerStore } from '../../src/dealer/types';
import { NOEL_TABLES } from '../../src/games/noel-de-la-chance/prize-table';
import { RAIN_DIAMONDS_TABLE } from '../../src/games/rain-diamonds/prize-table';
import { blocksReport } from '../../src/reports/operator-report';
import { parisDay, SalesBooks } from '../../src/reports/sales-books';
import { RedisCluster } from '../../tools/redis-cluster';
import { RedisServer } from '../../tools/redis-server';
import { offloadClosedBlocks } from '../../src/offload/offload-blocks';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaledTable } from '../dealer/support/test-tables';
import { playUnits, type PlayedUnit } from './support/play-units';

/** Two games in blocks of 40 units, three blocks each: the units played cross blocks. */
const TABLES = [scaledTable(RAIN_DIAMONDS_TABLE, 40), scaledTable(NOEL_TABLES[1]!, 40)];
/** 20:00 UTC, the evening before France's clocks go forward: the plays cross midnight in Paris (22:00 UTC). */
const START = Date.parse('2026-03-28T20:00:00Z');
/** What the recalls say, summed as the reports sum: per game, price and Paris day; per block; per player. */
function fromRecalls(recalls: readonly PlayedUnit[]) {
  const days = new Map<string, { units: number; stakes: number; prizes: number }>();
  const blocks = new Map<string, number>();
  const players = new Map<string, { staked: number; won: number }>();
  for (const { playerId, record: r } of recalls) {
    assert.equal(r.status, 'finished');
    const key = `${r.game}|${r.stake}|${parisDay(Date.parse(r.soldAt))}`;
    const day = days.get(key) ?? { units: 0, stakes: 0, prizes: 0 };
    days.set(key, { units: day.units + 1, stakes: day.stakes + r.stake, prizes: day.prizes + r.prize! });
    blocks.set(r.blockId, (blocks.get(r.blockId) ?? 0) + 1);
    const player = players.get(playerId) ?? { staked: 0, won: 0 };
    players.set(playerId, { staked: player.staked + r.stake, won: player.won + r.prize! });
  }
  return { days, blocks, players };
}

function agreesWithRecalls(open: () => Promise<{ dealer: DealerStore; log: ActionLog; close: () => Promise<void> }>) {
  return async () => {
    const { dealer, log, close } = await open();
    try {
      for (const table of TABLES) await dealer.emissions.openEmission({ emissionId: `${table.game}-${table.stake}`, table, blockCount: 3, now: START });
      // One unit every 7 minutes by three players.
      const recalls = await playUnits(dealer, log, { count: 180, start: START, everyMs: 7 * 60_000, tables: TABLES, players: ['ana', 'bob', 'cleo'] });
      const books = new SalesBooks(dealer);
      await books.refresh();
      const expected = fromRecalls(recalls);
      const days = await books.dayRows();
      assert.deepEqual(new Set(days.map((d) => d.day)), new Set(['2026-03-28', '2026-03-29']), 'Paris days, not UTC ones');
      assert.deepEqual(
        new Map(days.map((d) => [`${d.game}|${d.stake}|${d.day}`, { units: d.units, stakes: d.stakes, prizes: d.prizes }])),
        expected.days,
      );
      for (const d of days) {
        assert.equal(d.ggr, d.stakes - d.prizes);
        assert.ok(d.bandLow <= d.expectedPrizes && d.expectedPrizes <= d.bandHigh && d.bandMethod === 'exact', JSON.stringify(d));
        assert.deepEqual([d.bandUnits, d.bandPayout], [d.units, d.payout], 'the band is of the day’s units');
      }
      const report = await blocksReport(dealer);
      const sold = new Map(report.emissions.flatMap((e) => e.blocks.filter((b) => b.sold > 0).map((b) => [b.blockId, b.sold])));
      assert.deepEqual(sold, expected.blocks);
      for (const b of report.emissions.flatMap((e) => e.blocks)) assert.equal(b.unsold, b.size - (expected.blocks.get(b.blockId) ?? 0));
      assert.ok([...expected.blocks.keys()].some((id) => id.endsWith('.2')), 'the units reached a third block');
      assert.deepEqual(new Map(books.playerRows().map((p) => [p.playerId, { staked: p.staked, won: p.won }])), expected.players);
      assert.ok(books.playerRows().every((p) => p.net === p.won - p.staked && p.units === 60));
      // Read again, the books count nothing twice, and take in only what is new.
      await books.refresh();
      assert.deepEqual(await books.dayRows(), days);
      // Closed blocks offloaded to files: new books read them there, to the same figures.
      const offloaded = await offloadClosedBlocks(dealer, log, { dir: await mkdtemp(join(tmpdir(), 'books-offload-')), retentionMs: 0, now: START + 86_400_000 });
      // (On three lanes the units spread over three blocks at once: none is sold out.)
      assert.equal(offloaded.length, report.emissions.flatMap((e) => e.blocks).filter((b) => b.state === 'closed').length);
      const fromFiles = new SalesBooks(dealer);
      await fromFiles.refresh();
      assert.deepEqual([await fromFiles.dayRows(), fromFiles.playerRows(), fromFiles.missing], [days, books.playerRows(), 0]);
    } finally {
      await close();
    }
  };
}

describe('sales books: the reports computed from the dealer’s records', function () {
  this.timeout(120_000);

  it('agree with the recalls of the units played, offloaded blocks too, on the memory store', agreesWithRecalls(async () => ({ dealer: new MemoryStore(), log: new MemoryActionLog(), close: async () => undefined })));

  describe('on Redis', () => {
    let server: RedisServer;
    before(async () => {
      server = await RedisServer.start();
    });
    after(async () => {
      await server?.stop();
    });

    it('agree with the recalls of the units played, offloaded blocks too', agreesWithRecalls(async () => {
      const client = new Redis(server.url, { enableAutoPipelining: true });
      const dealer = new RedisStore(client, { prefix: 'books' });
      return { dealer, log: new RedisActionLog(client, 'books'), close: async () => {
        await dealer.close();
        await client.quit();
      } };
    }));
  });

  describe('on a Redis Cluster (3 masters, 3 replicas, 3 lanes)', () => {
    let cluster: RedisCluster;
    before(async () => {
      cluster = await RedisCluster.start();
    });
    after(async () => {
      await cluster?.stop();
    });

    it('agree with the recalls of the units played, offloaded blocks too', agreesWithRecalls(async () => {
      const client = cluster.client({ enableAutoPipelining: true });
      const dealer = new RedisStore(client, { prefix: 'books', protocol: 'per-slot', waitReplicas: 1, sequenceLanes: 3 });
      return { dealer, log: new RedisActionLog(client, 'books'), close: async () => {
        await dealer.close();
        await client.quit();
      } };
    }));
  });

  it('keeps a day’s band, with the figures it is of, until it is a minute old while units keep selling', async () => {
    const dealer = new MemoryStore();
    const log = new MemoryActionLog();
    await dealer.emissions.openEmission({ emissionId: 'rain', table: TABLES[0]!, blockCount: 3, now: START });
    let clock = 0;
    const books = new SalesBooks(dealer, () => clock);
    const play = (count: number, start: number) => playUnits(dealer, log, { count, start, everyMs: 1_000, tables: [TABLES[0]!], players: [`p${start}`] });
    await play(5, START);
    await books.refresh();
    const [first] = await books.dayRows();
    assert.deepEqual([first!.units, first!.bandUnits], [5, 5]);
    await play(3, START + 10_000);
    await books.refresh();
    clock = 59_999;
    const [kept] = await books.dayRows();
    assert.deepEqual([kept!.units, kept!.bandUnits, kept!.bandLow, kept!.bandHigh], [8, 5, first!.bandLow, first!.bandHigh], 'the band of the first five units, with their payout');
    assert.equal(kept!.bandPayout, first!.payout);
    clock = 60_000;
    const [fresh] = await books.dayRows();
    assert.deepEqual([fresh!.units, fresh!.bandUnits, fresh!.bandPayout], [8, 8, fresh!.payout]);
  });
});
