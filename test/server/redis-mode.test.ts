import { strict as assert } from 'node:assert';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import type { RunningServer } from '../../src/server/app';
import { decodedUnits, devLogin, record, startTestServer, until } from '../support/game-server';
import { RedisServer } from '../../tools/redis-server';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';

const ENV = { CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey(), JWT_SECRET: 'redis-mode-secret-of-at-least-32-chars', DEV_LOGIN: 'true', DEMO_BALANCE_CENTS: '5000' };

describe('game server (Redis mode)', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let server: RunningServer | undefined;

  before(async () => {
    redis = await RedisServer.start({ appendOnly: true });
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });
  after(async () => {
    await redis.stop();
  });

  const start = async () => {
    server = await startTestServer({ ...ENV, REDIS_URL: redis.url, REDIS_PREFIX: 'redis-mode' });
    return server;
  };

  it('opens one emission per (game, price), once, however many times it starts', async () => {
    await start();
    const first = await server!.services.dealer.emissions.listEmissions();
    await server!.stop();
    await start();
    const second = await server!.services.dealer.emissions.listEmissions();
    assert.equal(first.length, PRIZE_TABLES.length);
    assert.deepEqual(second.map((e) => e.emissionId).sort(), first.map((e) => e.emissionId).sort());
  });

  it('resumes a unit after a server restart, exactly where it stopped, and finishes it once', async () => {
    await start();
    const player = await devLogin(server!);
    const room = await player.client.create('table', { game: 'rain-diamonds' });
    record(room);
    const { unitIds } = (await room.request('buy', { stake: 50, requestId: 'restart_1' })) as { unitIds: string[] };
    await room.request('act', { action: { type: 'open', box: 2 } });
    await room.request('act', { action: { type: 'open', box: 0 } });
    await until(room, () => decodedUnits(room)[0]!.steps.length === 3, 'two boxes opened');
    const before = decodedUnits(room);
    await server!.stop();

    await start();
    const client = (await devLogin(server!)).client;
    client.auth.token = player.token;
    const again = await client.create('table', { game: 'rain-diamonds' });
    const rec = record(again);
    assert.deepEqual(((await rec.next('resumed')) as { unitIds: string[] }).unitIds, unitIds);
    await until(again, () => decodedUnits(again).length === 1, 'the resumed unit');
    assert.deepEqual(decodedUnits(again), before);
    await assert.rejects(again.request('act', { action: { type: 'open', box: 2 } }), (err: unknown) => /already_revealed/.test(JSON.stringify(err)));
    await again.request('act', { action: { type: 'auto' } });
    await until(again, () => decodedUnits(again)[0]!.status === 'finished', 'the unit to finish');
    const prize = decodedUnits(again)[0]!.prize;
    assert.deepEqual(await again.request('wallet'), { balance: 5000 - 50 + prize, held: 0 });
    const journal = await server!.services.dealer.wallets.journal(player.playerId);
    assert.equal(journal.filter((e) => e.kind === 'stake').length, 1, 'charged once');
    assert.equal(journal.filter((e) => e.kind === 'prize').length, prize > 0 ? 1 : 0, 'credited once');
    await again.leave();
  });

  it('keeps every acknowledged purchase across a Redis crash (append-only, fsync always)', async () => {
    await start();
    const player = await devLogin(server!);
    const room = await player.client.create('table', { game: 'mysteres-de-la-lampe' });
    record(room);
    const { unitIds } = (await room.request('buy', { stake: 50, requestId: 'crash_1', picks: [{ kind: 'symbol', choice: 'moon' }] })) as { unitIds: string[] };
    await room.leave();
    await server!.stop();
    await redis.restart();
    await start();
    const sale = await server!.services.dealer.sales.getSale(unitIds[0]!);
    assert.ok(sale, 'the acknowledged sale survived');
    assert.equal(await server!.services.dealer.wallets.balance(player.playerId), 5000 - 50);
  });
});
