import { strict as assert } from 'node:assert';
import { LocalPresence } from '@colyseus/core';
import { MemoryStore } from '../../src/dealer/memory-store';
import { findPrizeTable } from '../../src/games/prize-tables';
import { WinFeed, type WinFeedOptions, type WinMessage } from '../../src/feed/win-feed';
import { PlayService, type LiveUnit, type RevealEnd } from '../../src/play/play-service';
import { MemoryActionLog } from '../../src/units/action-log';

const PLAYER = { playerId: 'p1', pseudonym: 'Nina' };

/** A dealer with one lamp emission, a play service telling a feed, and what the feed published. */
async function setUp(options: Partial<WinFeedOptions> = {}) {
  let clock = 1_000_000;
  const now = () => clock;
  const dealer = new MemoryStore();
  await dealer.openEmission({ emissionId: 'lamp', table: findPrizeTable('mysteres-de-la-lampe', 50)!, blockCount: 1, now: now() });
  await dealer.deposit(PLAYER.playerId, 1_000_000, 'd1', 0);
  const presence = new LocalPresence();
  const feed = new WinFeed(presence, dealer, { prefix: 't', recent: 3, minPrize: 1, pseudonymTtlSeconds: 60, sharedPresence: false, log: () => undefined, ...options }, now);
  const told: RevealEnd[] = [];
  const play = new PlayService(dealer, new MemoryActionLog(), now, (event) => {
    told.push(event);
    feed.revealEnded(event);
  });
  const published: WinMessage[] = [];
  await presence.subscribe(feed.winsChannel, (message: WinMessage) => published.push(message));
  let n = 0;
  /** Buys a lamp unit and rubs it open; returns the finished unit. */
  async function playOne(): Promise<LiveUnit> {
    const bought = await play.buy(PLAYER, { game: 'mysteres-de-la-lampe', stake: 50, requestId: `r${++n}`, picks: [{ kind: 'colour', choice: 'gold' }] });
    assert.ok(bought.ok);
    const acted = await play.act(PLAYER.playerId, bought.units[0]!, { type: 'auto' });
    assert.ok(acted.ok);
    assert.ok(acted.unit.finished);
    return acted.unit;
  }
  async function playUntil(check: (unit: LiveUnit) => boolean): Promise<LiveUnit> {
    for (let i = 0; i < 200; i++) {
      const unit = await playOne();
      if (check(unit)) return unit;
    }
    throw new Error('no such unit in 200');
  }
  return { dealer, presence, feed, play, told, published, playOne, playUntil, tick: (ms: number) => (clock += ms) };
}

