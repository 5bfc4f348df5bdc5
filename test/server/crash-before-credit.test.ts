import { strict as assert } from 'node:assert';
import type { Room } from '@colyseus/sdk';
import { MemoryStore } from '../../src/dealer/memory/store';
import type { DealerStore, Sales } from '../../src/dealer/types';
import type { RunningServer } from '../../src/server/app';
import { MemoryActionLog } from '../../src/action-log/action-log';
import { anonymous, eventually, reasonOf } from '../rooms/helpers';
import { decodedUnits, devLogin, record, startTestServer, until } from '../support/game-server';

/**
 * A process dies between a unit's last logged step and its credit; the process started after
 * it credits the unit. The player never saw that reveal end: its win must wait, unseen, until
 * their client is shown the unit (`resumed` on their next table), and not go out at the start.
 */

const ENV = { JWT_SECRET: 'crash-before-credit-secret-of-32-chars!', DEV_LOGIN: 'true', DEMO_BALANCE_CENTS: '100000' };

describe('a crash between a unit\'s last step and its credit', function () {
  this.timeout(60_000);
  const servers: RunningServer[] = [];
  after(async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
  });

  it('keeps the win unseen after the restart until the player\'s next table shows the unit (resumed), then publishes it', async () => {
    const dealer = new MemoryStore();
    const actions = new MemoryActionLog();
    // The first process dies at the credit: the unit's last step is logged, its prize never credited.
    let dead = false;
    const sales = Object.assign(Object.create(dealer.sales) as Sales, {
      settle: (...args: Parameters<Sales['settle']>) => (dead ? Promise.reject(new Error('killed')) : dealer.sales.settle(...args)),
    });
    const dying: DealerStore = { ...dealer, sales, close: () => dealer.close() };
    const first = await startTestServer(ENV, { stores: { dealer: dying, actions } });
    servers.push(first);
    const player = await devLogin(first, 'Crashed');
    const table: Room = await player.client.create('table', { game: 'noel-de-la-chance' });
    record(table);
    // A winning unit (losing ones are played to their end).
    let unitId = '';
    for (let i = 0; !unitId; i++) {
      assert.ok(i < 200, 'a winning unit within 200');
      const { unitIds } = (await table.request('buy', { stake: 50, requestId: `crash_${i}` })) as { unitIds: string[] };
      if ((await dealer.sales.getSale(unitIds[0]!))!.prize > 0) unitId = unitIds[0]!;
      else await table.request('act', { action: { type: 'pick', symbol: 'bell' } });
    }
    dead = true;
    await assert.rejects(table.request('act', { action: { type: 'pick', symbol: 'bell' } }), (err: unknown) => /server\/error/.test(reasonOf(err)));
    assert.equal((await dealer.sales.getSale(unitId))!.settledAt, undefined, 'logged to its end, not credited');
    await table.leave();
    await first.stop();

    // The next process credits it at its start; a spectator is on the feed from then on.
    const next = await startTestServer(ENV, { stores: { dealer, actions } });
    servers.push(next);
    assert.notEqual((await dealer.sales.getSale(unitId))!.settledAt, undefined, 'credited at the start');
    const prize = (await dealer.sales.getSale(unitId))!.prize;
    const feed = await anonymous(next).joinOrCreate('feed');
    const seen: string[] = [];
    feed.onMessage('recent', (m: { wins: { amount: number }[] }) => seen.push(...m.wins.map((w) => `recent ${w.amount}`)));
    feed.onMessage('wins', (m: { wins: { amount: number }[] }) => seen.push(...m.wins.map((w) => `win ${w.amount}`)));
    feed.onMessage('*', () => undefined);

    // The player comes back to the game: the finished unit is shown, then its win goes out.
    const client = anonymous(next);
    client.auth.token = player.token;
    const back: Room = await client.create('table', { game: 'noel-de-la-chance' });
    let resumed: unknown;
    back.onMessage('*', (type, payload) => {
      if (type !== 'resumed') return;
      resumed = payload;
      seen.push('resumed');
    });
    await eventually(() => resumed, (r) => r !== undefined, 'resumed');
    assert.deepEqual(resumed, { unitIds: [unitId] });
    await until(back, () => decodedUnits(back)[0]?.status === 'finished', 'the finished unit on the table');
    assert.equal(decodedUnits(back)[0]!.prize, prize);
    await eventually(() => seen, (s) => s.includes(`win ${prize}`), 'the win on the feed', 10_000);
    assert.ok(!seen.includes(`recent ${prize}`), `not published at the start: ${seen.join(', ')}`);
    assert.ok(seen.indexOf('resumed') < seen.indexOf(`win ${prize}`), `published after the player was shown the unit: ${seen.join(', ')}`);
    await back.leave();
    await feed.leave();
  });
});
