import { strict as assert } from 'node:assert';
import { Socket } from 'node:net';
import { matchMaker, Room as ServerRoom, type Client as ServerClient } from '@colyseus/core';
import type { Room } from '@colyseus/sdk';
import { MemoryStore } from '../../src/dealer/memory/store';
import type { Sales, SettleResult } from '../../src/dealer/types';
import { maskPseudonym } from '../../src/feed/win-feed';
import { FLOOD_CLOSE_CODE } from '../../src/rooms/player-first';
import type { RunningServer } from '../../src/server/app';
import { MemoryActionLog } from '../../src/action-log/action-log';
import { decodedUnits, devLogin, record, startTestServer, until, type Recorder, type TestPlayer } from '../support/game-server';
import { anonymous, eventually, nextRequestId, sleep } from './helpers';

/**
 * No spectator, watcher or feed, ever gets a step or a win before the player's client could see
 * it: on the normal path, and when the player floods, drops right after the final action, or is
 * seated while the server finishes the unit. Each scene records, on one counter shared by every
 * client of the test, when the player's client, a watcher and a feed spectator saw the end.
 */

/** The order things arrived in, across every client of this process. */
let arrivals = 0;

interface Scene {
  account: TestPlayer;
  player: Room;
  watcher: Room;
  feed: Recorder;
  /** When each side first saw the unit finished (arrival numbers), and watcher frames ahead of the player. */
  seen: { player?: number; watcher?: number; feed?: number; ahead: string[] };
  /** The player joins the table again by id (a dropped seat taken back), their view recorded as before. */
  rejoin(): Promise<Room>;
}

/** A lamp table open to one watcher, and a feed spectator, all recording when they see `unitId` end. */
async function scene(server: RunningServer, name: string, unitOf: () => string | undefined): Promise<Scene> {
  const account = await devLogin(server, name);
  const room = await account.client.create('table', { game: 'mysteres-de-la-lampe' });
  await record(room).next('wallet');
  await room.request('watchers', { open: true });
  const watcher = await anonymous(server).joinOrCreate('watch', { table: room.roomId });
  const feedRoom = await anonymous(server).joinOrCreate('feed');
  const feed = record(feedRoom);
  await feed.next('recent');
  const seen: Scene['seen'] = { ahead: [] };
  const finished = (r: Room) => decodedUnits(r).some((u) => u.unitId === unitOf() && u.status === 'finished');
  const followPlayer = (r: Room) => r.onStateChange(() => {
    if (seen.player === undefined && finished(r)) seen.player = ++arrivals;
  });
  followPlayer(room);
  let playerRoom = room;
  watcher.onStateChange(() => {
    const mine = decodedUnits(playerRoom);
    for (const unit of decodedUnits(watcher)) {
      const players = mine.find((u) => u.unitId === unit.unitId);
      if (!players || players.steps.length < unit.steps.length) seen.ahead.push(`${unit.unitId}: watcher ${unit.steps.length} steps, player ${players?.steps.length ?? 0}`);
    }
    if (seen.watcher === undefined && finished(watcher)) seen.watcher = ++arrivals;
  });
  feedRoom.onMessage('wins', (message: { wins: { pseudonym: string }[] }) => {
    if (seen.feed === undefined && message.wins.some((w) => w.pseudonym === maskPseudonym(name))) seen.feed = ++arrivals;
  });
  const rejoin = async () => {
    const back = await account.client.joinById(room.roomId);
    playerRoom = back;
    followPlayer(back);
    return back;
  };
  return { account, player: room, watcher, feed, seen, rejoin };
}

/**
 * Buys lamp units (finishing the losing ones) until one wins; the server's store says which.
 * `pauseMs` between tries keeps the table under its message limit: two messages a try, so the
 * default 50 ms stays under the default limit of 50 a second however many tries a win takes (a
 * run of losses without a pause was closed for flooding now and then).
 */
async function buyWinningLamp(server: RunningServer, room: Room, pauseMs = 50): Promise<string> {
  for (let i = 0; i < 200; i++) {
    if (i > 0) await sleep(pauseMs);
    const { unitIds } = (await room.request('buy', { stake: 50, requestId: nextRequestId('win'), picks: [{ kind: 'colour', choice: 'gold' }] })) as { unitIds: string[] };
    const unitId = unitIds[0]!;
    if ((await server.services.dealer.sales.getSale(unitId))!.prize > 0) return unitId;
    await room.request('act', { action: { type: 'rub', progress: 100 } });
  }
  throw new Error('no winning lamp unit in 200');
}

