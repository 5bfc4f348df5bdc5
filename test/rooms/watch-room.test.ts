import { strict as assert } from 'node:assert';
import type { Socket } from 'node:net';
import { matchMaker } from '@colyseus/core';
import { Client, type Room } from '@colyseus/sdk';
import { Redis } from 'ioredis';
import { rulesOf } from '../../src/games/registry';
import type { RunningServer } from '../../src/server/app';
import { startCluster, type Cluster } from '../../scripts/start-cluster';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';
import { freePort, RedisServer } from '../../tools/redis-server';
import { setHarnessStakeLimit } from '../../tools/stake-limit';
import { decodedUnits, devLogin, record, startTestServer, until } from '../support/game-server';
import { anonymous, eventually, leaveQuietly, nextRequestId, sleep } from './helpers';

const SECRET = 'watch-room-secret-of-thirty-two-chars!!';
const CHECKPOINT_SIGNING_KEY = newCheckpointSigningKey();

/** Every process of a test on one Redis: one watcher per relay room, so a second watcher opens a relay on another process. */
const envOn = (redis: RedisServer, prefix: string) => ({
  JWT_SECRET: SECRET, DEV_LOGIN: 'true', DEV_LOGIN_PER_MINUTE: '100000', EMISSION_BLOCKS: '2', REDIS_PREFIX: prefix, MAX_MESSAGES_PER_SECOND: '1000',
  WATCH_ROOM_MAX_CLIENTS: '1', REDIS_URL: redis.url, CHECKPOINT_SIGNING_KEY, PACE_UNIT_MS: '0',
});

/** Plays a 500 000 CARATS unit one action at a time; `afterEach` runs after each step reached the player. */
async function playCarats(room: Room, afterEach: () => Promise<void> = async () => undefined): Promise<void> {
  await room.request('buy', { stake: 500, requestId: nextRequestId('carats') });
  await until(room, () => decodedUnits(room).length === 1, 'the unit on the table');
  for (const action of rulesOf('500000-carats').demoScript(() => 0, { auto: false })) {
    if (decodedUnits(room)[0]!.status === 'finished') break;
    const before = decodedUnits(room)[0]!.steps.length;
    await room.request('act', { action });
    await until(room, () => decodedUnits(room)[0]!.steps.length > before, 'the step on the player’s table');
    await afterEach();
  }
  assert.equal(decodedUnits(room)[0]!.status, 'finished');
}

/**
 * Follows a watcher: at every state it is shown, its steps must be the player's first ones and
 * only grow (in order, none missing). Whether a relayed watcher was ever sent a step before the
 * player is checked at the servers' sockets (`shownBeforePlayer`), not by this client process:
 * it reads several servers' sockets, and may decode a relay's frame before the player's frame
 * that was written first.
 */
function follow(watcher: Room, player: Room): { violations: string[] } {
  const seen = { violations: [] as string[] };
  let last = { unitId: '', steps: 0 };
  watcher.onStateChange(() => {
    const theirs = decodedUnits(player);
    for (const unit of decodedUnits(watcher)) {
      const playerUnit = theirs.find((u) => u.unitId === unit.unitId);
      if (playerUnit && JSON.stringify(playerUnit.steps.slice(0, unit.steps.length)) !== JSON.stringify(unit.steps.slice(0, playerUnit.steps.length))) seen.violations.push('steps differ from the player’s');
      if (unit.unitId === last.unitId && unit.steps.length < last.steps) seen.violations.push(`went back from ${last.steps} to ${unit.steps.length} steps`);
      last = { unitId: unit.unitId, steps: unit.steps.length };
    }
  });
  return seen;
}

/** When this process's client was first shown each step (`unitId#seq`) of a room. */
function stepsShown(room: Room): Map<string, number> {
  const shown = new Map<string, number>();
  room.onStateChange(() => {
    const at = performance.now();
    for (const unit of decodedUnits(room)) {
      for (const step of unit.steps) if (!shown.has(`${unit.unitId}#${step.seq}`)) shown.set(`${unit.unitId}#${step.seq}`, at);
    }
  });
  return shown;
}

/**
 * When the table's process (this one) handed the player's socket the frame holding each step
 * (`unitId#seq`): the steps the table's state holds when its patch is given to the player's
 * client are stamped at the socket's next system write (`_write`/`_writev`, called once the
 * socket is no longer corked), before the kernel or any client had them.
 */
