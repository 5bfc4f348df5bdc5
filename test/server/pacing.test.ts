import { strict as assert } from 'node:assert';
import type { Room } from '@colyseus/sdk';
import type { GameId } from '../../src/games/types';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { RefusalMessage } from '../../src/protocol/refusals';
import type { RunningServer } from '../../src/server/app';
import { devLogin, record, startTestServer, type TestPlayer } from '../support/game-server';
import { buyAndFinish, sleep } from '../rooms/helpers';

/** The pace this server is set to: one unit a second, Mine d'or one every 3 s. */
const UNIT_MS = 1000;
const MINE_UNIT_MS = 3000;

let server: RunningServer;
let requests = 0;

async function table(player: TestPlayer, game: GameId): Promise<Room> {
  const room = await player.client.create('table', { game });
  await record(room).next('wallet');
  return room;
}

/** Buys a unit (0.50 € unless said) and reveals it whole; the refusal if refused. */
const buy = (room: Room, stake = 50) => buyAndFinish(room, stake, `pace_${++requests}`);

/** When each of the player's units was sold (its start), in order. */
async function starts(playerId: string): Promise<number[]> {
  return (await server.services.dealer.sales.listSales(playerId, 0, 100)).map((s) => s.soldAt).sort((a, b) => a - b);
}

describe('the pace of play is the server’s', function () {
  this.timeout(30_000);
  before(async () => {
    server = await startTestServer({ PACE_UNIT_MS: String(UNIT_MS), PACE_STEP_MS: '100', PACE_BY_GAME: `mine-d-or=${MINE_UNIT_MS}/200`, DEMO_BALANCE_CENTS: '100000' });
  });
  after(async () => {
    await server?.stop();
  });

  it('holds a client faster than the pace to it: the next unit within the pace is refused with the time to wait, and sold once it has passed', async () => {
    const player = await devLogin(server, 'Quick');
    const room = await table(player, 'rain-diamonds');
    assert.equal(await buy(room), undefined);
    const refused = await buy(room);
    assert.equal(refused?.code, 'pace/too_fast');
    const wait = refused.details?.retryAfterMs;
    assert.ok(wait !== undefined && wait > 0 && wait <= UNIT_MS, `waits ${wait} ms`);
    await sleep(wait);
    assert.equal(await buy(room), undefined, 'sold once the pace has passed');
    const [a, b] = await starts(player.playerId);
    assert.ok(b! - a! >= UNIT_MS, `${b! - a!} ms between the two units`);
  });

  it('never starts two units of a player closer than the pace, however fast they ask and on however many tables', async () => {
    const player = await devLogin(server, 'Hammer');
    const rooms = [await table(player, 'rain-diamonds'), await table(player, '500000-carats')];
    // Two tables asking at once: one unit starts.
    const both = await Promise.all(rooms.map((room, i) => buy(room, i === 0 ? 50 : 500)));
    assert.deepEqual(both.map((r) => r?.code).sort(), ['pace/too_fast', undefined]);
    // Both tables asking every 50 ms for 2.5 s.
    const until = Date.now() + 2500;
    await Promise.all(rooms.map(async (room, i) => {
      while (Date.now() < until) {
        await buy(room, i === 0 ? 50 : 500);
        await sleep(50);
      }
    }));
    const times = await starts(player.playerId);
    assert.ok(times.length >= 3, `${times.length} units sold`);
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! >= UNIT_MS, `units ${i - 1} and ${i}: ${times[i]! - times[i - 1]!} ms apart`);
  });

  it('takes no pace from a client: a field of the purchase is refused, one of the table changes nothing, nor the address, and each game has the pace the operator set', async () => {
    const player = await devLogin(server, 'Tinker');
    const room = await table(player, 'rain-diamonds');
    await assert.rejects(room.request('buy', { stake: 50, requestId: `pace_${++requests}`, pace: 0 }), (err: { reason?: RefusalMessage }) => err.reason?.code === 'purchase/malformed');
    // A table asked for with a pace of its own holds the server's.
    const asked = await player.client.create('table', { game: '500000-carats', pace: 0 });
    await record(asked).next('wallet');
    await sleep(UNIT_MS);
    assert.equal(await buy(asked, 500), undefined);
    assert.equal((await buy(asked, 500))?.code, 'pace/too_fast');
    const catalog = (await (await fetch(`http://127.0.0.1:${server.port}/games?pace=0`)).json()) as GameCatalogEntry[];
    assert.deepEqual(
      catalog.map((g) => [g.id, g.pace.unitMs, g.pace.stepMs]),
      catalog.map((g) => (g.id === 'mine-d-or' ? [g.id, MINE_UNIT_MS, 200] : [g.id, UNIT_MS, 100])),
    );
    // Mine d'or's own pace holds its units: 3 s since the player's last start, not the others' 1 s.
    const mine = await table(player, 'mine-d-or');
    await sleep(MINE_UNIT_MS);
    assert.equal(await buy(mine), undefined);
    await sleep(UNIT_MS + 100);
    assert.equal((await buy(mine))?.code, 'pace/too_fast');
  });
});
