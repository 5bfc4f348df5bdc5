import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkEveryProcess } from '../../../loadtest/chaos/service-check';
import { stakesOf } from '../../../src/games/prize-tables';
import { GAME_IDS } from '../../../src/games/types';
import type { RunningServer } from '../../../src/server/app';
import { startTestServer } from '../../support/game-server';

/**
 * The chaos run's check after its faults: every process joins the feed, answers `/tables` and
 * sells every (game, price); a process that does not is named with what failed.
 */

describe('chaos check after the faults', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let healthy: string;
  /** A process as the kept room-list failure left it: every route and every matchmaking call fails. */
  let broken: Server;
  let brokenEndpoint: string;

  before(async () => {
    server = await startTestServer({ DEV_LOGIN: 'true', DEMO_BALANCE_CENTS: '100000000' });
    healthy = `http://127.0.0.1:${server.port}`;
    broken = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'server/error', message: 'Connection is closed.' } }));
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    brokenEndpoint = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  });
  after(async () => {
    await server.stop();
    await new Promise((resolve) => broken.close(resolve));
  });

  it('passes a process that serves: the feed joined, /tables read, every (game, price) sold and played', async () => {
    const check = await checkEveryProcess([healthy], (i) => `Checker${i}`, 5000);
    assert.deepEqual(check.failures, []);
    assert.equal(check.processes, 1);
    assert.equal(check.sold, GAME_IDS.reduce((n, game) => n + stakesOf(game).length, 0));
  });

  it('fails a broken process, naming it and each path that failed, and only it', async () => {
    const check = await checkEveryProcess([healthy, brokenEndpoint], (i) => `Checker${i}b`, 5000);
    const where = `process 2 (${brokenEndpoint})`;
    assert.ok(check.failures.length >= 3, check.failures.join('\n'));
    assert.ok(check.failures.every((f) => f.startsWith(`${where}: `)), check.failures.join('\n'));
    assert.ok(check.failures.some((f) => f.includes('the wins feed cannot be joined')), check.failures.join('\n'));
    assert.ok(check.failures.some((f) => /GET \/tables fails .*answered 500/.test(f)), check.failures.join('\n'));
    assert.ok(check.failures.some((f) => /no sale tried, the sign-in failed .*500/.test(f)), check.failures.join('\n'));
  });
});
