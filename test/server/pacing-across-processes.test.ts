import { strict as assert } from 'node:assert';
import { Client, type Room } from '@colyseus/sdk';
import { Redis } from 'ioredis';
import type { HistoryPage } from '../../src/protocol/recall';
import { startCluster, type Cluster } from '../../scripts/start-cluster';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';
import { freePort, RedisServer } from '../../tools/redis-server';
import { setHarnessStakeLimit } from '../../tools/stake-limit';
import { record } from '../support/game-server';
import { buyAndFinish, leaveQuietly, sleep } from '../rooms/helpers';
import { tablesOnTwoProcesses } from '../support/two-processes';

const PACE_MS = 1500;
const ROUNDS = 5;
/** How far two processes' readings of the store's clock may differ (each adds half a round trip to Redis's TIME). */
const CLOCKS_MS = 25;
/** Waited past a refusal's retryAfterMs before racing again: the sale is stamped a few ms after its start is taken. */
const PAST_THE_PACE_MS = 50;

/**
 * Two server processes on one Redis, one player with a table on each (two games): the pace is
 * the player's across processes (src/play/redis-pacer.ts). Purchases racing from both tables
 * at once sell one unit, the other refused `pace/too_fast` with the time to wait, round after
 * round; no two of the player's units start closer than the pace.
 */
describe('the pace of play across two server processes', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let reader: Redis;
  let cluster: Cluster;
  const logs: string[] = [];
  const rooms: Room[] = [];

  before(async function () {
    this.timeout(90_000);
    redis = await RedisServer.start();
    reader = new Redis(redis.url);
    cluster = await startCluster({
      ports: [await freePort(), await freePort()],
      env: {
        REDIS_URL: redis.url, REDIS_PREFIX: 'pace-race', JWT_SECRET: 'the pace race tokens secret, 32+ chars', CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey(),
        EMISSION_BLOCKS: '2', DEV_LOGIN: 'true', DEMO_BALANCE_CENTS: '100000', PACE_UNIT_MS: String(PACE_MS), MAX_MESSAGES_PER_SECOND: '1000',
      },
      onLine: (i, line) => logs.push(`[p${i}] ${line}`),
    });
  });
  after(async function () {
    this.timeout(60_000);
    for (const room of rooms) await leaveQuietly(room);
    await cluster?.stop();
    reader?.disconnect();
    await redis?.stop();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(logs.slice(-40).join('\n'));
  });

  const url = (i: number) => `http://127.0.0.1:${cluster.processes[i]!.port}`;


  /** A player's table of Rain of diamonds on one process and of 500 000 CARATS on the other. */
  async function twoTables(): Promise<[Room, Room]> {
    const res = await fetch(`${url(0)}/auth/dev-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Twice' }) });
    const { token } = (await res.json()) as { token: string };
    await setHarnessStakeLimit(url(0), token);
    const open = async (i: number, game: string) => {
      const client = new Client(url(i));
      client.auth.token = token;
      const room = await client.create('table', { game });
      await record(room).next('wallet');
      rooms.push(room);
      return room;
    };
    return tablesOnTwoProcesses(reader, open, ['rain-diamonds', '500000-carats']);
  }

  let requests = 0;
  const buy = (room: Room, stake: number) => buyAndFinish(room, stake, `race_${++requests}`);

  it('sells one of two purchases racing from two processes, refuses the other with the time to wait, and never starts two units closer than the pace', async () => {
    const [a, b] = await twoTables();
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all([buy(a, 50), buy(b, 500)]);
      const refused = answers.filter((r) => r !== undefined);
      assert.deepEqual(refused.map((r) => r.code), ['pace/too_fast'], `round ${round}: one sold, one refused for the pace`);
      const wait = refused[0]!.details?.['retryAfterMs'] as number;
      assert.ok(wait > 0 && wait <= PACE_MS + CLOCKS_MS, `round ${round}: retry after ${wait} ms`);
      await sleep(wait + PAST_THE_PACE_MS);
    }
    const { units } = (await a.request('history', { limit: 100 })) as HistoryPage;
    const starts = units.map((u) => Date.parse(u.soldAt)).sort((x, y) => x - y);
    assert.equal(starts.length, ROUNDS, 'one unit sold a round');
    for (let i = 1; i < starts.length; i++) assert.ok(starts[i]! - starts[i - 1]! >= PACE_MS, `units ${i - 1} and ${i}: ${starts[i]! - starts[i - 1]!} ms apart`);
  });
});
