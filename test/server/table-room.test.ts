import { strict as assert } from 'node:assert';
import type { Room } from '@colyseus/sdk';
import { SignJWT } from 'jose';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import { rulesOf } from '../../src/games/registry';
import type { GameId } from '../../src/games/types';
import type { ProtectionState } from '../../src/protocol/protection';
import type { Wallet } from '../../src/protocol/wallet';
import type { RunningServer } from '../../src/server/app';
import { decodedUnits, devLogin, record, startTestServer, until, type TestPlayer } from '../support/game-server';
import { HARNESS_STAKE_LIMIT_WEEK_CENTS } from '../../tools/stake-limit';

const SECRET = 'test-secret-of-at-least-thirty-two-characters';
const DEMO = 2_000;
const OPERATOR = 'operator-token-for-tests';

/** Demo players that take the first option of every choice: the same play each run. */
const first = (): number => 0;

let server: RunningServer;
let poorCounter = 0;

/** A player with exactly `balance` cents and a token signed with the server's secret. */
async function playerWith(balance: number): Promise<TestPlayer> {
  const playerId = `poor-${++poorCounter}`;
  await server.services.dealer.wallets.deposit(playerId, balance, `test-${playerId}`, Date.now());
  await server.services.protection.setLimits(playerId, { stake_week: HARNESS_STAKE_LIMIT_WEEK_CENTS });
  const token = await new SignJWT({ name: 'Poor' }).setProtectedHeader({ alg: 'HS256' }).setSubject(playerId).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  const { client } = await devLogin(server);
  client.auth.token = token;
  return { token, playerId, client };
}
let requestCounter = 0;
const nextRequestId = () => `req_${++requestCounter}`;

async function openTable(player: TestPlayer, game: GameId) {
  const room = await player.client.create('table', { game });
  const rec = record(room);
  const wallet = (await rec.next('wallet')) as Wallet;
  return { room, rec, wallet };
}

async function buy(room: Room, game: GameId, stake: number, requestId = nextRequestId()) {
  return (await room.request('buy', { stake, requestId, picks: rulesOf(game).demoPicks(first, 1) })) as { unitIds: string[]; wallet: Wallet };
}

/** A new player's lamp table with both units bought (colour and symbol), 0.50 € each. */
async function buyBothLampUnits() {
  const { room } = await openTable(await devLogin(server), 'mysteres-de-la-lampe');
  const { unitIds } = (await room.request('buy', {
    stake: 50,
    requestId: nextRequestId(),
    picks: [{ kind: 'colour', choice: 'red' }, { kind: 'symbol', choice: 'moon' }],
  })) as { unitIds: string[] };
  return { room, unitIds };
}

function allEvents(room: Room): { type: string }[] {
  return decodedUnits(room).flatMap((u) => u.steps.flatMap((s) => s.events));
}

/**
 * Plays the current unit to its end with `actions`, checking after each step that nothing shows
 * early; returns the unit and the wallet that came with the step that ended it.
 */
async function playThrough(room: Room, actions: unknown[], stake: number) {
  let ended: Wallet | undefined;
  for (const action of actions) {
    const [unit] = decodedUnits(room);
    if (unit!.status === 'finished') break;
    const before = unit!.steps.length;
    const reply = (await room.request('act', { action })) as { unitIds: string[]; wallet?: Wallet };
    await until(room, () => decodedUnits(room)[0]!.steps.length > before, 'the step to reach the client');
    const after = decodedUnits(room)[0]!;
    if (after.status !== 'finished') {
      assert.equal(allEvents(room).filter((e) => e.type === 'finished').length, 0, 'no result before the reveal ends');
      assert.equal(after.prize, 0, 'no prize in the state before the reveal ends');
      assert.equal(reply.wallet, undefined, 'no wallet in the reply before the reveal ends');
      // Once: a request per step would exceed the flood limit on the longest reveals.
      if (before === 1) assert.equal(((await room.request('wallet')) as Wallet).held, stake, 'the stake is held, the prize not shown');
    } else {
      ended = reply.wallet;
    }
  }
  await until(room, () => decodedUnits(room)[0]!.status === 'finished', 'the unit to finish');
  return { unit: decodedUnits(room)[0]!, ended };
}

