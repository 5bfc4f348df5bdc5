import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { MemoryActionLog } from '../../src/action-log/action-log';
import { MemoryStore } from '../../src/dealer/memory/store';
import type { RunningServer } from '../../src/server/app';
import { Metrics } from '../../src/server/metrics';
import { freePort } from '../../tools/redis-server';
import { decodedUnits, devLogin, record, startTestServer, until } from '../support/game-server';
import { HARNESS_STAKE_LIMIT_WEEK_CENTS } from '../../tools/stake-limit';

const OPERATOR = 'operator-token-for-the-metrics-tests';
const SECRET = 'metrics-test-secret-of-at-least-32-chars';

/** The value of one sample of a Prometheus text exposition (0 when absent). */
function sample(text: string, name: string, labels = ''): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('metrics', function () {
  this.timeout(60_000);
  let server: RunningServer;

  afterEach(async () => {
    await server?.stop();
  });

  const scrape = async (token = OPERATOR) => {
    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, text: await res.text() };
  };

  it('counts the units sold, the prizes paid and the refusals as they were played', async () => {
    server = await startTestServer({ OPERATOR_TOKEN: OPERATOR, JWT_SECRET: SECRET });
    const player = await devLogin(server);
    const spectator = await (await devLogin(server, 'Carol')).client.joinOrCreate('feed');
    const feed = record(spectator);
    const room = await player.client.create('table', { game: 'rain-diamonds' });
    record(room);
    let prizes = 0;
    let wins = 0;
    for (let i = 0; i < 4; i++) {
      const { unitIds } = (await room.request('buy', { stake: 50, requestId: `m_${i}` })) as { unitIds: string[] };
      await room.request('act', { action: { type: 'auto' } });
      await until(room, () => decodedUnits(room).some((u) => u.unitId === unitIds[0] && u.status === 'finished'), `unit ${i} finished`);
      const prize = decodedUnits(room).find((u) => u.unitId === unitIds[0])!.prize;
      prizes += prize;
      if (prize > 0) wins += 1;
    }
    await room.leave();
    // A player whose wallet was never funded: the dealer refuses the purchase.
    const broke = (await devLogin(server, 'Broke')).client;
    broke.auth.token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('broke-1').setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
    await server.services.protection.setLimits('broke-1', { stake_week: HARNESS_STAKE_LIMIT_WEEK_CENTS });
    const brokeRoom = await broke.create('table', { game: 'rain-diamonds' });
    record(brokeRoom);
    await assert.rejects(brokeRoom.request('buy', { stake: 50, requestId: 'm_refused' }), (err: unknown) => /purchase\/insufficient_funds/.test(JSON.stringify(err)));
    await brokeRoom.leave();
    // Every win reaches the feed spectator, in batches (FEED_BATCH_MS).
    const winsOnFeed = () => feed.messages.filter((m) => m.type === 'wins').reduce((n, m) => n + (m.payload as { wins: unknown[] }).wins.length, 0);
    for (let waited = 0; winsOnFeed() < wins && waited < 3000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(winsOnFeed(), wins);
    await spectator.leave();
    const journal = await server.services.dealer.wallets.journal(player.playerId);
    assert.equal(journal.filter((e) => e.kind === 'prize').reduce((sum, e) => sum + e.amount, 0), prizes, 'the journal agrees');

    const { status, text } = await scrape();
    assert.equal(status, 200);
    const table = '{game="rain-diamonds",stake="50"}';
    assert.equal(sample(text, 'lottery_units_sold_total', table), 4);
    assert.equal(sample(text, 'lottery_prizes_paid_cents_total', table), prizes);
    assert.equal(sample(text, 'lottery_prizes_paid_total', table), wins);
    assert.equal(sample(text, 'lottery_purchases_refused_total', '{code="purchase/insufficient_funds"}'), 1);
    assert.equal(sample(text, 'lottery_purchase_seconds_count'), 5);
    assert.equal(sample(text, 'lottery_action_to_patch_seconds_count', '{game="rain-diamonds"}'), 4);
    assert.equal(sample(text, 'lottery_feed_delay_seconds_count'), winsOnFeed());
    assert.ok(text.includes('lottery_nodejs_eventloop_lag_seconds'), 'event-loop lag');
    assert.ok(text.includes('lottery_process_resident_memory_bytes'), 'process metrics');
  });

  it('counts the rooms and the people in them', async () => {
    server = await startTestServer({ OPERATOR_TOKEN: OPERATOR });
    const player = await devLogin(server);
    const table = await player.client.create('table', { game: 'rain-diamonds' });
    record(table);
    const spectator = await (await devLogin(server, 'Bob')).client.joinOrCreate('feed');
    record(spectator);
    const { text } = await scrape();
    assert.equal(sample(text, 'lottery_rooms', '{room="table"}'), 1);
    assert.equal(sample(text, 'lottery_rooms', '{room="feed"}'), 1);
    assert.equal(sample(text, 'lottery_players'), 1);
    assert.equal(sample(text, 'lottery_feed_spectators'), 1);
    assert.equal(sample(text, 'lottery_watchers'), 0);
    await table.leave();
    await spectator.leave();
  });

  it('tells readiness, the HTTP answers by class and the stock of each game and price', async () => {
    server = await startTestServer({ OPERATOR_TOKEN: OPERATOR });
    assert.equal((await fetch(`http://127.0.0.1:${server.port}/no-such-route`)).status, 404);
    assert.equal((await scrape('not-the-token')).status, 401);
    const { text } = await scrape();
    assert.equal(sample(text, 'lottery_ready'), 1);
    assert.ok(sample(text, 'lottery_http_responses_total', '{class="4xx"}') >= 2, 'the 404 and the 401');
    for (const emission of await server.services.dealer.emissions.listEmissions()) {
      const labels = `{game="${emission.game}",stake="${emission.stake}"}`;
      const sold = emission.blocks.reduce((sum, block) => sum + block.sold, 0);
      assert.equal(sample(text, 'lottery_stock_units', labels), emission.blockCount * emission.table.blockSize - sold, labels);
      assert.equal(sample(text, 'lottery_block_units', labels), emission.table.blockSize, labels);
    }
    await server.stop();
    assert.equal(sample((await server.metrics.registry.metrics()), 'lottery_ready'), 0, 'not ready once stopping');
  });

  it('counts a purchase the store failed', async () => {
    const dealer = new MemoryStore({});
    dealer.sales.purchase = () => Promise.reject(new Error('the store fails'));
    server = await startTestServer({ OPERATOR_TOKEN: OPERATOR }, { stores: { dealer, actions: new MemoryActionLog() } });
    const player = await devLogin(server);
    const room = await player.client.create('table', { game: 'rain-diamonds' });
    record(room);
    await assert.rejects(room.request('buy', { stake: 50, requestId: 'm_failed' }));
    await room.leave();
    const { text } = await scrape();
    assert.equal(sample(text, 'lottery_store_errors_total', '{operation="purchase"}'), 1);
    assert.equal(sample(text, 'lottery_store_errors_total', '{operation="settle"}'), 0);
  });

  it("shows the archive's lag: the age of the oldest entry no writer has sealed yet", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'metrics-archive-'));
    try {
      // The embedded writer drains at start, then not for an hour: what is played waits.
      server = await startTestServer({ OPERATOR_TOKEN: OPERATOR, ARCHIVE_DIR: dir, ARCHIVE_SEAL_SECONDS: '3600' });
      assert.equal(sample((await scrape()).text, 'lottery_archive_lag_seconds'), 0, 'nothing waits');
      const player = await devLogin(server);
      const table = await player.client.create('table', { game: 'rain-diamonds' });
      record(table);
      await table.request('buy', { stake: 50, requestId: 'lag_1' });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const lag = sample((await scrape()).text, 'lottery_archive_lag_seconds');
      assert.ok(lag >= 1.5 && lag < 30, `lag ${lag} s`);
      await table.leave();
    } finally {
      await server?.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("shows how late the wallet's outbox is sent: the earliest movement waiting, past its send", async () => {
    const metrics = new Metrics();
    let earliest: number | undefined;
    let failing = false;
    metrics.watchWalletOutbox({ earliestDue: async () => (failing ? Promise.reject(new Error('Redis away')) : earliest) }, () => 100_000);
    const overdue = async () => sample(await metrics.registry.metrics(), 'lottery_wallet_outbox_overdue_seconds');
    assert.equal(await overdue(), 0, 'nothing waits');
    earliest = 130_000;
    assert.equal(await overdue(), 0, 'due later');
    earliest = 40_000;
    assert.equal(await overdue(), 60);
    failing = true;
    assert.equal(await overdue(), 60, 'a read that fails keeps the value before');
  });

  it('serves /metrics only to the operator token, or on its own loopback port', async () => {
    server = await startTestServer({ OPERATOR_TOKEN: OPERATOR });
    assert.equal((await scrape('not-the-token')).status, 401);
    await server.stop();
    const metricsPort = await freePort();
    server = await startTestServer({ OPERATOR_TOKEN: OPERATOR, METRICS_PORT: String(metricsPort) });
    assert.equal((await scrape()).status, 404, 'not on the public port');
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /lottery_units_sold_total/);
  });
});
