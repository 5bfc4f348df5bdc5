import { strict as assert } from 'node:assert';
import { StepClock } from '../../loadtest/step-clock';

describe('step clock', () => {
  it("times a watcher's step after the player's client got it", () => {
    const clock = new StepClock();
    assert.deepEqual(clock.player('u:0', 100), { isNew: true, leads: [] });
    assert.equal(clock.watcher('u:0', 103), 3);
    assert.equal(clock.watcher('u:0', 110), 10);
  });

  it('counts each watcher served before the player, with its lead', () => {
    const clock = new StepClock();
    assert.equal(clock.watcher('u:1', 200), undefined);
    assert.equal(clock.watcher('u:1', 201), undefined);
    assert.deepEqual(clock.player('u:1', 205), { isNew: true, leads: [5, 4] });
    assert.equal(clock.watcher('u:1', 206), 1, 'a later watcher is timed');
  });

  it('tells the player a step it already had, so that it stops looking further back', () => {
    const clock = new StepClock();
    clock.player('u:2', 1);
    assert.deepEqual(clock.player('u:2', 9), { isNew: false, leads: [] });
  });

  it('keeps only the last few hundred steps', () => {
    const clock = new StepClock();
    for (let i = 0; i < 600; i++) clock.player(`u:${i}`, i);
    assert.equal(clock.watcher('u:599', 1000), 401, 'a recent step is remembered');
    assert.equal(clock.watcher('u:0', 1000), undefined, 'the oldest are forgotten');
  });
});