function stepsWrittenToPlayer(tableId: string): { written: Map<string, number>; socket: Socket } {
  const table = matchMaker.getLocalRoomById(tableId)!;
  const client = table.clients[0]!;
  const socket = (client.ref as unknown as { _socket: Socket })._socket;
  const written = new Map<string, number>();
  let pending: string[] = [];
  const raw = client.raw.bind(client);
  client.raw = (data, options, cb) => {
    const state = table.state as { units: Iterable<{ unitId: string; steps: { length: number } }> };
    pending = [...state.units].flatMap((unit) => Array.from({ length: unit.steps.length }, (_, seq) => `${unit.unitId}#${seq}`));
    return raw(data, options, cb);
  };
  const stamp = () => {
    const at = performance.now();
    for (const key of pending) if (!written.has(key)) written.set(key, at);
    pending = [];
  };
  const writes = socket as unknown as { _write(...args: unknown[]): void; _writev(...args: unknown[]): void };
  const [write, writev] = [writes._write, writes._writev];
  writes._write = function (this: Socket, ...args) {
    stamp();
    write.apply(this, args);
  };
  writes._writev = function (this: Socket, ...args) {
    stamp();
    writev.apply(this, args);
  };
  return { written, socket };
}

/**
 * The steps a watcher's client was shown before the table's process handed the player's frame
 * holding them to the player's socket, both on this process's clock. Sound across processes:
 * a client is shown a step after its relay sent it, so a watcher shown a step earlier than the
 * player's frame was written can only be a relay that sent it first; a watcher's client that
 * is merely slow or fast to read changes nothing.
 */
function shownBeforePlayer(playerWritten: ReadonlyMap<string, number>, watcherShown: ReadonlyMap<string, number>): string[] {
  const early: string[] = [];
  for (const [key, at] of watcherShown) {
    const written = playerWritten.get(key);
    if (written === undefined || at < written) early.push(key);
  }
  return early;
}

