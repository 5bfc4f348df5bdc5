import { strict as assert } from 'node:assert';
import { matchMaker } from '@colyseus/core';
import type { Room } from '@colyseus/sdk';
import type { WinMessage } from '../../src/feed/win-feed';
import type { PrizesLeft, Win } from '../../src/protocol/feed';
import { applyPrizeChanges } from '../../src/protocol/prize-changes';
import type { RunningServer } from '../../src/server/app';
import { decodedUnits, devLogin, record, startTestServer, type Recorder } from '../support/game-server';
import { anonymous, eventually, leaveQuietly, playLampUnit, reasonOf, sleep, winBatches, winsReceived } from './helpers';

const SECRET = 'feed-room-secret-of-thirty-two-chars!!!';
const RECENT = 3;
const WIN_KEYS = ['amount', 'at', 'game', 'pseudonym', 'stake'];

/** Units of all open blocks' prizes left, and their total value. */
function totals(prizes: readonly PrizesLeft[]): { count: number; value: number } {
  let count = 0;
  let value = 0;
  for (const block of prizes) for (const tier of block.tiers) {
    count += tier.left;
    value += tier.left * tier.prize;
  }
  return { count, value };
}

describe('live wins feed', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let feedRoom: Room;
  let feedRec: Recorder;
  /** For each win the spectator got: whether the player's client already showed that unit finished. */
  const playerHadFinished: boolean[] = [];
  let player: Awaited<ReturnType<typeof devLogin>>;
  let table: Room;
  /** When each prizes_left arrived (ms). */
  const prizesArrivals: number[] = [];
  /** The wins the player played, in order, as the feed should show them. */
  const played: { prize: number }[] = [];

  before(async () => {
    server = await startTestServer({ JWT_SECRET: SECRET, FEED_RECENT: String(RECENT), DEMO_BALANCE_CENTS: '100000', MAX_MESSAGES_PER_SECOND: '1000' });
    feedRoom = await anonymous(server).joinOrCreate('feed');
    feedRec = record(feedRoom);
    // A second wildcard listener beside the recorder (a typed listener would take the messages from it).
    feedRoom.onMessage('*', (type, payload) => {
      if (type === 'prizes_left' || type === 'prizes_changed') prizesArrivals.push(Date.now());
      if (type === 'wins') {
        // Checked at the moment the wins arrive: the player's last step must already be there.
        const unit = table ? decodedUnits(table)[0] : undefined;
        const finished = unit !== undefined && unit.status === 'finished';
        playerHadFinished.push(...(payload as { wins: Win[] }).wins.map(() => finished));
      }
    });
    player = await devLogin(server, 'Lucky');
    table = await player.client.create('table', { game: 'mysteres-de-la-lampe' });
    record(table);
  });
  after(async () => {
    await leaveQuietly(feedRoom);
    await leaveQuietly(table);
    await server.stop();
  });

  const winsSeen = () => winsReceived(feedRec);
  const prizesLeftNow = () => server.services.feed.prizesLeft(0);

  it('greets a spectator with the recent wins (none yet) and the prizes left', async () => {
    assert.deepEqual(await feedRec.next('recent'), { wins: [] });
    const prizes = (await feedRec.next('prizes_left')) as PrizesLeft[];
    const http = (await (await fetch(`http://127.0.0.1:${server.port}/prizes-left`)).json()) as PrizesLeft[];
    assert.deepEqual(prizes, http);
    assert.equal(new Set(prizes.map((p) => `${p.game}@${p.stake}`)).size, prizes.length, 'one open block per game and price');
    const lamp = prizes.find((p) => p.game === 'mysteres-de-la-lampe')!;
    assert.deepEqual(lamp.tiers[0], { tierId: 1, prize: 1_000_000, left: 1 });
  });

  it('shows a win only after the player’s last reveal step reached the player, and moves the prizes left only then', async () => {
    let wins = 0;
    for (let i = 0; i < 60 && wins < RECENT + 1; i++) {
      const before = await prizesLeftNow();
      const seenBefore = winsSeen().length;
      const { prize } = await playLampUnit(table, async () => {
        // Sold and half rubbed: nothing may show yet, win or not.
        await sleep(20);
        assert.equal(winsSeen().length, seenBefore, 'no win published while the reveal is under way');
        assert.deepEqual(await prizesLeftNow(), before, 'the prizes left do not move at sale');
      });
      played.push({ prize });
      if (prize > 0) {
        wins++;
        await eventually(() => winsSeen().length, (n) => n === seenBefore + 1, 'the win in the feed');
        const after = await prizesLeftNow();
        assert.deepEqual(totals(after), { count: totals(before).count - 1, value: totals(before).value - prize }, 'one prize of that amount left the count');
      } else {
        await sleep(20);
        assert.equal(winsSeen().length, seenBefore, 'a losing unit is not in the feed');
        assert.deepEqual(await prizesLeftNow(), before);
      }
    }
    assert.ok(wins > RECENT, `played ${played.length} units for ${wins} wins`);
    assert.equal(playerHadFinished.length, wins);
    assert.ok(playerHadFinished.every(Boolean), 'every win arrived after the player’s finished step');
    const seen = winsSeen();
    assert.deepEqual(seen.map((w) => w.amount), played.filter((p) => p.prize > 0).map((p) => p.prize));
    for (const win of seen) {
      assert.deepEqual(Object.keys(win).sort(), WIN_KEYS, 'a win carries game, price, amount, time and pseudonym only');
      assert.equal(win.game, 'mysteres-de-la-lampe');
      assert.equal(win.stake, 50);
      assert.equal(win.pseudonym, 'Luc***', 'masked');
      assert.ok(Number.isInteger(win.amount) && win.amount > 0);
      assert.ok(!Number.isNaN(Date.parse(win.at)) && new Date(win.at).toISOString() === win.at);
    }
    const text = JSON.stringify(feedRec.messages);
    assert.ok(!text.includes(player.playerId) && !text.includes(player.token) && !/balance|held|unitId|playerId/.test(text), 'nothing private in the feed');
  });

  it('sends the spectators the prizes left whole on joining, then the counts that moved, at most once a second', async () => {
    const expected = await prizesLeftNow();
    // What a spectator holds: the list it was greeted with, each change applied in turn.
    const held = () =>
      feedRec.messages.reduce<PrizesLeft[]>((list, m) => {
        if (m.type === 'prizes_left') return m.payload as PrizesLeft[];
        return m.type === 'prizes_changed' ? applyPrizeChanges(list, m.payload as number[]) : list;
      }, []);
    await eventually(held, (list) => JSON.stringify(list) === JSON.stringify(expected), 'the spectators’ count to catch up', 3000);
    const types = feedRec.messages.map((m) => m.type).filter((t) => t === 'prizes_left' || t === 'prizes_changed');
    assert.deepEqual(types.slice(0, 2), ['prizes_left', 'prizes_changed'], 'whole once, then only changes (the blocks stayed open)');
    assert.ok(prizesArrivals.length >= 2, 'the count was sent again after wins');
    // [0] is the greeting on joining; the broadcasts that follow are a second apart at least.
    for (let i = 2; i < prizesArrivals.length; i++) {
      assert.ok(prizesArrivals[i]! - prizesArrivals[i - 1]! >= 900, `updates ${i - 1} and ${i} are ${prizesArrivals[i]! - prizesArrivals[i - 1]!} ms apart`);
    }
  });

  it('gives a late joiner the last wins, oldest first', async () => {
    const late = await anonymous(server).joinOrCreate('feed');
    const rec = record(late);
    const recent = (await rec.next('recent')) as { wins: Win[] };
    assert.deepEqual(recent.wins, winsSeen().slice(-RECENT));
    assert.deepEqual(await rec.next('prizes_left'), await prizesLeftNow());
    await late.leave();
  });

  it('refuses whatever a feed spectator sends', async () => {
    await assert.rejects(feedRoom.request('buy', { stake: 50, requestId: 'x' }), (err: unknown) => /spectator\/read_only/.test(reasonOf(err)));
    const since = feedRec.messages.length;
    feedRoom.send('act', { action: { type: 'auto' } });
    assert.deepEqual(await feedRec.next('refused', since), { code: 'spectator/read_only', message: 'the feed is read-only for spectators: watch, do not send' });
  });
});

