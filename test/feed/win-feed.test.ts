import { strict as assert } from 'node:assert';
import { LocalPresence } from '@colyseus/core';
import { MemoryStore } from '../../src/dealer/memory/store';
import { findPrizeTable } from '../../src/games/prize-tables';
import { maskPseudonym, WinFeed, type WinFeedOptions, type WinMessage } from '../../src/feed/win-feed';
import type { EndedReveal, LiveUnit } from '../../src/play/live-unit';
import { PlayService } from '../../src/play/play-service';
import { MemoryActionLog } from '../../src/action-log/action-log';

const PLAYER = { playerId: 'p1', pseudonym: 'Nina' };

/** A dealer with one lamp emission, a play service, a feed, and what the feed published. */
async function setUp(options: Partial<WinFeedOptions> = {}) {
  let clock = 1_000_000;
  const now = () => clock;
  const dealer = new MemoryStore();
  await dealer.emissions.openEmission({ emissionId: 'lamp', table: findPrizeTable('mysteres-de-la-lampe', 50)!, blockCount: 1, now: now() });
  await dealer.wallets.deposit(PLAYER.playerId, 1_000_000, 'd1', 0);
  const presence = new LocalPresence();
  const feed = new WinFeed(presence, dealer.emissions, { prefix: 't', recent: 3, minPrize: 1, pseudonymTtlSeconds: 60, sharedPresence: false, log: () => undefined, ...options }, now);
  const play = new PlayService(dealer, new MemoryActionLog(), now);
  const published: WinMessage[] = [];
  await presence.subscribe(feed.winsChannel, (message: WinMessage) => published.push(message));
  let n = 0;
  /** Buys a lamp unit and rubs it open; returns how its reveal ended (a losing unit too). */
  async function playOne(): Promise<EndedReveal> {
    const bought = await play.buy(PLAYER, { game: 'mysteres-de-la-lampe', stake: 50, requestId: `r${++n}`, picks: [{ kind: 'colour', choice: 'gold' }] });
    assert.ok(bought.ok);
    const acted = await play.act(PLAYER.playerId, bought.units, { action: { type: 'auto' } });
    assert.equal(acted.refusal, undefined);
    assert.equal(acted.ended.length, 1);
    return acted.ended[0]!;
  }
  async function playUntil(check: (unit: LiveUnit) => boolean): Promise<EndedReveal> {
    for (let i = 0; i < 200; i++) {
      const ended = await playOne();
      if (check(ended.unit)) return ended;
    }
    throw new Error('no such unit in 200');
  }
  return { dealer, presence, feed, play, published, playOne, playUntil, tick: (ms: number) => (clock += ms) };
}

