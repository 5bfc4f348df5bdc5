import { strict as assert } from 'node:assert';
import { Client, Protocol, type Room } from '@colyseus/sdk';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { BEARER_SUBPROTOCOL, TABLE_SUBPROTOCOL } from '../../src/protocol/table';
import type { Wallet } from '../../src/protocol/wallet';
import type { RunningServer } from '../../src/server/app';
import { decodedUnits, devLogin, record, startTestServer, until, type TestPlayer } from '../support/game-server';
import { reasonOf } from '../rooms/helpers';

const SECRET = 'seat-ownership-secret-of-thirty-two-chars';
let requestCounter = 0;

/** A client of `player`: the token travels in the Authorization header only, never in a URL. */
function clientOf(server: RunningServer, token: string | undefined): InstanceType<typeof Client> {
  return new Client(`http://127.0.0.1:${server.port}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
}

/** The player's table of 500 000 CARATS, the SDK's own reconnection off (this server takes no reconnection token). */
async function openTable(client: InstanceType<typeof Client>, roomId?: string): Promise<{ room: Room; wallet: Wallet; rec: ReturnType<typeof record> }> {
  const room = roomId ? await client.joinById(roomId) : await client.create('table', { game: '500000-carats' });
  room.reconnection.enabled = false;
  const rec = record(room);
  return { room, rec, wallet: (await rec.next('wallet')) as Wallet };
}

function buy(room: Room): Promise<{ unitIds: string[]; wallet: Wallet }> {
  return room.request('buy', { stake: 500, requestId: `seat_${++requestCounter}` }) as Promise<{ unitIds: string[]; wallet: Wallet }>;
}

/** Cuts the player's socket as a network failure would (not a consented leave); resolves once the SDK saw it. */
async function dropConnection(room: Room): Promise<void> {
  const left = new Promise<void>((resolve) => room.onLeave(() => resolve()));
  (room.connection as unknown as { transport: { ws: { close(code: number): void } } }).transport.ws.close(4010);
  await left;
}

/** A token of `playerId` signed with the server's secret, expiring `seconds` from now. */
function tokenOf(playerId: string, seconds: number): Promise<string> {
  return new SignJWT({ name: 'Alice' }).setProtectedHeader({ alg: 'HS256' }).setSubject(playerId).setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds).sign(new TextEncoder().encode(SECRET));
}

/** Everything a raw WebSocket to `url` got: its upgrade's answer status, or the frames it received. */
function rawSocket(url: string): Promise<{ status?: number; body?: string; frames: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    let frames = 0;
    ws.on('message', () => frames++);
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode, body, frames }));
    });
    ws.on('open', () => setTimeout(() => ws.close(), 500));
    ws.on('close', () => resolve({ frames }));
    ws.on('error', () => undefined);
  });
}

/** What a socket taking a seat got: whether it joined, the text of its first frame, the subprotocol answered. */
function takeSeat(url: string, options: { protocols?: string[]; token?: string } = {}): Promise<{ joined: boolean; said: string; protocol: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options.protocols ?? [], options.token ? { headers: { authorization: `Bearer ${options.token}` } } : {});
    ws.once('message', (data: Buffer) => {
      resolve({ joined: data[0] === Protocol.JOIN_ROOM, said: data.toString('latin1'), protocol: ws.protocol });
      ws.close();
    });
    ws.on('error', () => undefined);
  });
}

describe('seat ownership at a table', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let alice: TestPlayer;

  before(async () => {
    server = await startTestServer({ JWT_SECRET: SECRET });
  });
  beforeEach(async () => {
    alice = await devLogin(server, 'Alice');
  });
  after(async () => {
    await server.stop();
  });

  it('gives a dropped player their seat back when they join the table again by id with their token, and the reveal goes on', async () => {
    const { room } = await openTable(clientOf(server, alice.token));
    await buy(room);
    await room.request('act', { action: { type: 'reveal_winning' } });
    await until(room, () => decodedUnits(room)[0]!.steps.length === 2, 'the winning numbers');
    await dropConnection(room);

    const { room: back } = await openTable(clientOf(server, alice.token), room.roomId);
    assert.equal(back.roomId, room.roomId, 'the same table');
    await until(back, () => decodedUnits(back)[0]?.steps.length === 2, 'the unit where it stood');
    await back.request('act', { action: { type: 'auto' } });
    await until(back, () => decodedUnits(back)[0]!.status === 'finished', 'the unit to finish');
    await back.leave();
  });

  it('refuses a stolen reconnection token, at matchmaking and on the WebSocket, and its holder gets no balance', async () => {
    const { room } = await openTable(clientOf(server, alice.token));
    const [roomId, token] = room.reconnectionToken.split(':');
    const sessionId = room.sessionId;
    await dropConnection(room);

    await assert.rejects(clientOf(server, undefined).reconnect(room.reconnectionToken), (err: unknown) => (err as { code?: unknown }).code === 403);
    const matchmaking = await fetch(`http://127.0.0.1:${server.port}/matchmake/reconnect/${roomId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reconnectionToken: token }),
    });
    assert.equal(matchmaking.status, 403);
    assert.equal(((await matchmaking.json()) as { error: { code: string } }).error.code, 'auth/reconnection_token');
    const stolen = await rawSocket(`ws://127.0.0.1:${server.port}/any/${roomId}?sessionId=${sessionId}&reconnectionToken=${token}`);
    assert.equal(stolen.status, 403);
    assert.match(stolen.body!, /auth\/reconnection_token/);
    assert.equal(stolen.frames, 0, 'nothing of the table, its balance least of all');

    const { room: back } = await openTable(clientOf(server, alice.token), roomId);
    await back.leave();
  });

  it('lets a second connection of the player take the seat only with a valid token of that player, closing the first', async () => {
    const { room: first } = await openTable(clientOf(server, alice.token));
    const bob = await devLogin(server, 'Bob');
    await assert.rejects(clientOf(server, undefined).joinById(first.roomId), (err: unknown) => /auth\/missing/.test(reasonOf(err)));
    await assert.rejects(clientOf(server, 'not.a.jwt').joinById(first.roomId), (err: unknown) => /auth\/(malformed|invalid)/.test(reasonOf(err)));
    await assert.rejects(clientOf(server, bob.token).joinById(first.roomId), (err: unknown) => /table\/not_yours/.test(reasonOf(err)));
    assert.equal(first.connection.isOpen, true, 'refused joins leave the player seated');

    const replaced = new Promise<string | undefined>((resolve) => first.onLeave((_code, reason) => resolve(reason)));
    const { room: second } = await openTable(clientOf(server, alice.token), first.roomId);
    assert.match((await replaced) ?? '', /^table\/replaced/);
    const { wallet } = await buy(second);
    assert.equal(wallet.balance, 10_000 - 500, 'the seat plays on the new connection');
    await second.leave();
  });

  /** `token`'s player asks matchmaking for a seat at table `roomId`, and never connects to it (a reservation holds a seat a while). */
  const reserveSeat = (token: string, roomId: string) =>
    fetch(`http://127.0.0.1:${server.port}/matchmake/joinById/${roomId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{}',
    });

  it('refuses another player a reservation of the table’s seat at matchmaking, so that none can keep its player out', async () => {
    const { room } = await openTable(clientOf(server, alice.token));
    const bob = await devLogin(server, 'Bob');
    const reserve = (roomId: string) => reserveSeat(bob.token, roomId);
    const refused = await reserve(room.roomId);
    assert.equal(refused.status, 403);
    assert.deepEqual(((await refused.json()) as { error: unknown }).error, { code: 'table/not_yours', message: 'this table belongs to another player' });
    const encoded = `%${room.roomId.charCodeAt(0).toString(16)}${room.roomId.slice(1)}`;
    assert.equal((await reserve(encoded)).status, 404, 'its id percent-encoded names no table');

    await dropConnection(room);
    assert.equal((await reserve(room.roomId)).status, 403, 'nor while Alice’s seat waits for her');
    const { room: back } = await openTable(clientOf(server, alice.token), room.roomId);
    assert.equal(back.roomId, room.roomId, 'Alice is back at her table');
    await back.leave();
  });

  it('refuses the reservation to a stranger seated at a table of the same game of his own: only the table’s player may reserve its seat', async () => {
    const { room } = await openTable(clientOf(server, alice.token));
    const bob = await devLogin(server, 'Bob');
    const { room: bobsTable } = await openTable(clientOf(server, bob.token));
    const refused = await reserveSeat(bob.token, room.roomId);
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'table/not_yours');
    assert.equal((await reserveSeat(alice.token, room.roomId)).status, 200, 'Alice may reserve her own table’s second seat');
    await bobsTable.leave();
    await room.leave();
  });

  describe('a reserved seat', () => {
    /** A seat `token`'s player reserved at matchmaking for a new table, and the URL of the socket that takes it. */
    async function reserved(token: string): Promise<string> {
      const res = await fetch(`http://127.0.0.1:${server.port}/matchmake/create/table`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ game: '500000-carats' }),
      });
      const seat = (await res.json()) as { roomId: string; sessionId: string; processId: string };
      return `ws://127.0.0.1:${server.port}/${seat.processId}/${seat.roomId}?sessionId=${seat.sessionId}`;
    }

    it('is refused to a socket that carries no token, or another player’s: whoever holds the reservation does not play with the player’s wallet', async () => {
      const bob = await devLogin(server, 'Bob');
      const none = await takeSeat(await reserved(alice.token));
      assert.deepEqual([none.joined, /auth\/missing/.test(none.said)], [false, true], none.said);
      const stranger = await takeSeat(await reserved(alice.token), { token: bob.token });
      assert.deepEqual([stranger.joined, /table\/not_yours.*this seat was reserved for another player/.test(stranger.said)], [false, true], stranger.said);
      const inProtocol = await takeSeat(await reserved(alice.token), { protocols: [TABLE_SUBPROTOCOL, `${BEARER_SUBPROTOCOL}${bob.token}`] });
      assert.deepEqual([inProtocol.joined, /table\/not_yours/.test(inProtocol.said)], [false, true], inProtocol.said);
      const forged = await takeSeat(await reserved(alice.token), { token: 'not.a.jwt' });
      assert.equal(forged.joined, false);
    });

    it('is taken by the same player’s socket, with the token in the Authorization header or in the bearer subprotocol (what a page sends), never echoed', async () => {
      assert.equal((await takeSeat(await reserved(alice.token), { token: alice.token })).joined, true);
      const page = await takeSeat(await reserved(alice.token), { protocols: [TABLE_SUBPROTOCOL, `${BEARER_SUBPROTOCOL}${alice.token}`] });
      assert.equal(page.joined, true, page.said);
      assert.equal(page.protocol, TABLE_SUBPROTOCOL, 'the server answers the table subprotocol, not the one with the token');
    });
  });

  it('ends play when the player’s token expires: the connection is closed auth/expired, and a fresh token takes the seat back', async () => {
    const client = clientOf(server, await tokenOf(alice.playerId, 3));
    const { room } = await openTable(client);
    const closed = new Promise<{ code: number; reason?: string }>((resolve) => room.onLeave((code, reason) => resolve({ code, reason })));
    const { code, reason } = await closed;
    assert.equal(code, 4401);
    assert.match(reason ?? '', /^auth\/expired/);
    await assert.rejects(client.joinById(room.roomId), (err: unknown) => /auth\/expired/.test(reasonOf(err)), 'the expired token opens nothing');

    const { room: back, wallet } = await openTable(clientOf(server, await tokenOf(alice.playerId, 3600)), room.roomId);
    assert.equal(wallet.balance, 10_000);
    assert.equal((await buy(back)).wallet.balance, 10_000 - 500);
    await back.leave();
  });

  it('shows the player the finished unit when the connection was lost right after the final action', async () => {
    const { room } = await openTable(clientOf(server, alice.token));
    const { unitIds } = await buy(room);
    await room.request('act', { action: { type: 'reveal_winning' } });
    const final = room.request('act', { action: { type: 'auto' } }).catch(() => undefined);
    await dropConnection(room);
    await final;

    const { room: back, rec } = await openTable(clientOf(server, alice.token), room.roomId);
    await until(back, () => decodedUnits(back)[0]?.status === 'finished', 'the finished unit on the player’s screen');
    const [unit] = decodedUnits(back);
    assert.equal(unit!.unitId, unitIds[0]);
    const wallet = rec.messages.filter((m) => m.type === 'wallet').at(-1)!.payload as Wallet;
    assert.equal(wallet.balance, 10_000 - 500 + unit!.prize, 'its prize in the balance shown');
    await back.leave();
  });
});