describe('prizes left switched off', function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ PRIZES_LEFT: 'false' });
  });
  after(async () => {
    await server.stop();
  });

  it('answers 404 and sends no prizes left', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/prizes-left`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'prizes_left/off');
    const room = await anonymous(server).joinOrCreate('feed');
    const rec = record(room);
    await rec.next('recent');
    await sleep(50);
    assert.deepEqual(rec.messages.map((m) => m.type), ['recent']);
    await room.leave();
  });
});

/** A win as any process publishes it: on the presence channel every feed room listens to. */
function publish(server: RunningServer, seq: number): Win {
  const win: Win = { game: 'mysteres-de-la-lampe', stake: 50, amount: 100 * seq, at: new Date(Date.UTC(2026, 0, 1, 12, 0, seq)).toISOString(), pseudonym: `P${seq}` };
  const message: WinMessage = { seq, win };
  void matchMaker.presence.publish(server.services.feed.winsChannel, message);
  return win;
}

// Wins published in one turn of the event loop reach the room within one interval: these tests
// count messages and check their contents, never how long anything took.
describe('wins feed batches', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let spectator: Room;
  let rec: Recorder;
  /** Every win published, by seq. */
  const w: Win[] = [];

  before(async () => {
    server = await startTestServer({ FEED_BATCH_MS: '1500', FEED_RECENT: '10', PRIZES_LEFT: 'false' });
    spectator = await anonymous(server).joinOrCreate('feed');
    rec = record(spectator);
    assert.deepEqual(await rec.next('recent'), { wins: [] });
  });
  after(async () => {
    await leaveQuietly(spectator);
    await server.stop();
  });

  it('sends a lone win at once, in a message of its own', async () => {
    w[1] = publish(server, 1);
    w[2] = publish(server, 2);
    await eventually(() => winsReceived(rec).length, (n) => n === 2, 'the two wins');
    assert.deepEqual(winBatches(rec), [[w[1]], [w[2]]], 'the first at once; the second, a moment later, waited for the interval');
  });

  it('gathers the wins of one interval into one message, oldest first, each once', async () => {
    w[3] = publish(server, 3);
    w[5] = publish(server, 5);
    w[4] = publish(server, 4);
    publish(server, 5);
    w[6] = publish(server, 6);
    await eventually(() => winsReceived(rec).length, (n) => n >= 6, 'the four wins');
    assert.deepEqual(winsReceived(rec), w.slice(1), 'in feed order, the duplicate dropped');
    const batches = winBatches(rec).slice(2);
    assert.ok(batches.length <= 2, `four wins in ${batches.length} messages`);
    assert.deepEqual(batches.at(-1)!.slice(-3), [w[4], w[5], w[6]], 'the three that followed the first came together');
  });

  it('gives a spectator who joins while wins wait for their batch each win once, none missed', async () => {
    w[7] = publish(server, 7);
    w[8] = publish(server, 8);
    const late = await anonymous(server).joinOrCreate('feed');
    const lateRec = record(late);
    const recent = (await lateRec.next('recent')) as { wins: Win[] };
    await eventually(() => winsReceived(rec).length, (n) => n === 8, 'the first spectator to get the last win');
    // Whatever went out to the first spectator went out to the late one before this reply.
    late.send('anything');
    await lateRec.next('refused');
    assert.deepEqual([...recent.wins, ...winsReceived(lateRec)], w.slice(1), 'each win once, in order, in recent or in a batch');
    assert.deepEqual(winsReceived(rec), w.slice(1));
    await late.leave();
  });
});

describe('wins feed without batches (FEED_BATCH_MS=0)', function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ FEED_BATCH_MS: '0', PRIZES_LEFT: 'false' });
  });
  after(async () => {
    await server.stop();
  });

  it('sends each win at once, in a message of its own', async () => {
    const room = await anonymous(server).joinOrCreate('feed');
    const rec = record(room);
    await rec.next('recent');
    const wins = [publish(server, 1), publish(server, 2), publish(server, 3)];
    await eventually(() => winsReceived(rec).length, (n) => n === 3, 'the three wins');
    assert.deepEqual(winBatches(rec), wins.map((win) => [win]));
    await room.leave();
  });
});
