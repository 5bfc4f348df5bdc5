import { strict as assert } from 'node:assert';
import { matchMaker } from '@colyseus/core';
import type { Room } from '@colyseus/sdk';
import { rulesOf } from '../../src/games/registry';
import type { GameId } from '../../src/games/types';
import type { OpenTable } from '../../src/protocol/http';
import type { RunningServer } from '../../src/server/app';
import { decodedUnits, devLogin, record, startTestServer, until, type DecodedUnit } from '../support/game-server';
import { anonymous, eventually, nextRequestId, reasonOf } from './helpers';

const SECRET = 'table-watch-secret-of-thirty-two-chars!!';

describe('watching a table', function () {
  this.timeout(30_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer({ JWT_SECRET: SECRET, WATCHERS_MAX: '3', MAX_MESSAGES_PER_SECOND: '1000' });
  });
  after(async () => {
    await server.stop();
  });

  const tables = async () => (await (await fetch(`http://127.0.0.1:${server.port}/tables`)).json()) as OpenTable[];

  async function openTable(name: string, game: GameId) {
    const player = await devLogin(server, name);
    const room = await player.client.create('table', { game });
    const rec = record(room);
    await rec.next('wallet');
    return { player, room, rec };
  }

  async function watch(roomId: string): Promise<Room> {
    const room = await anonymous(server).joinOrCreate('watch', { table: roomId });
    await until(room, () => (room.state as { game?: string }).game !== undefined && (room.state as { game: string }).game !== '', 'the table state');
    return room;
  }

  /**
   * Follows a spectator's state: every time it changes, the player's client must already
   * show at least as many steps of each unit (no spectator is ever ahead of the player).
   */
  function followAhead(spectator: Room, player: Room): { violations: string[] } {
    const violations: string[] = [];
    spectator.onStateChange(() => {
      const seen = decodedUnits(spectator);
      const theirs = decodedUnits(player);
      for (const [i, unit] of seen.entries()) {
        const playerUnit = theirs.find((u) => u.unitId === unit.unitId);
        if (!playerUnit || playerUnit.steps.length < unit.steps.length) {
          violations.push(`unit ${i}: spectator had ${unit.steps.length} steps, player ${playerUnit?.steps.length ?? 'none'}`);
        }
      }
    });
    return { violations };
  }

  it('refuses spectators until the player opens the table, and lists only open tables', async () => {
    const { room } = await openTable('Closed', 'rain-diamonds');
    await assert.rejects(anonymous(server).joinOrCreate('watch', { table: room.roomId }), (err: unknown) => {
      assert.match(reasonOf(err), /table\/not_watchable/);
      assert.match(reasonOf(err), /403/);
      return true;
    });
    assert.ok(!(await tables()).some((t) => t.roomId === room.roomId), 'a closed table is not listed');
    await room.leave();
  });

  it('gives a spectator each step after the player, never before, equal to the player’s, and nothing private', async () => {
    const { room, rec } = await openTable('Vera', '500000-carats');
    const reply = (await room.request('watchers', { open: true })) as { roomId: string; open: boolean };
    assert.deepEqual(reply, { roomId: room.roomId, open: true });
    const listed = await eventually(tables, (list) => list.some((t) => t.roomId === room.roomId && t.watchers === 0), 'the table in /tables');
    // The pseudonym masked as the win feed shows it, never whole.
    assert.deepEqual(listed.find((t) => t.roomId === room.roomId), { roomId: room.roomId, game: '500000-carats', pseudonym: 'Ver***', watchers: 0 });

    const spectator = await watch(room.roomId);
    const seenBySpectator = record(spectator);
    const ahead = followAhead(spectator, room);
    await eventually(tables, (list) => list.some((t) => t.roomId === room.roomId && t.watchers === 1), 'one watcher in /tables');

    await room.request('buy', { stake: 500, requestId: nextRequestId() });
    await until(spectator, () => decodedUnits(spectator).length === 1, 'the unit on the spectator’s table');
    assert.deepEqual(decodedUnits(spectator), decodedUnits(room), 'the bought unit as the player sees it');
    for (const action of rulesOf('500000-carats').demoScript(() => 0, { auto: false })) {
      if (decodedUnits(room)[0]!.status === 'finished') break;
      const before = decodedUnits(room)[0]!.steps.length;
      await room.request('act', { action });
      await until(room, () => decodedUnits(room)[0]!.steps.length > before, 'the step on the player’s table');
      await until(spectator, () => decodedUnits(spectator)[0]!.steps.length > before, 'the step on the spectator’s table');
      assert.deepEqual(decodedUnits(spectator), decodedUnits(room), `step ${before}: the spectator sees exactly what the player sees`);
    }
    const unit: DecodedUnit = decodedUnits(room)[0]!;
    assert.equal(unit.status, 'finished');
    assert.deepEqual(ahead.violations, [], 'no spectator patch came before the player’s');
    assert.ok(rec.messages.some((m) => m.type === 'wallet'), 'the player got wallet messages');
    assert.deepEqual(seenBySpectator.messages, [], 'the spectator got no message at all: no wallet, no replies');
    const spectatorJson = JSON.stringify(spectator.state);
    assert.ok(!/balance|held|playerId|token|demo-/.test(spectatorJson), 'no private data in the spectator’s state');
    await spectator.leave();
    await room.leave();
  });

  it('never shows a spectator the lamp result before the lamp opens for the player', async () => {
    const { room } = await openTable('Lamp', 'mysteres-de-la-lampe');
    await room.request('watchers', { open: true });
    const spectator = await watch(room.roomId);
    const rec = record(spectator);
    const ahead = followAhead(spectator, room);
    await room.request('buy', { stake: 50, requestId: nextRequestId(), picks: [{ kind: 'symbol', choice: 'moon' }] });
    await room.request('act', { action: { type: 'rub', progress: 99 } });
    await until(spectator, () => decodedUnits(spectator)[0]?.steps.length === 2, 'the rub on the spectator’s table');
    const seen = JSON.stringify({ state: decodedUnits(spectator), messages: rec.messages });
    assert.ok(!seen.includes('lamp_opened') && !seen.includes('"result"') && !seen.includes('finished'), 'nothing of the result reached the spectator');
    assert.equal(decodedUnits(spectator)[0]!.prize, 0);
    await room.request('act', { action: { type: 'rub', progress: 100 } });
    await until(spectator, () => decodedUnits(spectator)[0]!.status === 'finished', 'the lamp to open for the spectator');
    assert.deepEqual(decodedUnits(spectator), decodedUnits(room));
    assert.deepEqual(ahead.violations, []);
    await spectator.leave();
    await room.leave();
  });

  it('refuses whatever a spectator sends, and changes nothing', async () => {
    const { room } = await openTable('Owner', 'rain-diamonds');
    await room.request('watchers', { open: true });
    await room.request('buy', { stake: 50, requestId: nextRequestId() });
    const wallet = await room.request('wallet');
    const spectator = await watch(room.roomId);
    const rec = record(spectator);
    for (const [type, payload] of [
      ['act', { action: { type: 'auto' } }],
      ['buy', { stake: 50, requestId: nextRequestId() }],
      ['wallet', undefined],
      ['history', {}],
      ['recall', { unitId: decodedUnits(room)[0]!.unitId }],
      ['watchers', { open: false }],
    ] as const) {
      await assert.rejects(spectator.request(type, payload), (err: unknown) => /spectator\/read_only/.test(reasonOf(err)), `${type} is refused`);
    }
    spectator.send('act', { action: { type: 'auto' } });
    spectator.send('anything', { x: 1 });
    const refused = (await rec.next('refused')) as { code: string };
    assert.equal(refused.code, 'spectator/read_only');
    await until(spectator, () => rec.messages.filter((m) => m.type === 'refused').length === 2, 'both refusals');
    assert.deepEqual(await room.request('wallet'), wallet, 'nothing changed');
    assert.equal(decodedUnits(room)[0]!.steps.length, 1, 'no step was played');
    assert.deepEqual(decodedUnits(spectator), decodedUnits(room));
    await spectator.leave();
    await room.leave();
  });

  it('takes at most WATCHERS_MAX spectators, sends them away when the player closes the table, and forgets it', async () => {
    const { room } = await openTable('Full', 'rain-diamonds');
    await room.request('watchers', { open: true });
    const watchers = await Promise.all([1, 2, 3].map(() => watch(room.roomId)));
    await assert.rejects(anonymous(server).joinOrCreate('watch', { table: room.roomId }), (err: unknown) => /table\/full/.test(reasonOf(err)));
    assert.deepEqual(await room.request('wallet'), { balance: 10_000, held: 0 }, 'the player still plays');
    const left = watchers.map((w) => new Promise<string | undefined>((resolve) => w.onLeave((_code, reason) => resolve(reason))));
    assert.deepEqual(await room.request('watchers', { open: false }), { roomId: room.roomId, open: false });
    assert.deepEqual(await Promise.all(left), Array(3).fill('table/closed_to_watchers'), 'each spectator told why');
    await assert.rejects(anonymous(server).joinOrCreate('watch', { table: room.roomId }), (err: unknown) => /table\/not_watchable/.test(reasonOf(err)));
    await eventually(tables, (list) => !list.some((t) => t.roomId === room.roomId), 'the table gone from /tables');
    await room.leave();
  });

  it('closes the table to its spectators when the player leaves, telling them so', async () => {
    const { room } = await openTable('Leaver', 'noel-de-la-chance');
    await room.request('watchers', { open: true });
    const spectator = await watch(room.roomId);
    const gone = new Promise<string | undefined>((resolve) => spectator.onLeave((_code, reason) => resolve(reason)));
    await room.leave();
    assert.equal(await gone, 'table/player_left');
    await eventually(tables, (list) => !list.some((t) => t.roomId === room.roomId), 'the table gone from /tables');
  });

  it("tells its spectators when the player's connection drops and when it comes back", async () => {
    const { player, room } = await openTable('Dropper', 'rain-diamonds');
    room.reconnection.enabled = false;
    await room.request('watchers', { open: true });
    const spectator = await watch(room.roomId);
    const heard = record(spectator);
    const seat = matchMaker.getLocalRoomById(room.roomId)!.clients.find((c) => c.sessionId === room.sessionId)!;
    (seat.ref as unknown as { _socket: { destroy(): void } })._socket.destroy();
    assert.deepEqual(await heard.next('player'), { state: 'away' });
    const since = heard.messages.length;
    const back = await player.client.joinById(room.roomId);
    assert.deepEqual(await heard.next('player', since), { state: 'back' });
    await back.leave();
  });

  it('refuses a malformed watchers request and keeps the player’s table to the player', async () => {
    const { room } = await openTable('Keeper', 'mine-d-or');
    await assert.rejects(room.request('watchers', { open: 'yes' }), (err: unknown) => /watchers\/malformed/.test(reasonOf(err)));
    await room.request('watchers', { open: true });
    const other = await devLogin(server, 'Intruder');
    await assert.rejects(other.client.joinById(room.roomId), (err: unknown) => /table\/not_yours/.test(reasonOf(err)));
    await room.leave();
  });
});
