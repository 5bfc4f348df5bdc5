import { strict as assert } from 'node:assert';
import { rainModel } from '../../web/src/games/rain-model';
import type { GameEvent } from '../../src/protocol/recall';
import { RAIN_DIAMONDS_TABLE } from '../../src/games/rain-diamonds';
import { complete, reduce, start } from '../../src/games/rain-diamonds/reducer';

describe('rain model (the page\'s RAIN DIAMONDS grid)', () => {
  it('rebuilds from the events, after every box, the grid the game itself holds', () => {
    const prizes = [0, ...RAIN_DIAMONDS_TABLE.tiers.map((t) => t.prize)];
    for (let n = 0; n < 40; n++) {
      const seed = new Uint8Array(32).fill(n + 1);
      const opened = start({ stake: 50, prize: prizes[n % prizes.length]! }, seed, undefined);
      assert.ok(opened.ok);
      let state = opened.state;
      // As the page receives them: JSON.
      const asSent = (list: readonly unknown[]) => JSON.parse(JSON.stringify(list)) as GameEvent[];
      const events = asSent(opened.events);
      for (const box of [2, 0, 4, 1, 3]) {
        const next = reduce(state, { type: 'open', box });
        assert.ok(next.ok);
        state = next.state;
        events.push(...asSent(next.events));
        const model = rainModel(events);
        assert.deepEqual(model.cells.map((col) => col.map((gem) => gem?.colour)), state.grid, `unit ${n}, after box ${box}`);
        assert.deepEqual(model.boxes, state.boxes);
      }
      assert.deepEqual(complete(state).events, [], 'the unit is over');
    }
  });
});
