import { strict as assert } from 'node:assert';
import { Client, type Room } from '@colyseus/sdk';
import { Redis, type Cluster as RedisClusterClient } from 'ioredis';
import { RedisStore } from '../../src/dealer/redis/store';
import { maskPseudonym } from '../../src/feed/win-feed';
import type { Win } from '../../src/protocol/feed';
import { startCluster, type Cluster } from '../../scripts/start-cluster';
import { decodedUnits, record, until, type Recorder } from '../support/game-server';
import { RedisServer } from '../../tools/redis-server';
import { RedisCluster } from '../../tools/redis-cluster';
import { eventually, leaveQuietly, playLampUnit, reasonOf, sleep, winsReceived } from '../rooms/helpers';
import { freePort } from '../../tools/redis-server';
import { setHarnessStakeLimit } from '../../tools/stake-limit';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';

const ENV = {
  JWT_SECRET: 'cluster-secret-of-at-least-thirty-two-chars',
  CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey(),
  DEV_LOGIN: 'true',
  DEV_LOGIN_PER_MINUTE: '100000',
  DEMO_BALANCE_CENTS: '5000',
  EMISSION_BLOCKS: '2',
  REDIS_PREFIX: 'cluster',
  MAX_MESSAGES_PER_SECOND: '1000',
  // Purchases back to back (the pace has its own test: test/server/pacing.test.ts).
  PACE_UNIT_MS: '0',
};


interface Player { token: string; playerId: string; client: InstanceType<typeof Client> }

/** Where the processes keep their state: its environment, a client to look at it, and its end. */
interface SharedRedis {
  readonly env: Record<string, string>;
  readonly client: Redis | RedisClusterClient;
  stop(): Promise<void>;
}

threeProcesses('one Redis', async () => {
  const redis = await RedisServer.start();
  const client = new Redis(redis.url);
  return { env: { REDIS_URL: redis.url }, client, stop: async () => (client.disconnect(), redis.stop()) };
});

// The same on a Redis Cluster: the per-slot protocol, presence and driver on the cluster.
threeProcesses('a Redis Cluster (3 masters, 3 replicas)', async () => {
  const redis = await RedisCluster.start();
  const client = redis.client();
  return { env: { REDIS_CLUSTER_NODES: redis.nodes }, client, stop: async () => (client.disconnect(), redis.stop()) };
});

