import { strict as assert } from 'node:assert';
import { Choices } from '../../loadtest/mix';
import { FinishBoard, PreparingClient, SyntheticPlayer } from '../../loadtest/player';
import { Stats } from '../../loadtest/stats';
import type { RunningServer } from '../../src/server/app';
import { devLogin, startTestServer } from '../support/game-server';

/**
 * How a synthetic player ends: `stop()` (the window closed: no new unit, the one in play
 * finished without pauses) and `halt()` (the drain ran out: no request at all), so that the
 * books never read units a player is still moving.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('synthetic player', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let endpoint: string;

  before(async () => {
    server = await startTestServer({ DEV_LOGIN: 'true', DEMO_BALANCE_CENTS: '100000000', MAX_MESSAGES_PER_SECOND: '10000' });
    endpoint = `http://127.0.0.1:${server.port}`;
  });
  after(() => server.stop());

  async function player(thinkMs: number, stats: Stats): Promise<SyntheticPlayer> {
    const settings = { target: 'game' as const, thinkMs, autoShare: 0, lampBothShare: 0, switchShare: 0, requestTimeoutMs: 5000 };
    const p = new SyntheticPlayer(0, 'player-test-0', [endpoint], settings, stats, new FinishBoard(1), new Choices(3));
    await p.login();
    await p.open('500000-carats');
    return p;
  }

  it('hands each table to its handlers before the table connects, so that they get the server’s first wallet', async () => {
    const client = new PreparingClient(endpoint);
    client.auth.token = (await devLogin(server, 'prepared')).token;
    const seen: string[] = [];
    let wallets = 0;
    client.prepare = (room) => {
      seen.push(room.connection?.isOpen ? 'open' : 'not open');
      room.onMessage('wallet', () => void (wallets += 1));
    };
    const room = await client.create('table', { game: '500000-carats' });
    await room.request('wallet', undefined);
    assert.deepEqual(seen, ['not open'], 'prepared once, before it connected');
    // The one sent on joining, whichever read brought it (a `wallet` request is answered as a reply).
    assert.equal(wallets, 1);
    await room.leave();
  });

  it('ends a pause at once when stopped', async () => {
    const stats = new Stats();
    const p = await player(60_000, stats);
    const running = p.play();
    await sleep(200); // in the pause before its first purchase, a minute long
    p.stop();
    await running; // within the test's 30 s, not after the minute
    assert.equal(p.units.length, 0);
    assert.deepEqual([...stats.allErrors], []);
  });

  it('plays no more once halted, says nothing of it as an error, and still answers the books', async () => {
    const stats = new Stats();
    const p = await player(0, stats);
    const running = p.play();
    while (p.units.length < 3) await sleep(10);
    p.halt();
    const sentAtHalt = stats.count.sent;
    await running;
    assert.equal(stats.count.sent, sentAtHalt, 'nothing sent after the halt, not even to finish the unit in play');
    assert.deepEqual([...stats.allErrors], []);
    const wallet = await p.wallet();
    assert.equal(typeof wallet.balance, 'number', 'the wallet is still read, for the books');
    await p.leave();
  });
});