describe('table room (embedded default)', function () {
  this.timeout(30_000);

  before(async () => {
    server = await startTestServer({ DEMO_BALANCE_CENTS: String(DEMO), JWT_SECRET: SECRET, OPERATOR_TOKEN: OPERATOR });
  });
  after(async () => {
    await server.stop();
  });

  it("gives the game's catalog entry with the state on joining, as GET /games has it", async () => {
    const player = await devLogin(server);
    const { room } = await openTable(player, 'mysteres-de-la-lampe');
    const catalog = (await (await fetch(`http://127.0.0.1:${server.port}/games`)).json()) as { id: string }[];
    const state = room.state as { catalog: string };
    assert.deepEqual(JSON.parse(state.catalog), catalog.find((g) => g.id === 'mysteres-de-la-lampe'));
    await room.leave();
  });

  for (const table of PRIZE_TABLES) {
    for (const mode of ['step by step', 'with AUTO'] as const) {
      it(`plays ${table.game} at ${table.stake} cents ${mode}, crediting the prize when the reveal ends`, async () => {
        const player = await devLogin(server);
        const { room, wallet } = await openTable(player, table.game);
        assert.deepEqual(wallet, { balance: DEMO, held: 0 });
        const { unitIds, wallet: afterBuy } = await buy(room, table.game, table.stake);
        assert.equal(unitIds.length, 1);
        await until(room, () => decodedUnits(room).length === 1, 'the unit on the table');
        const bought = decodedUnits(room)[0]!;
        // A Mine d'or grid without EXTRA ends its reveal at purchase: its prize is credited at once.
        const endedAtPurchase = bought.status === 'finished';
        assert.deepEqual(afterBuy, endedAtPurchase
          ? { balance: DEMO - table.stake + bought.prize, held: 0 }
          : { balance: DEMO - table.stake, held: table.stake });
        const actions = rulesOf(table.game).demoScript(first, { auto: mode === 'with AUTO' });
        const { unit, ended } = await playThrough(room, actions, table.stake);
        const events = unit.steps.flatMap((s) => s.events);
        const finished = events.filter((e) => e.type === 'finished') as unknown as { prize: number }[];
        assert.equal(finished.length, 1, 'one result');
        assert.equal(events[events.length - 1]!.type, 'finished', 'the result comes last');
        assert.equal(finished[0]!.prize, unit.prize);
        const settled = { balance: DEMO - table.stake + unit.prize, held: 0 };
        assert.deepEqual(ended ?? afterBuy, settled, 'the reply to the step that ended the reveal carries the credited wallet');
        assert.deepEqual(await room.request('wallet'), settled);

        const recall = (await room.request('recall', { unitId: unitIds[0] })) as { steps: { seq: number; by: string; events: unknown[] }[]; prize: number; status: string; stake: number; game: string };
        assert.equal(recall.status, 'finished');
        assert.equal(recall.prize, unit.prize);
        assert.equal(recall.game, table.game);
        assert.deepEqual(recall.steps.map((s) => ({ seq: s.seq, by: s.by, events: s.events })), unit.steps, 'recall is what was played');
        await room.leave();
      });
    }
  }

  it('never sends the lamp result before the lamp opens', async () => {
    const player = await devLogin(server);
    const { room, rec } = await openTable(player, 'mysteres-de-la-lampe');
    await buy(room, 'mysteres-de-la-lampe', 50);
    await room.request('act', { action: { type: 'rub', progress: 99 } });
    await until(room, () => decodedUnits(room)[0]!.steps.length === 2, 'the rub');
    const seen = JSON.stringify({ state: decodedUnits(room), messages: rec.messages });
    assert.ok(!seen.includes('lamp_opened') && !seen.includes('"result"'), 'nothing of the result reached the client');
    await room.request('act', { action: { type: 'rub', progress: 100 } });
    await until(room, () => JSON.stringify(decodedUnits(room)).includes('lamp_opened'), 'the lamp to open');
    await room.leave();
  });

  it('plays both lamp units with one rub, each winning or losing on its own', async () => {
    const { room, unitIds } = await buyBothLampUnits();
    assert.equal(unitIds.length, 2);
    assert.deepEqual(await room.request('wallet'), { balance: DEMO - 100, held: 100 });
    await room.request('act', { action: { type: 'auto' } });
    await until(room, () => decodedUnits(room).every((u) => u.status === 'finished'), 'both units to finish');
    const won = decodedUnits(room).reduce((sum, u) => sum + u.prize, 0);
    assert.deepEqual(await room.request('wallet'), { balance: DEMO - 100 + won, held: 0 });
    await room.leave();
  });

  it('delivers each of the patches one action makes intact, in order (both lamp units rubbed)', async () => {
    const { room, unitIds } = await buyBothLampUnits();
    for (const [i, progress] of [25, 50, 75, 100].entries()) {
      await room.request('act', { action: { type: 'rub', progress } });
      await until(room, () => decodedUnits(room).every((u) => u.steps.length >= i + 2), `rub ${progress} on both units`);
    }
    for (const [k, unitId] of unitIds.entries()) {
      const recall = (await room.request('recall', { unitId })) as { steps: { seq: number; by: string; events: unknown[] }[] };
      assert.deepEqual(decodedUnits(room)[k]!.steps, recall.steps.map(({ seq, by, events }) => ({ seq, by, events })), `unit ${k + 1} as played`);
    }
    await room.leave();
  });

  it('charges a retried purchase once and returns the same unit', async () => {
    const player = await devLogin(server);
    const { room } = await openTable(player, 'rain-diamonds');
    const first = await buy(room, 'rain-diamonds', 50, 'same_request');
    const again = await buy(room, 'rain-diamonds', 50, 'same_request');
    assert.deepEqual(again.unitIds, first.unitIds);
    assert.deepEqual(await room.request('wallet'), { balance: DEMO - 50, held: 50 });
    await room.leave();
  });

  it('puts a returning player back where the reveal stopped and makes them finish it first', async () => {
    const player = await devLogin(server);
    const first = await openTable(player, '500000-carats');
    const { unitIds } = await buy(first.room, '500000-carats', 500);
    await first.room.request('act', { action: { type: 'reveal_winning' } });
    await first.room.request('act', { action: { type: 'reveal', index: 5 } });
    await until(first.room, () => decodedUnits(first.room)[0]!.steps.length === 3, 'two steps');
    const before = decodedUnits(first.room);
    await first.room.leave();

    const second = await openTable(player, '500000-carats');
    const resumed = (await second.rec.next('resumed')) as { unitIds: string[] };
    assert.deepEqual(resumed.unitIds, unitIds);
    await until(second.room, () => decodedUnits(second.room).length === 1, 'the resumed unit');
    assert.deepEqual(decodedUnits(second.room), before, 'exactly where it stopped');
    await assert.rejects(buy(second.room, '500000-carats', 500), (err: Error) => /purchase\/unfinished_unit/.test(JSON.stringify(err)) || /unfinished/.test(err.message));
    await assert.rejects(second.room.request('act', { action: { type: 'reveal', index: 5 } }), (err: Error) => /already/.test(JSON.stringify(err) + err.message));
    await second.room.request('act', { action: { type: 'auto' } });
    await until(second.room, () => decodedUnits(second.room)[0]!.status === 'finished', 'the unit to finish');
    await second.room.leave();
  });

  it('lets a player blocked with a unit in play sign in, see the block, join and finish the unit, and refuses the next purchase without the reason', async () => {
    const player = await devLogin(server);
    const first = await openTable(player, '500000-carats');
    const { unitIds } = await buy(first.room, '500000-carats', 500);
    await first.room.request('act', { action: { type: 'reveal_winning' } });
    await first.room.leave();
    const http = (method: string, path: string, token: string, body?: unknown) => fetch(`http://127.0.0.1:${server.port}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    assert.equal((await http('PUT', `/admin/players/${player.playerId}/block`, OPERATOR, { reason: 'national_ban' })).status, 200);

    // Sign-in: the page reads the player's state, which says so.
    const state = (await (await http('GET', '/protection', player.token)).json()) as ProtectionState;
    assert.deepEqual(state.blocked, { reason: 'national_ban', until: null });
    // The table still opens (GLI-19 4.16: the unit owed finishes) and its join says nothing of the block.
    const second = await openTable(player, '500000-carats');
    assert.deepEqual(((await second.rec.next('resumed')) as { unitIds: string[] }).unitIds, unitIds);
    assert.deepEqual(second.wallet, { balance: DEMO - 500, held: 500 });
    assert.doesNotMatch(JSON.stringify(second.rec.messages) + JSON.stringify(second.room.state), /blocked|national_ban|protection/);
    await second.room.request('act', { action: { type: 'auto' } });
    await until(second.room, () => decodedUnits(second.room)[0]!.status === 'finished', 'the unit to finish');
    const prize = decodedUnits(second.room)[0]!.prize;
    assert.deepEqual(await second.room.request('wallet'), { balance: DEMO - 500 + prize, held: 0 }, 'the unit paid');

    await assert.rejects(buy(second.room, '500000-carats', 500), (err: unknown) => {
      const text = JSON.stringify(err);
      assert.match(text, /protection\/blocked/);
      assert.doesNotMatch(text, /national_ban/, 'the refusal never says why');
      return true;
    });
    const after = (await (await http('GET', '/protection', player.token)).json()) as ProtectionState;
    assert.deepEqual(after.history.slice(0, 2).map((c) => [c.what, c.by, c.code]), [['refusal', 'player', 'protection/blocked'], ['block', 'operator', undefined]]);
    await second.room.leave();
  });

  it('keeps the player’s seat through a dropped connection, and the reveal goes on after joining it again', async () => {
    const player = await devLogin(server);
    const { room } = await openTable(player, '500000-carats');
    room.reconnection.enabled = false;
    await buy(room, '500000-carats', 500);
    await room.request('act', { action: { type: 'reveal_winning' } });
    await until(room, () => decodedUnits(room)[0]!.steps.length === 2, 'the winning numbers');
    const dropped = new Promise<void>((resolve) => room.onLeave(() => resolve()));
    // Close the socket under the SDK as a network failure would (not a consented leave).
    (room.connection as unknown as { transport: { ws: { close(code: number): void } } }).transport.ws.close(4010);
    await dropped;
    const back = await player.client.joinById(room.roomId);
    await record(back).next('wallet');
    await until(back, () => decodedUnits(back)[0]?.steps.length === 2, 'the unit where it stood');
    await back.request('act', { action: { type: 'auto' } });
    await until(back, () => decodedUnits(back)[0]!.status === 'finished', 'the unit to finish');
    assert.equal(decodedUnits(back)[0]!.steps.length, 3);
    await back.leave();
  });

  describe('refusals', () => {
    let player: TestPlayer;
    let room: Room;
    let rec: ReturnType<typeof record>;

    before(async () => {
      player = await devLogin(server);
      ({ room, rec } = await openTable(player, '500000-carats'));
    });
    after(async () => {
      await room.leave();
    });

    async function refusedWith(type: string, payload: unknown, code: string): Promise<void> {
      const wallet = await room.request('wallet');
      await assert.rejects(room.request(type, payload), (err: unknown) => {
        assert.match(JSON.stringify(err) + String((err as Error).message), new RegExp(code.replace('/', '\\/')));
        return true;
      });
      assert.deepEqual(await room.request('wallet'), wallet, 'a refusal changes nothing');
    }

    it('refuses a malformed purchase', () => refusedWith('buy', { stake: 500, requestId: 'not ok!' }, 'purchase/malformed'));
    it('refuses a purchase with unknown fields', () => refusedWith('buy', { stake: 500, requestId: 'r1', extra: 1 }, 'purchase/malformed'));
    it('refuses a price the game is not sold at', () => refusedWith('buy', { stake: 123, requestId: 'r2' }, 'purchase/unknown_game'));
    it('refuses a stake of no cents, or fewer, as malformed', async () => {
      await refusedWith('buy', { stake: 0, requestId: 'r3' }, 'purchase/malformed');
      await refusedWith('buy', { stake: -500, requestId: 'r4' }, 'purchase/malformed');
    });
    it('refuses an action with no unit in play', () => refusedWith('act', { action: { type: 'auto' } }, 'action/no_unit'));
    it('refuses a malformed action', async () => {
      await buy(room, '500000-carats', 500);
      await refusedWith('act', { action: { type: 'reveal', index: 'x' } }, 'action/malformed');
    });
    it('refuses an action out of order', () => refusedWith('act', { action: { type: 'reveal', index: 0 } }, 'action/not_allowed_now'));
    it('refuses a recall of a unit that is not the player’s', () => refusedWith('recall', { unitId: 'nope:1' }, 'recall/not_found'));
    it('answers a fire-and-forget refusal with a refused message', async () => {
      const since = rec.messages.length;
      room.send('nonsense', { x: 1 });
      const refused = (await rec.next('refused', since)) as { code: string };
      assert.equal(refused.code, 'message/unknown_type');
    });
    it('refuses a purchase beyond the balance', async () => {
      const poor = await playerWith(400);
      const table = await openTable(poor, '500000-carats');
      await assert.rejects(buy(table.room, '500000-carats', 500), (err: unknown) => /purchase\/insufficient_funds/.test(JSON.stringify(err)));
      assert.deepEqual(await table.room.request('wallet'), { balance: 400, held: 0 });
      await table.room.leave();
    });
  });

  describe('who may do what', () => {
    it('refuses to join without a token', async () => {
      const player = await devLogin(server);
      player.client.auth.token = '';
      await assert.rejects(player.client.create('table', { game: 'rain-diamonds' }), /auth\/missing/);
    });
    it('refuses a forged token', async () => {
      const player = await devLogin(server);
      player.client.auth.token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(player.playerId).setExpirationTime('1h').sign(new TextEncoder().encode('another-secret-of-thirty-two-characters!'));
      await assert.rejects(player.client.create('table', { game: 'rain-diamonds' }), /auth\/invalid/);
    });
    it('refuses an expired token', async () => {
      const player = await devLogin(server);
      player.client.auth.token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(player.playerId).setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(new TextEncoder().encode(SECRET));
      await assert.rejects(player.client.create('table', { game: 'rain-diamonds' }), /auth\/expired/);
    });
    it('refuses a malformed token', async () => {
      const player = await devLogin(server);
      player.client.auth.token = 'not-a-jwt';
      await assert.rejects(player.client.create('table', { game: 'rain-diamonds' }), /auth\/malformed/);
    });
    it('refuses a table for an unknown game', async () => {
      const player = await devLogin(server);
      await assert.rejects(player.client.create('table', { game: 'poker' }), /table\/malformed/);
    });
    it('shows a player only their own history over HTTP', async () => {
      const alice = await devLogin(server, 'Alice');
      const bob = await devLogin(server, 'Bob');
      const { room } = await openTable(alice, 'rain-diamonds');
      const { unitIds } = await buy(room, 'rain-diamonds', 50);
      const get = (path: string, token: string) => fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const list = (await (await get('/history', alice.token)).json()) as { units: { unitId: string; status: string; prize: number | null }[] };
      assert.deepEqual(list.units.map((u) => u.unitId), unitIds);
      assert.equal(list.units[0]!.prize, null, 'no prize shown before the reveal ends');
      const recall = (await (await get(`/history/${unitIds[0]}`, alice.token)).json()) as { unitId: string; scenario: unknown; prize: unknown };
      assert.equal(recall.unitId, unitIds[0]);
      assert.equal(recall.scenario, null, 'an unfinished unit shows nothing hidden');
      assert.equal(recall.prize, null);
      assert.equal((await get(`/history/${unitIds[0]}`, bob.token)).status, 404);
      assert.equal((await get('/history', 'forged')).status, 401);
      await room.leave();
    });
    it('serves the operator report only with the operator token', async () => {
      const get = (token: string) => fetch(`http://127.0.0.1:${server.port}/admin/blocks`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal((await get('wrong')).status, 401);
      const player = await devLogin(server);
      assert.equal((await get(player.token)).status, 401, 'a player token is not an operator token');
      const report = (await (await get(OPERATOR)).json()) as { emissions: { emissionId: string; blocks: { sold: number; unsold: number; size: number }[] }[] };
      assert.equal(report.emissions.length, PRIZE_TABLES.length);
      for (const emission of report.emissions) for (const block of emission.blocks) assert.equal(block.sold + block.unsold, block.size);
    });

    it('disconnects a client that floods the table', async () => {
      const player = await devLogin(server);
      const { room } = await openTable(player, 'rain-diamonds');
      for (let i = 0; i < 200; i++) room.send('wallet');
      // Past the limit the server closes the client and ignores whatever else it sends.
      await assert.rejects(room.request('wallet', undefined, { timeout: 1500 }));
      const other = await devLogin(server);
      const { room: otherRoom } = await openTable(other, 'rain-diamonds');
      assert.deepEqual(await otherRoom.request('wallet'), { balance: DEMO, held: 0 }, 'everyone else is served');
      await otherRoom.leave();
    });
  });
});