describe('win feed', () => {
  it('masks the pseudonym it publishes: the first three characters, one of a short name', () => {
    assert.deepEqual(['Alice', 'Nina', 'Zoé', 'Al', 'Éloïse'].map(maskPseudonym), ['Ali***', 'Nin***', 'Z***', 'A***', 'Élo***']);
  });

  it('publishes a win under the masked pseudonym its table gives, with the time its reveal ended', async () => {
    const { feed, published, playUntil } = await setUp();
    const ended = await playUntil((u) => u.sale.prize > 0);
    feed.publish(ended, 'Nina');
    await feed.settled();
    assert.equal(published.length, 1);
    assert.deepEqual(published[0]!.win, {
      game: 'mysteres-de-la-lampe',
      stake: 50,
      amount: ended.unit.sale.prize,
      at: new Date(ended.unit.steps.at(-1)!.at).toISOString(),
      pseudonym: 'Nin***',
    });
    await feed.close();
  });

  it('publishes nothing for a losing unit', async () => {
    const { feed, published, playUntil } = await setUp();
    feed.publish(await playUntil((u) => u.sale.prize === 0), 'Nina');
    await feed.settled();
    assert.equal(published.length, 0);
    await feed.close();
  });

  it('publishes a unit no table showed under the pseudonym it remembered, or a neutral name', async () => {
    const { feed, published, playUntil } = await setUp();
    const first = await playUntil((u) => u.sale.prize > 0);
    feed.publishUnshown(first);
    await feed.settled();
    await feed.rememberPseudonym(PLAYER.playerId, 'Nina');
    feed.publishUnshown(await playUntil((u) => u.sale.prize > 0));
    await feed.settled();
    assert.deepEqual(published.map((m) => m.win.pseudonym), ['a player', 'Nin***']);
    await feed.close();
  });

  it('keeps a win its player has not seen until it is released, then publishes it once', async () => {
    const { feed, published, playUntil } = await setUp();
    const ended = await playUntil((u) => u.sale.prize > 0);
    const before = await feed.prizesLeft(0);
    feed.keepUnseen(ended, 'Nina');
    await feed.settled();
    assert.equal(await feed.lastUnseen(PLAYER.playerId, 'mysteres-de-la-lampe'), ended.unit.sale.unitId);
    assert.equal(await feed.lastUnseen(PLAYER.playerId, 'rain-diamonds'), undefined);
    assert.equal(await feed.lastUnseen('someone-else', 'mysteres-de-la-lampe'), undefined);
    assert.equal(published.length, 0, 'nothing before the player has seen it');
    assert.deepEqual(await feed.prizesLeft(0), before, 'the prizes left do not move either');
    feed.releaseUnseen({ unitIds: [ended.unit.sale.unitId] });
    feed.releaseUnseen({ unitIds: [ended.unit.sale.unitId] });
    await feed.settled();
    assert.equal(published.length, 1, 'released twice, published once');
    assert.equal(published[0]!.win.pseudonym, 'Nin***');
    assert.equal(await feed.lastUnseen(PLAYER.playerId, 'mysteres-de-la-lampe'), undefined);
    await feed.close();
  });

  it('releases unseen wins once they are as old as an abandoned unit, and not before', async () => {
    const { feed, published, playUntil, tick } = await setUp();
    const ended = await playUntil((u) => u.sale.prize > 0);
    feed.keepUnseen(ended, 'Nina');
    await feed.settled();
    const endedAt = ended.unit.steps.at(-1)!.at;
    feed.releaseUnseen({ endedBefore: endedAt });
    await feed.settled();
    assert.equal(published.length, 0);
    tick(1);
    feed.releaseUnseen({ endedBefore: endedAt + 1 });
    await feed.settled();
    assert.equal(published.length, 1);
    await feed.close();
  });

  it('leaves small wins out of the feed but takes them off the prizes left', async () => {
    const { feed, published, playUntil } = await setUp({ minPrize: 100 });
    const before = await feed.prizesLeft(0);
    feed.publish(await playUntil((u) => u.sale.prize === 50), 'Nina');
    await feed.settled();
    assert.equal(published.length, 0, 'below FEED_MIN_PRIZE_CENTS');
    const after = await feed.prizesLeft(0);
    const tier = (list: typeof before) => list[0]!.tiers.find((t) => t.prize === 50)!.left;
    assert.equal(tier(after), tier(before) - 1);
    feed.publish(await playUntil((u) => u.sale.prize >= 100), 'Nina');
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
      blockId: (await dealer.emissions.listEmissions())[0]!.blocks.find((b) => b.state === 'open')!.blockId,
      tiers: table.tiers.map((t, i) => ({ tierId: i + 1, prize: t.prize, left: t.count })),
    }]);
    // Sold, not revealed: the count does not move whatever the unit holds.
    for (let i = 0; i < 20; i++) {
      const other = { playerId: `buyer${i}`, pseudonym: 'B' };
      await dealer.wallets.deposit(other.playerId, 100, `d${i}`, 0);
      assert.ok((await play.buy(other, { game: 'mysteres-de-la-lampe', stake: 50, requestId: 'x', picks: [{ kind: 'symbol', choice: 'moon' }] })).ok);
    }
    assert.deepEqual(await feed.prizesLeft(0), start);
    await feed.close();
  });

  it('keeps the last N wins for late joiners, oldest first', async () => {
    const { feed, published, playUntil } = await setUp({ recent: 2 });
    for (let i = 0; i < 4; i++) {
      feed.publish(await playUntil((u) => u.sale.prize > 0), `${i}th player`);
      await feed.settled();
    }
    const recent = await feed.recent();
    assert.deepEqual(recent, published.slice(-2));
    assert.deepEqual(recent.map((m) => m.win.pseudonym), ['2th***', '3th***']);
    await feed.close();
  });
});