function threeProcesses(name: string, startRedis: () => Promise<SharedRedis>): void {
  describe(`three server processes sharing ${name}`, function () {
    this.timeout(60_000);
    let redis: SharedRedis;
    let cluster: Cluster;
    let roomcaches: Redis | RedisClusterClient;
    const logs: string[] = [];
    const rooms: Room[] = [];

    before(async function () {
      this.timeout(90_000);
      redis = await startRedis();
      const ports = [await freePort(), await freePort(), await freePort()];
      cluster = await startCluster({ ports, env: { ...ENV, ...redis.env }, onLine: (i, line) => logs.push(`[p${i}] ${line}`) });
      roomcaches = redis.client;
    });
    after(async function () {
      this.timeout(30_000);
      for (const room of rooms) await leaveQuietly(room);
      await cluster?.stop();
      await redis?.stop();
    });
    afterEach(function () {
      if (this.currentTest?.state === 'failed') console.log(logs.join('\n'));
    });

    const url = (i: number) => `http://127.0.0.1:${cluster.processes[i]!.port}`;
    const client = (i: number) => new Client(url(i));

    /** Which process holds a room, from the matchmaker's listing in Redis (RedisDriver). */
    async function hostOf(roomId: string): Promise<number> {
      const cache = await roomcaches.hget('roomcaches', roomId);
      assert.ok(cache, `room ${roomId} is listed`);
      const { publicAddress } = JSON.parse(cache) as { publicAddress: string };
      const index = cluster.processes.findIndex((p) => p.publicAddress === publicAddress);
      assert.ok(index >= 0, `room ${roomId} is on a known process (${publicAddress})`);
      return index;
    }

    async function login(through: number, name: string): Promise<Player> {
      const res = await fetch(`${url(through)}/auth/dev-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { token: string; playerId: string };
      await setHarnessStakeLimit(url(through), body.token);
      const c = client(through);
      c.auth.token = body.token;
      return { ...body, client: c };
    }

    async function openLamp(player: Player): Promise<{ room: Room; rec: Recorder }> {
      const room = await player.client.create('table', { game: 'mysteres-de-la-lampe' });
      rooms.push(room);
      const rec = record(room);
      await rec.next('wallet');
      return { room, rec };
    }

    it('sends wins played on every process to one feed spectator, and a late joiner anywhere gets them', async () => {
      const spectator = await client(0).joinOrCreate('feed');
      rooms.push(spectator);
      const feed = record(spectator);
      await feed.next('recent');
      const feedHost = await hostOf(spectator.roomId);

      // A table on each process: matchmaking creates a room on the process with the fewest rooms
      // (counts shared through Redis, refreshed about once a second), so open tables, asking each
      // process in turn and keeping them all, until every process holds one.
      const tables = new Map<number, { player: Player; room: Room; name: string }>();
      for (let attempt = 0; attempt < 30 && tables.size < 3; attempt++) {
        const through = attempt % 3;
        // The feed shows a pseudonym's first three characters: each player's differ.
        const name = `P${String(attempt).padStart(2, '0')} player`;
        const player = await login(through, name);
        const { room } = await openLamp(player);
        const host = await hostOf(room.roomId);
        if (!tables.has(host)) tables.set(host, { player, room, name });
        else await sleep(300);
      }
      assert.equal(tables.size, 3, 'a table on each of the three processes');

      const expected: { name: string; amount: number; host: number }[] = [];
      for (const [host, { room, name }] of tables) {
        for (let i = 0; i < 40; i++) {
          const { prize } = await playLampUnit(room);
          if (prize > 0) {
            expected.push({ name, amount: prize, host });
            break;
          }
        }
      }
      assert.equal(expected.length, 3, 'a win on each process');
      const wins = await eventually(
        () => winsReceived(feed),
        (list) => expected.every((e) => list.some((w) => w.pseudonym === maskPseudonym(e.name) && w.amount === e.amount)),
        'the three wins at the spectator',
      );
      assert.ok(expected.some((e) => e.host !== feedHost), 'wins came from processes other than the feed’s');
      assert.deepEqual(new Set(wins.map((w) => w.pseudonym)), new Set(expected.map((e) => maskPseudonym(e.name))));

      // A late joiner asking another process lands in a feed room (wherever it is) with the recent wins.
      const late = await client(2).joinOrCreate('feed');
      rooms.push(late);
      const recent = (await record(late).next('recent')) as { wins: Win[] };
      assert.deepEqual(recent.wins.slice(-wins.length), wins);

      // Dealing stayed exact: the lamp units bought through three processes are, in each block
      // they came from (one, or one per lane on a cluster), its positions 0..n-1, each once; every
      // wallet adds up.
      const units: string[] = [];
      for (const { player, room } of tables.values()) {
        const { units: history } = (await room.request('history', { limit: 100 })) as { units: { unitId: string; stake: number; prize: number | null }[] };
        units.push(...history.map((h) => h.unitId));
        const spent = history.reduce((sum, h) => sum + h.stake, 0);
        const won = history.reduce((sum, h) => sum + (h.prize ?? 0), 0);
        assert.deepEqual(await room.request('wallet'), { balance: 5000 - spent + won, held: 0 }, `${player.playerId}'s wallet adds up`);
      }
      assert.equal(new Set(units).size, units.length, 'no unit dealt twice');
      const byBlock = new Map<string, number[]>();
      for (const u of units) {
        const blockId = u.slice(0, u.lastIndexOf(':'));
        byBlock.set(blockId, [...(byBlock.get(blockId) ?? []), Number(u.slice(u.lastIndexOf(':') + 1))]);
      }
      for (const [blockId, dealt] of byBlock) {
        const positions = dealt.sort((a, b) => a - b);
        assert.deepEqual(positions, positions.map((_, i) => i), `the positions dealt in ${blockId} are exactly 0..n-1`);
      }
    });

    it('lets a spectator asking one process watch a table that another process holds, step for step', async () => {
      const player = await login(0, 'Host');
      const { room } = await openLamp(player);
      const host = await hostOf(room.roomId);
      const other = (host + 1) % 3;
      assert.deepEqual(await room.request('watchers', { open: true }), { roomId: room.roomId, open: true });
      const listed = await eventually(
        async () => (await (await fetch(`${url((host + 2) % 3)}/tables`)).json()) as { roomId: string; game: string; pseudonym: string; watchers: number }[],
        (list) => list.some((t) => t.roomId === room.roomId),
        'the table in /tables of a third process',
      );
      assert.deepEqual(listed.find((t) => t.roomId === room.roomId), { roomId: room.roomId, game: 'mysteres-de-la-lampe', pseudonym: maskPseudonym('Host'), watchers: 0 });

      const spectator = await client(other).joinOrCreate('watch', { table: room.roomId });
      rooms.push(spectator);
      const seen = record(spectator);
      await until(spectator, () => (spectator.state as { game: string }).game === 'mysteres-de-la-lampe', 'the table state');
      const { prize } = await playLampUnit(room);
      await until(spectator, () => decodedUnits(spectator)[0]?.status === 'finished', 'the spectator to see the lamp open');
      assert.deepEqual(decodedUnits(spectator), decodedUnits(room));
      assert.equal(decodedUnits(spectator)[0]!.prize, prize);
      assert.deepEqual(seen.messages, [], 'no private message reached the spectator');
      await assert.rejects(spectator.request('act', { action: { type: 'auto' } }), (err: unknown) => /spectator\/read_only/.test(reasonOf(err)));
    });
  });
}

