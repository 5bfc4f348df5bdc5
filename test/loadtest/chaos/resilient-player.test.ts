import { strict as assert } from 'node:assert';
import { checkBooks } from '../../../loadtest/books';
import { collectBooks, Deadline, httpBlocks, readBlocks, withRecalledPrizes } from '../../../loadtest/collect';
import { Choices } from '../../../loadtest/mix';
import { FinishBoard, SyntheticPlayer } from '../../../loadtest/player';
import { Stats } from '../../../loadtest/stats';
import type { RunningServer } from '../../../src/server/app';
import { startTestServer } from '../../support/game-server';

/**
 * A chaos run's player (resilient) on an embedded server, its connection cut again and again
 * while it plays: it opens a new table each time, the unit resumes, purchases are retried with
 * their request id, every unit is ended by the player's own actions, and the books come out
 * exact.
 */

const OPERATOR_TOKEN = 'chaos-test-operator-token-0123456789abcdef';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('resilient synthetic player', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let endpoint: string;

  before(async () => {
    server = await startTestServer({ DEV_LOGIN: 'true', OPERATOR_TOKEN, DEMO_BALANCE_CENTS: '100000000', MAX_MESSAGES_PER_SECOND: '10000' });
    endpoint = `http://127.0.0.1:${server.port}`;
  });
  after(() => server.stop());

  it('rides out cut connections and keeps its books exact', async () => {
    const stats = new Stats();
    const settings = { target: 'game' as const, thinkMs: 20, autoShare: 0.5, lampBothShare: 0.25, switchShare: 0.05, requestTimeoutMs: 5000, resilient: true };
    const player = new SyntheticPlayer(0, 'chaos-test-0', [endpoint], settings, stats, new FinishBoard(1), new Choices(7));
    const blocks = httpBlocks(endpoint, OPERATOR_TOKEN);
    const before = await readBlocks(blocks);
    await player.login();
    await player.open();
    const firstRoom = player.room;
    const running = player.play();
    // Four cuts, each once the player has bought another unit since the last one; then one
    // more unit, bought after the last cut (bounded).
    let cuts = 0;
    let bought = 0;
    const until = performance.now() + 40_000;
    while (cuts <= 4 && performance.now() < until) {
      await sleep(50);
      if (player.units.length === bought) continue;
      bought = player.units.length;
      if (cuts === 4) break;
      if (player.cut()) cuts++;
    }
    player.stop();
    await running;

    assert.equal(cuts, 4);
    assert.ok(player.room && player.room !== firstRoom, 'the player plays at a new table');
    assert.ok(player.units.length >= 5, `${player.units.length} units bought`);
    const collected = await collectBooks([player], [endpoint], new Deadline(performance.now() + 20_000), 5000);
    // A cut may lose the patch of the action that ended a unit: the player's own action ended
    // it all the same, and the recall says so.
    for (const unit of player.units) {
      const recall = collected.recalls.get(unit.unitId);
      assert.ok(recall && 'status' in recall, `unit ${unit.unitId} recalled`);
      assert.deepEqual([recall.status, recall.completedBy], ['finished', 'player'], `unit ${unit.unitId} finished by the player`);
    }
    assert.ok(player.units.some((u) => u.prize !== null), 'the player saw units end');
    const after = await readBlocks(blocks);
    const books = checkBooks({ players: withRecalledPrizes(collected), recalls: collected.recalls, blocksBefore: before.counts, blocksAfter: after.counts });
    assert.deepEqual(books.problems, []);
    assert.equal(books.checked.units, player.units.length);
    await player.leave();
  });
});
