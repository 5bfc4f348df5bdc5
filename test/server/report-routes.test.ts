import { strict as assert } from 'node:assert';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import { BLOCK_REASONS } from '../../src/protocol/protection';
import type { RunningServer } from '../../src/server/app';
import { devLogin, startTestServer } from '../support/game-server';
import { playUnits, type PlayedUnit } from '../reports/support/play-units';

const OPERATOR = 'operator-token-for-the-reports-test';

describe('the operator’s reports over HTTP', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let played: PlayedUnit[];
  const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;
  const asOperator = (path: string, init: RequestInit = {}) => fetch(url(path), { ...init, headers: { authorization: `Bearer ${OPERATOR}`, ...init.headers } });

  before(async () => {
    server = await startTestServer({ OPERATOR_TOKEN: OPERATOR });
    const { dealer, actions, now } = server.services;
    // Forty units of the server's own emissions over the last four hours, by two players.
    played = await playUnits(dealer, actions, { count: 40, start: now() - 4 * 3_600_000, everyMs: 6 * 60_000, tables: PRIZE_TABLES.slice(0, 4), players: ['ana', 'bob'] });
    const blocked = await asOperator('/admin/players/bob/block', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason: BLOCK_REASONS[0] }) });
    assert.equal(blocked.status, 200);
  });
  after(async () => {
    await server.stop();
  });

  it('answers only the operator: no token, a wrong one or a player’s is refused', async () => {
    const player = await devLogin(server);
    for (const path of ['/admin/reports/days', '/admin/reports/hours', '/admin/reports/blocks', '/admin/reports/players', '/admin/reports/protection', '/admin/reports/live']) {
      for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${player.token}` }] as Record<string, string>[]) {
        const res = await fetch(url(path), { headers });
        assert.equal(res.status, 401, path);
        assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'auth/operator_only');
      }
      const res = await asOperator(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('cache-control'), 'no-store');
    }
  });

  it('sums the units played per game, price and day, with the payout against its band', async () => {
    const { rows, total } = (await (await asOperator('/admin/reports/days?limit=500')).json()) as { rows: { game: string; stake: number; units: number; stakes: number; prizes: number; ggr: number; bandLow: number; bandHigh: number }[]; total: number };
    assert.equal(total, rows.length);
    assert.equal(rows.reduce((n, r) => n + r.units, 0), 40);
    assert.equal(rows.reduce((n, r) => n + r.prizes, 0), played.reduce((n, u) => n + u.record.prize!, 0));
    for (const r of rows) assert.ok(r.ggr === r.stakes - r.prizes && r.bandLow <= r.bandHigh);
    const hours = (await (await asOperator('/admin/reports/hours?limit=500')).json()) as { rows: { hour: string; units: number }[] };
    assert.equal(hours.rows.reduce((n, r) => n + r.units, 0), 40);
    assert.ok(new Set(hours.rows.map((r) => r.hour)).size >= 4, 'four hours of sales');
  });

  it('pages, and answers CSV with a header and the page’s rows', async () => {
    const first = (await (await asOperator('/admin/reports/hours?limit=2')).json()) as { rows: unknown[]; next: number | null; total: number };
    assert.deepEqual([first.rows.length, first.next], [2, 2]);
    const last = (await (await asOperator(`/admin/reports/hours?offset=${first.total - 1}&limit=2`)).json()) as { rows: unknown[]; next: number | null };
    assert.deepEqual([last.rows.length, last.next], [1, null]);
    const csv = await asOperator('/admin/reports/days?format=csv&limit=3');
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    const lines = (await csv.text()).trimEnd().split('\n');
    assert.match(lines[0]!, /^day,emissionId,game,stake,units,stakes,prizes,ggr,payout,tablePayout,bandUnits,bandPayout,expectedPrizes,bandLow,bandHigh,payoutLow,payoutHigh,bandMethod$/);
    assert.ok(lines.length >= 2 && lines.length <= 4);
    assert.equal((await asOperator('/admin/reports/days?limit=0')).status, 400);
    assert.equal((await asOperator('/admin/reports/days?format=xml')).status, 400);
  });

  it('lists each block’s stock and top prizes left, the players with their protection events, and the protection journal', async () => {
    const blocks = (await (await asOperator('/admin/reports/blocks?limit=500')).json()) as { rows: { blockId: string; size: number; sold: number; left: number; topPrizesLeft: number; tiersLeft: string }[] };
    const sold = new Map<string, number>();
    for (const { record } of played) sold.set(record.blockId, (sold.get(record.blockId) ?? 0) + 1);
    for (const b of blocks.rows) assert.deepEqual([b.sold, b.left], [sold.get(b.blockId) ?? 0, b.size - (sold.get(b.blockId) ?? 0)], b.blockId);
    assert.match(blocks.rows[0]!.tiersLeft, /^\d+×\d+( \d+×\d+)+$/);
    const players = (await (await asOperator('/admin/reports/players')).json()) as { rows: { playerId: string; units: number; staked: number; won: number; net: number; protectionEvents: number }[] };
    const bob = players.rows.find((p) => p.playerId === 'bob')!;
    assert.deepEqual([bob.units, bob.net, bob.protectionEvents], [20, bob.won - bob.staked, 1]);
    const journal = (await (await asOperator('/admin/reports/protection')).json()) as { rows: { playerId: string; by: string; what: string }[] };
    assert.deepEqual(journal.rows.map((r) => [r.playerId, r.by, r.what]), [['bob', 'operator', 'block']]);
  });

  it('exports today’s payout per emission and its band as metrics', async () => {
    const text = await (await asOperator('/metrics')).text();
    for (const name of ['lottery_payout_ratio', 'lottery_payout_band_low_ratio', 'lottery_payout_band_high_ratio', 'lottery_payout_table_ratio', 'lottery_payout_units']) {
      assert.match(text, new RegExp(`^${name}\\{game="[a-z0-9-]+",stake="\\d+",emission="[^"]+"\\} [\\d.e-]+$`, 'm'), name);
    }
  });
});