describe('win feed', () => {
  it('holds a win the player is playing until the table says its last step went out', async () => {
    const { feed, told, published, playUntil } = await setUp();
    const unit = await playUntil((u) => u.sale.prize > 0);
    assert.equal(told.at(-1)!.by, 'player');
    await feed.settled();
    assert.equal(published.length, 0, 'nothing before the table has shown the last step');
    feed.shown(unit.sale.unitId, 'Nina');
    await feed.settled();
    assert.equal(published.length, 1);
    assert.deepEqual(published[0]!.win, {
      game: 'mysteres-de-la-lampe',
      stake: 50,
      amount: unit.sale.prize,
      at: new Date(unit.steps.at(-1)!.at).toISOString(),
      pseudonym: 'Nina',
    });
    feed.shown(unit.sale.unitId, 'Nina');
    await feed.settled();
    assert.equal(published.length, 1, 'a unit is published once');
    await feed.close();
  });

  it('tells each unit once, even when the server settles it again', async () => {
    const { play, told, playOne, tick } = await setUp();
    const units = [await playOne(), await playOne()];
    tick(10_000_000);
    await play.completeAbandoned(1);
    assert.deepEqual(told.map((t) => t.unit.sale.unitId), units.map((u) => u.sale.unitId));
  });

  it('publishes a unit the server completed at once, under the pseudonym it remembered', async () => {
    const { feed, play, published, tick } = await setUp();
    await feed.rememberPseudonym(PLAYER.playerId, 'Nina');
    for (let i = 0; i < 200 && published.length === 0; i++) {
      const bought = await play.buy(PLAYER, { game: 'mysteres-de-la-lampe', stake: 50, requestId: `abandoned${i}`, picks: [{ kind: 'colour', choice: 'gold' }] });
      assert.ok(bought.ok);
      tick(1000);
      assert.equal(await play.completeAbandoned(500), 1);
      await feed.settled();
    }
    assert.equal(published.length, 1);
    assert.equal(published[0]!.win.pseudonym, 'Nina');
    await feed.close();
  });

  it('publishes under a neutral name when the pseudonym is not known', async () => {
    const { feed, play, published, tick } = await setUp();
    for (let i = 0; i < 200 && published.length === 0; i++) {
      assert.ok((await play.buy(PLAYER, { game: 'mysteres-de-la-lampe', stake: 50, requestId: `a${i}`, picks: [{ kind: 'colour', choice: 'gold' }] })).ok);
      tick(1000);
      await play.completeAbandoned(500);
      await feed.settled();
    }
    assert.equal(published[0]!.win.pseudonym, 'a player');
    await feed.close();
  });

  it('publishes a held win after a while if no table shows it, and at close', async () => {
    const { feed, published, playUntil } = await setUp({ holdMs: 30 });
    await playUntil((u) => u.sale.prize > 0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await feed.settled();
    assert.equal(published.length, 1);
    await playUntil((u) => u.sale.prize > 0);
    await feed.close();
    assert.equal(published.length, 2, 'close publishes what was held');
  });

  it('leaves small wins out of the feed but takes them off the prizes left', async () => {
    const { feed, published, playUntil } = await setUp({ minPrize: 100 });
    const before = await feed.prizesLeft(0);
    const small = await playUntil((u) => u.sale.prize === 50);
    feed.shown(small.sale.unitId, 'Nina');
    await feed.settled();
    assert.equal(published.length, 0, 'below FEED_MIN_PRIZE_CENTS');
    const after = await feed.prizesLeft(0);
    const tier = (list: typeof before) => list[0]!.tiers.find((t) => t.prize === 50)!.left;
    assert.equal(tier(after), tier(before) - 1);
    const big = await playUntil((u) => u.sale.prize >= 100);
    feed.shown(big.sale.unitId, 'Nina');
    await feed.settled();
    assert.equal(published.length, 1);
    await feed.close();
  });

  it('counts prizes left per winning tier of each open block, moving only when a reveal ends', async () => {
    const { feed, dealer, play } = await setUp();
    const table = findPrizeTable('mysteres-de-la-lampe', 50)!;
    const start = await feed.prizesLeft(0);
    assert.deepEqual(start, [{
      game: 'mysteres-de-la-lampe',
      stake: 50,
      blockId: (await dealer.listEmissions())[0]!.blocks.find((b) => b.state === 'open')!.blockId,
      tiers: table.tiers.map((t, i) => ({ tierId: i + 1, prize: t.prize, left: t.count })),
    }]);
    // Sold, not revealed: the count does not move whatever the unit holds.
    for (let i = 0; i < 20; i++) {
      const other = { playerId: `buyer${i}`, pseudonym: 'B' };
      await dealer.deposit(other.playerId, 100, `d${i}`, 0);
      assert.ok((await play.buy(other, { game: 'mysteres-de-la-lampe', stake: 50, requestId: 'x', picks: [{ kind: 'symbol', choice: 'moon' }] })).ok);
    }
    assert.deepEqual(await feed.prizesLeft(0), start);
    await feed.close();
  });

  it('keeps the last N wins for late joiners, oldest first', async () => {
    const { feed, published, playUntil } = await setUp({ recent: 2 });
    for (let i = 0; i < 4; i++) {
      const unit = await playUntil((u) => u.sale.prize > 0);
      feed.shown(unit.sale.unitId, `P${i}`);
      await feed.settled();
    }
    const recent = await feed.recent();
    assert.deepEqual(recent, published.slice(-2));
    assert.deepEqual(recent.map((m) => m.win.pseudonym), ['P2', 'P3']);
    await feed.close();
  });
});
