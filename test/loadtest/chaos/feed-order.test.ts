import { strict as assert } from 'node:assert';
import { checkFeedOrder, type FeedWinSeen, type UnitSighting } from '../../../loadtest/chaos/feed-order';

const ABANDON_MS = 5000;

function unit(over: Partial<UnitSighting> & { unitId: string }): UnitSighting {
  return { pseudonym: 'ch-0', game: 'mine-d-or', stake: 100, prize: 500, seenAt: 1000, completedBy: 'player', finishedAt: 1_000_000, ...over };
}

function win(over: Partial<FeedWinSeen> = {}): FeedWinSeen {
  return { spectator: 0, pseudonym: 'ch-0', game: 'mine-d-or', stake: 100, amount: 500, checkedAt: 1001, wallAt: 1_000_001, ...over };
}

describe('feed order check', () => {
  it('passes a win read after its player saw the unit finished', () => {
    const r = checkFeedOrder([win()], [unit({ unitId: 'b:0' })], ABANDON_MS);
    assert.equal(r.inOrder, 1);
    assert.equal(r.ahead + r.phantom, 0);
  });

  it('counts a win read before its player saw the unit finished as ahead, with a sentence', () => {
    const r = checkFeedOrder([win({ checkedAt: 900 })], [unit({ unitId: 'b:0' })], ABANDON_MS);
    assert.equal(r.ahead, 1);
    assert.match(r.problems[0]!, /ch-0.*unit b:0\) 100\.0 ms before its client saw the unit finished/);
  });

  it('counts a win of a unit its client never saw and the server did not release as ahead', () => {
    const r = checkFeedOrder([win({ wallAt: 1_000_010 })], [unit({ unitId: 'b:0', seenAt: undefined })], ABANDON_MS);
    assert.equal(r.ahead, 1);
    assert.match(r.problems[0]!, /never saw/);
  });

  it('allows the wins of units the server finished, and wins released unseen once as old as an abandoned unit', () => {
    const r = checkFeedOrder(
      [win({ checkedAt: 10 }), win({ checkedAt: 20, wallAt: 1_000_000 + ABANDON_MS })],
      [unit({ unitId: 'b:0', seenAt: undefined, completedBy: 'server' }), unit({ unitId: 'b:1', seenAt: 5000 })],
      ABANDON_MS,
    );
    assert.deepEqual([r.serverCompleted, r.releasedUnseen, r.ahead], [1, 1, 0]);
  });

  it('matches each win to one unit: two wins for one unit seen count one repeated', () => {
    const r = checkFeedOrder([win(), win({ checkedAt: 2000 })], [unit({ unitId: 'b:0' })], ABANDON_MS);
    assert.deepEqual([r.inOrder, r.repeated, r.ahead], [1, 1, 0]);
  });

  it('uses the earliest sighting first, so a later win can take the later one', () => {
    const units = [unit({ unitId: 'b:0', seenAt: 1000 }), unit({ unitId: 'b:1', seenAt: 3000 })];
    const r = checkFeedOrder([win({ checkedAt: 3500 }), win({ checkedAt: 1500 })], units, ABANDON_MS);
    assert.deepEqual([r.inOrder, r.ahead], [2, 0]);
  });

  it('matches each spectator on its own: every spectator gets every win', () => {
    const r = checkFeedOrder([win(), win({ spectator: 1 })], [unit({ unitId: 'b:0' })], ABANDON_MS);
    assert.deepEqual([r.inOrder, r.repeated], [2, 0]);
  });

  it('counts a win matching no unit of the player (game, price or amount) as phantom', () => {
    const r = checkFeedOrder([win({ amount: 700 }), win({ pseudonym: 'ch-1' })], [unit({ unitId: 'b:0' })], ABANDON_MS);
    assert.equal(r.phantom, 2);
    assert.equal(r.problems.length, 2);
  });
});
