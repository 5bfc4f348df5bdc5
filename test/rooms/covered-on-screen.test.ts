import { strict as assert } from 'node:assert';
import { matchMaker } from '@colyseus/core';
import type { Room } from '@colyseus/sdk';
import { maskPseudonym } from '../../src/feed/win-feed';
import type { GameId } from '../../src/games/types';
import type { Win } from '../../src/protocol/feed';
import type { RunningServer } from '../../src/server/app';
import { decodedUnits, devLogin, record, startTestServer, until, type TestPlayer } from '../support/game-server';
import { anonymous, nextRequestId, reasonOf, sleep, winsReceived } from './helpers';

const SECRET = 'covered-on-screen-secret-of-32-chars!!';

/**
 * Mine d'or and Le Noël: the page draws what the server reveals under silver, so the table
 * shows its watchers, and the feed the win, only the steps its player said they uncovered.
 */
describe('a game the page covers (Mine d’or, Le Noël): watchers and the feed wait for `uncovered`', function () {
  this.timeout(60_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer({ JWT_SECRET: SECRET, WATCHERS_MAX: '3', MAX_MESSAGES_PER_SECOND: '1000', DEMO_BALANCE_CENTS: '1000000' });
  });
  after(async () => {
    await server.stop();
  });

  /** A player's table of `game`, open to one watcher, and a spectator of the feed. */
  async function watchedTable(name: string, game: GameId): Promise<{ player: TestPlayer; room: Room; watcher: Room; feed: ReturnType<typeof record> }> {
    const player = await devLogin(server, name);
    const room = await player.client.create('table', { game });
    await record(room).next('wallet');
    await room.request('watchers', { open: true });
    const watcher = await anonymous(server).joinOrCreate('watch', { table: room.roomId });
    await until(watcher, () => (watcher.state as { game?: string }).game === game, 'the table state');
    const feedRoom = await anonymous(server).joinOrCreate('feed');
    const feed = record(feedRoom);
    await feed.next('recent');
    return { player, room, watcher, feed };
  }

  /** Waits until the table has done what it does after the player's frame (show the watchers, publish or keep the win). */
  const settled = async () => {
    await sleep(200);
    await server.services.feed.settled();
  };

  const winsOf = (feed: ReturnType<typeof record>, pseudonym: string): Win[] => winsReceived(feed).filter((w) => w.pseudonym === maskPseudonym(pseudonym));

  it('Le Noël: a watcher sees the offered symbols, not the cells, and the feed no win, until the player says the cells are uncovered', async () => {
    const name = 'Scratcher';
    const { player, room, watcher, feed } = await watchedTable(name, 'noel-de-la-chance');
    let prize = 0;
    for (let i = 0; prize === 0; i++) {
      assert.ok(i < 100, 'a winning unit within 100');
      const { unitIds } = (await room.request('buy', { stake: 50, requestId: nextRequestId('noel') })) as { unitIds: string[] };
      const unitId = unitIds[0]!;
      assert.deepEqual(await room.request('uncovered', { unitId, steps: 1 }), { unitId, steps: 1 }, 'the offered symbols, seen');
      await room.request('act', { action: { type: 'pick', symbol: 'bell' } });
      await until(room, () => decodedUnits(room)[0]?.status === 'finished', 'the cells on the player’s table');
      await until(watcher, () => decodedUnits(watcher)[0]?.unitId === unitId, 'the unit on the watcher’s table');
      await settled();
      const seen = decodedUnits(watcher)[0]!;
      assert.equal(seen.steps.length, 1, 'the watcher has the offered symbols only');
      assert.deepEqual(seen.steps[0]!.events.map((e) => e.type), ['symbols_offered']);
      assert.equal(seen.status, 'in_progress');
      assert.equal(seen.prize, 0);
      assert.ok(!JSON.stringify(watcher.state).includes('cell_revealed'));
      prize = decodedUnits(room)[0]!.prize;
      if (prize > 0) {
        assert.deepEqual(winsOf(feed, name), [], 'no win on the feed while the cells are under silver');
        assert.equal(await server.services.feed.lastUnseen(player.playerId, 'noel-de-la-chance'), unitId, 'the win kept until they are uncovered');
      }
      assert.deepEqual(await room.request('uncovered', { unitId, steps: 2 }), { unitId, steps: 2 });
      await until(watcher, () => decodedUnits(watcher)[0]!.status === 'finished', 'the uncovered cells on the watcher’s table');
      assert.deepEqual(decodedUnits(watcher), decodedUnits(room), 'the watcher sees what the player uncovered');
    }
    const win = await eventuallyWin(feed, name);
    assert.equal(win.amount, prize);
    assert.equal(win.game, 'noel-de-la-chance');
    assert.equal(await server.services.feed.lastUnseen(player.playerId, 'noel-de-la-chance'), undefined, 'nothing kept any more');
    await watcher.leave();
    await room.leave();
  });

  it('Mine d’or: each grid reaches the watcher once the player uncovered it, and the win the feed once every grid is', async () => {
    const name = 'Miner';
    const { room, watcher, feed } = await watchedTable(name, 'mine-d-or');
    let prize = 0;
    for (let i = 0; prize === 0; i++) {
      assert.ok(i < 100, 'a winning unit within 100');
      const { unitIds } = (await room.request('buy', { stake: 50, requestId: nextRequestId('mine') })) as { unitIds: string[] };
      const unitId = unitIds[0]!;
      for (let steps = 1; ; steps++) {
        await until(room, () => decodedUnits(room)[0]?.unitId === unitId && decodedUnits(room)[0]!.steps.length === steps, `grid ${steps} on the player’s table`);
        await until(watcher, () => decodedUnits(watcher)[0]?.unitId === unitId, 'the unit on the watcher’s table');
        await settled();
        assert.equal(decodedUnits(watcher)[0]!.steps.length, steps - 1, `grid ${steps} is not on the watcher’s table while under silver`);
        assert.equal(decodedUnits(watcher)[0]!.status, 'in_progress');
        const finished = decodedUnits(room)[0]!.status === 'finished';
        if (finished && decodedUnits(room)[0]!.prize > 0) assert.deepEqual(winsOf(feed, name), [], 'no win on the feed while a grid is under silver');
        await room.request('uncovered', { unitId, steps });
        await until(watcher, () => decodedUnits(watcher)[0]!.steps.length === steps, `grid ${steps} on the watcher’s table once uncovered`);
        if (finished) break;
        await room.request('act', { action: { type: 'extra' } });
      }
      assert.deepEqual(decodedUnits(watcher), decodedUnits(room), 'the watcher ends with what the player sees');
      prize = decodedUnits(room)[0]!.prize;
    }
    assert.equal((await eventuallyWin(feed, name)).amount, prize);
    await watcher.leave();
    await room.leave();
  });

  it('shows the watchers the whole unit once the player’s page joins again (it draws a resumed unit without silver)', async () => {
    const { player, room, watcher } = await watchedTable('Reloader', 'noel-de-la-chance');
    room.reconnection.enabled = false;
    await room.request('buy', { stake: 50, requestId: nextRequestId('reload') });
    await room.request('act', { action: { type: 'pick', symbol: 'star' } });
    await until(watcher, () => decodedUnits(watcher).length === 1, 'the unit on the watcher’s table');
    await settled();
    assert.equal(decodedUnits(watcher)[0]!.steps.length, 0, 'nothing uncovered yet');
    const seat = matchMaker.getLocalRoomById(room.roomId)!.clients.find((c) => c.sessionId === room.sessionId)!;
    (seat.ref as unknown as { _socket: { destroy(): void } })._socket.destroy();
    const back = await player.client.joinById(room.roomId);
    await until(back, () => (back.state as { units?: unknown }).units !== undefined && decodedUnits(back)[0]?.status === 'finished', 'the unit on the player’s new connection');
    await until(watcher, () => decodedUnits(watcher)[0]?.status === 'finished', 'the whole unit on the watcher’s table');
    assert.deepEqual(decodedUnits(watcher), decodedUnits(back));
    await watcher.leave();
    await back.leave();
  });

  it('refuses a malformed `uncovered`, a unit not on the table (another player’s among them) and steps not shown, and changes nothing', async () => {
    const name = 'Hostile';
    const { room, watcher, feed } = await watchedTable(name, 'noel-de-la-chance');
    const other = await devLogin(server, 'Victim');
    const theirs = await other.client.create('table', { game: 'noel-de-la-chance' });
    const { unitIds: [theirUnit] } = (await theirs.request('buy', { stake: 50, requestId: nextRequestId('victim') })) as { unitIds: [string] };
    await theirs.request('act', { action: { type: 'pick', symbol: 'gift' } });
    const { unitIds: [unitId] } = (await room.request('buy', { stake: 50, requestId: nextRequestId('hostile') })) as { unitIds: [string] };
    await room.request('act', { action: { type: 'pick', symbol: 'gift' } });
    const wallet = await room.request('wallet');
    const refusals: [unknown, RegExp][] = [
      [{ unitId: theirUnit, steps: 2 }, /uncovered\/unknown_unit/],
      [{ unitId: 'e.0:0', steps: 1 }, /uncovered\/unknown_unit/],
      [{ unitId, steps: 3 }, /uncovered\/not_shown/],
      [{ unitId, steps: 0 }, /uncovered\/malformed/],
      [{ unitId, steps: 1.5 }, /uncovered\/malformed/],
      [{ unitId: 7, steps: 1 }, /uncovered\/malformed/],
      [{ unitId, steps: 2, prize: 1000 }, /uncovered\/malformed/],
      [{ unitId: 'x'.repeat(201), steps: 1 }, /uncovered\/malformed/],
      [undefined, /uncovered\/malformed/],
    ];
    for (const [message, code] of refusals) {
      await assert.rejects(room.request('uncovered', message), (err: unknown) => code.test(reasonOf(err)), `${JSON.stringify(message)} refused ${code}`);
    }
    await assert.rejects(watcher.request('uncovered', { unitId, steps: 2 }), (err: unknown) => /spectator\/read_only/.test(reasonOf(err)), 'a spectator says nothing');
    await settled();
    assert.deepEqual(await room.request('wallet'), wallet, 'no money moved');
    assert.equal(decodedUnits(watcher)[0]!.steps.length, 0, 'the watcher still sees nothing of the unit');
    assert.deepEqual(winsOf(feed, 'Victim'), [], 'the other player’s win (if any) still waits for them');
    await watcher.leave();
    await theirs.leave();
    await room.leave();
  });

  /** The first win of `pseudonym` the feed spectator got (it comes after the uncovering). */
  async function eventuallyWin(feed: ReturnType<typeof record>, pseudonym: string): Promise<Win> {
    for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(50)) {
      const [win] = winsOf(feed, pseudonym);
      if (win) return win;
    }
    throw new Error(`no win of ${pseudonym} on the feed`);
  }
});