describe('a seated player’s unit finished by a sweeper of another process', function () {
  this.timeout(90_000);
  let redis: RedisServer;
  let cluster: Cluster;
  let store: Redis;
  const rooms: Room[] = [];

  before(async function () {
    this.timeout(60_000);
    redis = await RedisServer.start();
    const ports = [await freePort(), await freePort()];
    cluster = await startCluster({ ports, env: { ...ENV, REDIS_URL: redis.url, ABANDON_AFTER_SECONDS: '2', SWEEP_EVERY_SECONDS: '1' }, onLine: () => undefined });
    store = new Redis(redis.url);
  });
  after(async function () {
    this.timeout(30_000);
    for (const room of rooms) await leaveQuietly(room);
    await cluster?.stop();
    store?.disconnect();
    await redis?.stop();
  });

  it('reaches the player’s table first, then the feed spectator of the other process', async () => {
    const url = (i: number) => `http://127.0.0.1:${cluster.processes[i]!.port}`;
    const login = await (await fetch(`${url(0)}/auth/dev-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Away' }) })).json() as { token: string };
    await setHarnessStakeLimit(url(0), login.token);
    const player = new Client(url(0));
    player.auth.token = login.token;
    const table = await player.create('table', { game: 'mysteres-de-la-lampe' });
    rooms.push(table);
    await record(table).next('wallet');
    const feedRoom = await new Client(url(1)).joinOrCreate('feed');
    rooms.push(feedRoom);
    await record(feedRoom).next('recent');
    const dealer = new RedisStore(store, { prefix: ENV.REDIS_PREFIX });
    let unitId = '';
    for (let i = 0; i < 200 && !unitId; i++) {
      const { unitIds } = (await table.request('buy', { stake: 50, requestId: `away_${i}`, picks: [{ kind: 'colour', choice: 'gold' }] })) as { unitIds: string[] };
      if ((await dealer.sales.getSale(unitIds[0]!))!.prize > 0) unitId = unitIds[0]!;
      else await table.request('act', { action: { type: 'rub', progress: 100 } });
    }
    assert.ok(unitId, 'a winning lamp unit');
    let order = 0;
    let playerSaw: number | undefined;
    let feedGot: number | undefined;
    table.onStateChange(() => {
      if (playerSaw === undefined && decodedUnits(table)[0]?.status === 'finished') playerSaw = ++order;
    });
    feedRoom.onMessage('wins', (message: { wins: Win[] }) => {
      if (feedGot === undefined && message.wins.some((w) => w.pseudonym === maskPseudonym('Away'))) feedGot = ++order;
    });
    // Left alone, the unit is finished by whichever process sweeps first, through its table.
    await eventually(() => feedGot, (at) => at !== undefined, 'the win on the other process’s feed', 15_000);
    assert.ok(playerSaw !== undefined && playerSaw < feedGot!, 'the player’s table showed the end first');
    assert.equal(decodedUnits(table)[0]!.steps.at(-1)!.by, 'server');
  });
});