describe('a watch room', function () {
  this.timeout(60_000);

  describe('with a watcher whose socket is paused (one process)', () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ JWT_SECRET: SECRET, MAX_MESSAGES_PER_SECOND: '1000', SPECTATOR_MAX_UNSENT_BYTES: '1' });
    });
    after(async () => {
      await server.stop();
    });

    it('drops its frames while the socket holds unsent bytes, counts them, then gives it the latest state', async () => {
      const player = await devLogin(server, 'Slow');
      const table = await player.client.create('table', { game: '500000-carats' });
      await record(table).next('wallet');
      await table.request('watchers', { open: true });
      const slow = await anonymous(server).joinOrCreate('watch', { table: table.roomId });
      const steady = await anonymous(server).joinOrCreate('watch', { table: table.roomId });
      assert.equal(slow.roomId, steady.roomId, 'one relay room for the table on this process');
      let steadyStates = 0;
      steady.onStateChange(() => steadyStates++);
      const relay = matchMaker.getLocalRoomById(slow.roomId)!;
      const socket = (relay.clients.find((c) => c.sessionId === slow.sessionId)!.ref as unknown as { _socket: Socket })._socket;
      const coalesced = async () => (await server.metrics.spectatorFramesCoalesced.get()).values.find((v) => v.labels.room === 'watch')?.value ?? 0;

      socket.cork();
      let stepsWhilePaused = 0;
      await playCarats(table, async () => {
        await until(steady, () => decodedUnits(steady)[0]?.steps.length === decodedUnits(table)[0]!.steps.length, 'the steady watcher to follow');
        stepsWhilePaused++;
      });
      assert.ok(stepsWhilePaused > 3);
      assert.ok((await coalesced()) >= stepsWhilePaused - 1, `frames coalesced: ${await coalesced()} for ${stepsWhilePaused} steps`);
      assert.ok((decodedUnits(slow)[0]?.steps.length ?? 0) < decodedUnits(table)[0]!.steps.length, 'the paused watcher is behind');

      socket.uncork();
      await until(slow, () => decodedUnits(slow)[0]?.status === 'finished', 'the paused watcher to catch up');
      assert.deepEqual(decodedUnits(slow), decodedUnits(table), 'caught up with the latest state, whole');
      assert.deepEqual(decodedUnits(steady), decodedUnits(table));
      assert.ok(steadyStates > stepsWhilePaused, 'the steady watcher got every step');

      // Back under the bound, it follows step by step again.
      await playCarats(table);
      await until(slow, () => decodedUnits(slow)[0]?.status === 'finished' && decodedUnits(slow)[0]!.unitId === decodedUnits(table)[0]!.unitId, 'the next unit');
      assert.deepEqual(decodedUnits(slow), decodedUnits(table));
      await Promise.all([slow, steady, table].map(leaveQuietly));
    });

    it('gives a feed spectator whose socket is paused the wins it missed once it has caught up', async () => {
      const spectator = await anonymous(server).joinOrCreate('feed');
      const heard = record(spectator);
      await heard.next('recent');
      const feed = matchMaker.getLocalRoomById(spectator.roomId)!;
      const socket = (feed.clients.find((c) => c.sessionId === spectator.sessionId)!.ref as unknown as { _socket: Socket })._socket;
      socket.cork();
      const player = await devLogin(server, 'Winner');
      const table = await player.client.create('table', { game: 'mysteres-de-la-lampe' });
      await record(table).next('wallet');
      let wins = 0;
      for (let i = 0; i < 300 && wins < 3; i++) {
        await table.request('buy', { stake: 50, requestId: nextRequestId('lamp'), picks: [{ kind: 'colour', choice: 'gold' }] });
        await table.request('act', { action: { type: 'rub', progress: 100 } });
        await until(table, () => decodedUnits(table)[0]?.status === 'finished', 'the lamp to open');
        if (decodedUnits(table)[0]!.prize > 0) wins++;
        await sleep(5);
      }
      assert.equal(wins, 3);
      await server.services.feed.settled();
      await sleep(600); // two batches at least
      socket.uncork();
      const coalesced = (await server.metrics.spectatorFramesCoalesced.get()).values.find((v) => v.labels.room === 'feed')?.value ?? 0;
      assert.ok(coalesced >= 1, `feed frames coalesced: ${coalesced}`);
      await eventually(() => heard.messages.filter((m) => m.type === 'wins').flatMap((m) => (m.payload as { wins: unknown[] }).wins).length, (n) => n >= 3, 'the three wins');
      await Promise.all([spectator, table].map(leaveQuietly));
    });
  });

  describe('across three processes sharing one Redis', function () {
    let redis: RedisServer;
    let cluster: Cluster;
    let roomcaches: Redis;
    const rooms: Room[] = [];
    const logs: string[] = [];

    before(async function () {
      this.timeout(90_000);
      redis = await RedisServer.start();
      const ports = [await freePort(), await freePort(), await freePort()];
      cluster = await startCluster({ ports, env: envOn(redis, 'relay'), onLine: (i, line) => logs.push(`[p${i}] ${line}`) });
      roomcaches = new Redis(redis.url);
    });
    after(async function () {
      this.timeout(30_000);
      for (const room of rooms) await leaveQuietly(room);
      await cluster?.stop();
      roomcaches?.disconnect();
      await redis?.stop();
    });
    afterEach(function () {
      if (this.currentTest?.state === 'failed') console.log(logs.join('\n'));
    });

    const url = (i: number) => `http://127.0.0.1:${cluster.processes[i]!.port}`;
    async function hostOf(roomId: string): Promise<number> {
      const cache = await roomcaches.hget('roomcaches', roomId);
      assert.ok(cache, `room ${roomId} is listed`);
      const { publicAddress } = JSON.parse(cache) as { publicAddress: string };
      return cluster.processes.findIndex((p) => p.publicAddress === publicAddress);
    }

    it('relays every step, in order and equal to the player’s, to watchers on the other processes (never on the table’s); a dead relay ends only its own watchers’ view, a dead table all of them, told why', async () => {
      const login = (await (await fetch(`${url(0)}/auth/dev-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Relayed' }) })).json()) as { token: string };
      await setHarnessStakeLimit(url(0), login.token);
      const playerClient = new Client(url(0));
      playerClient.auth.token = login.token;
      const table = await playerClient.create('table', { game: '500000-carats' });
      rooms.push(table);
      await record(table).next('wallet');
      await table.request('watchers', { open: true });
      const host = await hostOf(table.roomId);

      const first = await new Client(url(host)).joinOrCreate('watch', { table: table.roomId });
      await sleep(1500); // the processes' room counts reach Redis about once a second
      const second = await new Client(url(host)).joinOrCreate('watch', { table: table.roomId });
      rooms.push(first, second);
      const relays = [await hostOf(first.roomId), await hostOf(second.roomId)];
      assert.ok(!relays.includes(host), `relays on ${relays.join(', ')}, none on the table's process ${host}`);
      assert.notEqual(relays[0], relays[1], 'the two relays on two processes');
      const orders = [follow(first, table), follow(second, table)];

      await playCarats(table, async () => {
        const steps = decodedUnits(table)[0]!.steps.length;
        await Promise.all([first, second].map((w) => until(w, () => decodedUnits(w)[0]?.steps.length === steps, 'the step on a relayed watcher')));
      });
      for (const watcher of [first, second]) assert.deepEqual(decodedUnits(watcher), decodedUnits(table));
      assert.deepEqual(orders.flatMap((o) => o.violations), [], 'every step, in order, equal to the player’s');

      // The first relay's process dies: its watcher's connection drops; the other one goes on.
      const firstGone = new Promise<number>((resolve) => first.onLeave((code) => resolve(code)));
      cluster.processes[relays[0]!]!.child.kill('SIGKILL');
      assert.notEqual(await firstGone, 4000, 'not a consented close: the connection dropped');
      await table.request('buy', { stake: 500, requestId: nextRequestId('after') });
      const unitId = decodedUnits(table)[0]!.unitId;
      await until(second, () => decodedUnits(second)[0]?.unitId === unitId, 'the next unit on the surviving relay');

      // The table's process dies: the surviving relay finds its stream gone and says so.
      const secondGone = new Promise<{ code: number; reason?: string }>((resolve) => second.onLeave((code, reason) => resolve({ code, reason })));
      cluster.processes[host]!.child.kill('SIGKILL');
      const ended = await secondGone;
      assert.deepEqual(ended, { code: 4000, reason: 'table/lost' });
    });
  });
  describe('the player first, across processes', function () {
    // The table on this test's own process, so that its writes to the player's socket can be
    // timed; its relays on two other processes sharing the Redis.
    let redis: RedisServer;
    let server: RunningServer;
    let cluster: Cluster | undefined;
    const rooms: Room[] = [];
    const logs: string[] = [];

    before(async function () {
      this.timeout(90_000);
      redis = await RedisServer.start();
      server = await startTestServer(envOn(redis, 'first'));
    });
    after(async function () {
      this.timeout(30_000);
      for (const room of rooms) await leaveQuietly(room);
      await cluster?.stop();
      await server?.stop();
      await redis?.stop();
    });
    afterEach(function () {
      if (this.currentTest?.state === 'failed') console.log(logs.join('\n'));
    });

    it('never shows a watcher on another process a step before the player’s frame holding it was written to the player’s socket; the check catches a table that publishes first', async () => {
      const player = await devLogin(server, 'First');
      // Created while this process is the only one: the table is here.
      const table = await player.client.create('table', { game: '500000-carats' });
      rooms.push(table);
      await record(table).next('wallet');
      await table.request('watchers', { open: true });
      const { written, socket: playerSocket } = stepsWrittenToPlayer(table.roomId);

      cluster = await startCluster({ ports: [await freePort(), await freePort()], env: envOn(redis, 'first'), onLine: (i, line) => logs.push(`[p${i}] ${line}`) });
      const url = (i: number) => `http://127.0.0.1:${cluster!.processes[i]!.port}`;
      const first = await new Client(url(0)).joinOrCreate('watch', { table: table.roomId });
      await sleep(1500); // the processes' room counts reach Redis about once a second
      const second = await new Client(url(0)).joinOrCreate('watch', { table: table.roomId });
      rooms.push(first, second);
      const watchers = [first, second];
      assert.equal(matchMaker.getLocalRoomById(first.roomId), undefined, 'no relay on the table’s process');
      assert.notEqual(first.roomId, second.roomId, 'two relays');
      const shown = watchers.map(stepsShown);

      await playCarats(table, async () => {
        const steps = decodedUnits(table)[0]!.steps.length;
        await Promise.all(watchers.map((w) => until(w, () => decodedUnits(w)[0]?.steps.length === steps, 'the step on a relayed watcher')));
      });
      assert.ok(shown.every((steps) => steps.size >= 20), `steps shown: ${shown.map((steps) => steps.size).join(', ')}`);
      assert.deepEqual(shown.map((steps) => shownBeforePlayer(written, steps)), [[], []], 'no step shown to a watcher before the player’s frame was written');

      // The negative control: the player's frames held back in their socket (corked here) while
      // the table, believing them written, publishes. The watchers get the step first, and the
      // check says so.
      await table.request('buy', { stake: 500, requestId: nextRequestId('control') });
      const unitId = decodedUnits(table)[0]!.unitId;
      await Promise.all(watchers.map((w) => until(w, () => decodedUnits(w)[0]?.unitId === unitId, 'the next unit on a relayed watcher')));
      playerSocket.cork();
      const reply = table.request('act', { action: { type: 'reveal_winning' } });
      await Promise.all(watchers.map((w) => until(w, () => decodedUnits(w)[0]!.steps.length === 2, 'the step published ahead of the player')));
      assert.equal(decodedUnits(table)[0]!.steps.length, 1, 'the player’s client has not got it');
      playerSocket.uncork();
      await reply;
      await until(table, () => decodedUnits(table)[0]!.steps.length === 2, 'the step on the player’s table');
      assert.deepEqual(shown.map((steps) => shownBeforePlayer(written, steps)), [[`${unitId}#1`], [`${unitId}#1`]]);
    });
  });
});