function serverRoom(roomId: string): ServerRoom {
  const room = matchMaker.getLocalRoomById(roomId);
  assert.ok(room, `room ${roomId} is on this process`);
  return room;
}

/** Settlement waits while the gate is shut: an action is caught between its log entry and its step. */
class GatedStore extends MemoryStore {
  override readonly sales: Sales;
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  waiting = false;

  constructor() {
    super();
    const sales = (this as MemoryStore).sales;
    this.sales = Object.assign(Object.create(sales) as Sales, {
      settle: async (unitId: string, now: number): Promise<SettleResult> => {
        if (this.gate) {
          this.waiting = true;
          await this.gate;
        }
        return sales.settle(unitId, now);
      },
    });
  }

  shut(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.gate = undefined;
    this.open?.();
  }
}

describe('player first', function () {
  this.timeout(30_000);

  describe('on what Colyseus does underneath (checked against @colyseus/core 0.18.17)', () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer();
    });
    after(async () => {
      await server.stop();
    });

    it('routes every incoming frame through room._onMessage, and a full state through room.sendFullState', async () => {
      assert.equal(typeof (ServerRoom.prototype as unknown as Record<string, unknown>)['_onMessage'], 'function');
      assert.equal(typeof (ServerRoom.prototype as unknown as Record<string, unknown>)['sendFullState'], 'function');
      const player = await devLogin(server);
      const room = await player.client.create('table', { game: 'rain-diamonds' });
      await record(room).next('wallet');
      const table = serverRoom(room.roomId) as unknown as { _onMessage(c: ServerClient, b: Uint8Array): void; sendFullState(c: ServerClient): void };
      assert.ok(Object.hasOwn(table, '_onMessage') && Object.hasOwn(table, 'sendFullState'), 'the table wraps both');
      await room.leave();
    });

    it('sends patches through client.raw, over a ws socket whose _socket is a TCP socket', async () => {
      const player = await devLogin(server);
      const room = await player.client.create('table', { game: 'rain-diamonds' });
      await record(room).next('wallet');
      const [client] = serverRoom(room.roomId).clients;
      assert.ok((client!.ref as unknown as { _socket?: unknown })._socket instanceof Socket);
      const frames: Uint8Array[] = [];
      const raw = client!.raw.bind(client);
      client!.raw = (data, options, cb) => {
        frames.push(data);
        raw(data, options, cb);
      };
      await room.request('buy', { stake: 50, requestId: nextRequestId() });
      assert.ok(frames.length > 0, 'the purchase patch went through client.raw');
      await room.leave();
    });
  });

  describe('when the player floods the table', () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ MAX_MESSAGES_PER_SECOND: '20' });
    });
    after(async () => {
      await server.stop();
    });

    it('closes the player at once with the flood code, applies nothing sent past the limit, and spoils nothing', async () => {
      let unitId: string | undefined;
      const s = await scene(server, 'Flooder', () => unitId);
      unitId = await buyWinningLamp(server, s.player, 150);
      await sleep(1000); // a fresh second: the limit is counted from here
      const closed = new Promise<{ code: number; reason?: string }>((resolve) => s.player.onLeave((code, reason) => resolve({ code, reason })));
      const sentAt = performance.now();
      for (let progress = 1; progress <= 100; progress++) s.player.send('act', { action: { type: 'rub', progress } });
      const { code, reason } = await closed;
      // At once, not after Colyseus's 30 s reconnection window (a loaded machine may take a while).
      assert.ok(performance.now() - sentAt < 5000, `closed at once (${Math.round(performance.now() - sentAt)} ms)`);
      assert.equal(code, FLOOD_CLOSE_CODE);
      assert.match(reason ?? '', /table\/flood/);

      await sleep(300);
      const logged = (await server.services.play.load(unitId))!;
      assert.equal(logged.finished, false, 'the last rubs were never applied');
      assert.ok(logged.steps.length - 1 <= 20, `at most the limit applied (${logged.steps.length - 1})`);
      assert.deepEqual(s.seen.ahead, [], 'no watcher frame ahead of the player');
      assert.equal(s.seen.feed, undefined, 'no win on the feed');

      // Back at a new table: exactly where the log stands; the end is seen there first.
      const back = await s.account.client.create('table', { game: 'mysteres-de-la-lampe' });
      const rec = record(back);
      assert.deepEqual(await rec.next('resumed'), { unitIds: [unitId] });
      await until(back, () => decodedUnits(back)[0]?.steps.length === logged.steps.length, 'the resumed unit');
      let backSaw: number | undefined;
      back.onStateChange(() => {
        if (backSaw === undefined && decodedUnits(back)[0]?.status === 'finished') backSaw = ++arrivals;
      });
      await back.request('act', { action: { type: 'rub', progress: 100 } });
      await eventually(() => s.seen.feed, (at) => at !== undefined, 'the win on the feed');
      assert.ok(backSaw !== undefined && backSaw < s.seen.feed!, 'the player saw the lamp open before the feed had the win');
      await back.leave();
    });
  });

  describe('when the player drops right after the final action', () => {
    let server: RunningServer;
    const store = new GatedStore();
    before(async () => {
      server = await startTestServer({}, { stores: { dealer: store, actions: new MemoryActionLog() } });
    });
    after(async () => {
      await server.stop();
    });

    it('shows the end to watchers and the feed only once the player is back and has seen it', async () => {
      let unitId: string | undefined;
      const s = await scene(server, 'Dropper', () => unitId);
      unitId = await buyWinningLamp(server, s.player);
      // The player comes back by joining the table again, once the action has ended meanwhile.
      s.player.reconnection.enabled = false;

      store.shut();
      s.player.send('act', { action: { type: 'rub', progress: 100 } });
      await eventually(() => store.waiting, (waiting) => waiting, 'the final action between its log entry and its credit');
      (s.player.connection as unknown as { transport: { ws: { close(code: number): void } } }).transport.ws.close(4010);
      const table = serverRoom(s.player.roomId);
      await eventually(() => table.clients.some((c) => c.sessionId === s.player.sessionId), (there) => !there, 'the server to see the drop');
      store.release();
      await eventually(async () => (await store.sales.getSale(unitId!))?.settledAt, (at) => at !== undefined, 'the credit');
      await sleep(300);
      assert.equal(s.seen.watcher, undefined, 'the watcher has not seen the end');
      assert.equal(s.seen.feed, undefined, 'the feed has not had the win');

      const back = await s.rejoin();
      await eventually(() => s.seen.feed, (at) => at !== undefined, 'the win on the feed');
      await eventually(() => s.seen.watcher, (at) => at !== undefined, 'the watcher to see the end');
      assert.ok(s.seen.player! < s.seen.watcher!, 'the player saw the end before the watcher');
      assert.ok(s.seen.player! < s.seen.feed!, 'the player saw the end before the feed had the win');
      assert.deepEqual(s.seen.ahead, []);
      await back.leave();
    });
  });

  describe('when the server finishes the unit of a seated player', () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ ABANDON_AFTER_SECONDS: '1', SWEEP_EVERY_SECONDS: '1' });
    });
    after(async () => {
      await server.stop();
    });

    it('pushes the remaining steps to the player’s table before the watchers and the feed', async () => {
      let unitId: string | undefined;
      const s = await scene(server, 'Sleeper', () => unitId);
      unitId = await buyWinningLamp(server, s.player);
      await eventually(() => s.seen.feed, (at) => at !== undefined, 'the win on the feed', 10_000);
      const [unit] = decodedUnits(s.player);
      assert.equal(unit!.steps.at(-1)!.by, 'server', 'the server’s step, on the player’s table');
      await eventually(() => s.seen.watcher, (at) => at !== undefined, 'the watcher to see the end');
      assert.ok(s.seen.player! < s.seen.watcher!, 'the player saw the end before the watcher');
      assert.ok(s.seen.player! < s.seen.feed!, 'the player saw the end before the feed had the win');
      assert.deepEqual(s.seen.ahead, []);
      await s.player.leave();
    });
  });
});
