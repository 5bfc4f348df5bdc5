import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { rainDiamondsRules } from '../../../src/games/rain-diamonds';
import type { RainDiamondsEvent, RainDiamondsScenario, RainDiamondsState } from '../../../src/games/rain-diamonds';
import { playThrough } from '../../../src/games/rain-diamonds/evaluator';
import type { Refusal, Step } from '../../../src/games/types';
import { PRIZES, STAKE, scenarioOf, seedOf } from './helpers';

const rules = rainDiamondsRules;
type Result = Step<RainDiamondsState, RainDiamondsEvent> | Refusal;

/** Column 0 loses its two blues: the reds fall and the queue's first gem enters lowest. */
const FALLING = scenarioOf(
  [
    'red blue red blue',
    'green green orange orange',
    'violet violet white white',
    'yellow yellow orange orange',
    'green violet white yellow',
  ],
  ['green yellow', '', '', '', ''],
  'blue blue blue blue blue',
);

/** A reveal of a hand-written scenario (start() would generate one). */
function stateFor(scenario: RainDiamondsScenario, prize: number): RainDiamondsState {
  const { state } = rules.start({ stake: STAKE, prize: 0 }, seedOf('any'), undefined);
  return { ...state, scenario, grid: scenario.grid, prize };
}

function ok(result: Result): Step<RainDiamondsState, RainDiamondsEvent> {
  if (!result.ok) throw new Error(`refused: ${result.code}`);
  return result;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Raw client inputs, valid or not, as the room would receive them. */
const rawAction = fc.oneof(
  fc.record({ type: fc.constant('open'), box: fc.integer({ min: -2, max: 6 }) }),
  fc.record({ type: fc.constant('open'), box: fc.integer({ min: 0, max: 4 }) }),
  fc.constant({ type: 'auto' }),
  fc.constantFrom<unknown>(null, 'open', { type: 'open' }, { type: 'open', box: '1' }, { type: 'open', box: 1.5 }, { type: 'rub' }, []),
);
const unit = fc.record({
  seed: fc.uint8Array({ minLength: 32, maxLength: 32 }),
  prize: fc.constantFrom(...PRIZES),
});

/** Plays raw inputs from start, returning every event and the last state. */
function play(seed: Uint8Array, prize: number, inputs: readonly unknown[]) {
  const first = rules.start({ stake: STAKE, prize }, seed, undefined);
  let state = deepFreeze(first.state);
  const events: RainDiamondsEvent[] = [...first.events];
  for (const input of inputs) {
    const parsed = rules.parseAction(input);
    if (!parsed.ok) continue;
    const result = rules.reduce(state, parsed.value);
    if (!result.ok) continue;
    state = deepFreeze(result.state);
    events.push(...result.events);
  }
  return { state, events };
}

/** What a legal state looks like, whatever happened before. */
function assertLegal(state: RainDiamondsState): void {
  assert.equal(state.grid.length, 5);
  for (const column of state.grid) assert.equal(column.length, 4);
  const opened = state.boxes.filter((b) => b !== null).length;
  assert.equal(opened, state.openOrder.length);
  assert.equal(new Set(state.openOrder).size, opened);
  state.openOrder.forEach((box, k) => assert.equal(state.boxes[box], state.scenario.boxes[k]));
  assert.equal(state.finished, opened === 5);
  for (const n of Object.values(state.collected)) assert.ok(n <= 6);
  state.queueUsed.forEach((n, col) => assert.ok(n <= state.scenario.queues[col]!.length));
}

describe('rain-diamonds reducer', () => {
  it('shows the whole grid at purchase and nothing else', () => {
    const { state, events } = rules.start({ stake: STAKE, prize: 500 }, seedOf('start'), undefined);
    assert.deepEqual(events, [{ type: 'grid_shown', grid: state.scenario.grid }]);
    assert.deepEqual(state.boxes, [null, null, null, null, null]);
  });

  it('shows the first colour under whichever box is clicked first, then collects, drops and refills', () => {
    const { state, events } = ok(rules.reduce(stateFor(FALLING, 0), { type: 'open', box: 3 }));
    assert.deepEqual(events, [
      { type: 'box_opened', box: 3, colour: 'blue', order: 1 },
      { type: 'gems_collected', colour: 'blue', cells: [{ col: 0, row: 1 }, { col: 0, row: 3 }], total: 2 },
      { type: 'gems_fell', moves: [{ col: 0, fromRow: 2, toRow: 3 }, { col: 0, fromRow: 0, toRow: 2 }] },
      { type: 'gems_entered', cells: [{ col: 0, row: 1, colour: 'green' }, { col: 0, row: 0, colour: 'yellow' }] },
    ]);
    assert.deepEqual(state.grid[0], ['yellow', 'green', 'red', 'red']);
    assert.deepEqual(state.boxes, [null, null, null, 'blue', null]);
  });

  it('reports a box that collects nothing, and ends with the prize after the fifth box', () => {
    const { events } = ok(rules.reduce(stateFor(FALLING, 0), { type: 'auto' }));
    assert.deepEqual(events.slice(4, 6), [
      { type: 'box_opened', box: 1, colour: 'blue', order: 2 },
      { type: 'gems_collected', colour: 'blue', cells: [], total: 2 },
    ]);
    assert.deepEqual(events.at(-1), { type: 'finished', prize: 0 });
    assert.equal(events.filter((e) => e.type === 'box_opened').length, 5);
  });

  it('refuses, with a code and no change, an open box, a box out of range, anything after the end, bad input', () => {
    const start = stateFor(FALLING, 0);
    const once = ok(rules.reduce(start, { type: 'open', box: 0 })).state;
    assert.equal((rules.reduce(once, { type: 'open', box: 0 }) as Refusal).code, 'action/already_revealed');
    assert.equal((rules.reduce(once, { type: 'open', box: 5 }) as Refusal).code, 'action/out_of_range');
    assert.equal((rules.reduce(once, { type: 'open', box: -1 }) as Refusal).code, 'action/out_of_range');
    const done = ok(rules.reduce(once, { type: 'auto' })).state;
    assert.equal((rules.reduce(done, { type: 'auto' }) as Refusal).code, 'action/finished');
    assert.equal((rules.reduce(done, { type: 'open', box: 2 }) as Refusal).code, 'action/finished');
    for (const bad of [null, 3, 'auto', {}, { type: 'open' }, { type: 'open', box: '2' }, { type: 'open', box: 0.5 }, { type: 'rub' }]) {
      assert.equal((rules.parseAction(bad) as Refusal).code, 'action/malformed', JSON.stringify(bad));
    }
    assert.deepEqual(rules.parseAction({ type: 'open', box: 4, extra: 1 }), { ok: true, value: { type: 'open', box: 4 } });
    assert.deepEqual(rules.parsePicks(undefined), { ok: true, value: [undefined] });
    assert.equal((rules.parsePicks({ colour: 'blue' }) as Refusal).code, 'picks/not_allowed');
  });

  it('completes a finished reveal with no events, and an unfinished one as AUTO would', () => {
    const start = stateFor(FALLING, 0);
    assert.deepEqual(rules.complete(start), rules.reduce(start, { type: 'auto' }));
    const done = rules.complete(start).state;
    assert.deepEqual(rules.complete(done), { ok: true, state: done, events: [] });
    assert.equal(rules.isFinished(done), true);
    assert.equal(rules.scenarioOf(done), FALLING);
  });

  it('keeps the prize, the state legal and refusals harmless, whatever the player sends', () => {
    fc.assert(
      fc.property(unit, fc.array(rawAction, { maxLength: 12 }), ({ seed, prize }, inputs) => {
        const first = rules.start({ stake: STAKE, prize }, seed, undefined);
        let state = deepFreeze(first.state);
        let finishedEvents = 0;
        for (const input of inputs) {
          const parsed = rules.parseAction(input);
          if (!parsed.ok) continue;
          const before = structuredClone(state);
          const result = rules.reduce(state, parsed.value); // frozen: a mutation would throw
          if (!result.ok) {
            assert.deepEqual(state, before);
            continue;
          }
          state = deepFreeze(result.state);
          assertLegal(state);
          finishedEvents += result.events.filter((e) => e.type === 'finished').length;
        }
        const end = rules.complete(state);
        finishedEvents += end.events.filter((e) => e.type === 'finished').length;
        assert.equal(finishedEvents, 1);
        assert.equal(end.state.finished, true);
        assertLegal(end.state);
        assert.equal(rules.evaluate(end.state.scenario), prize);
        // The reducer's cascade agrees with the evaluator's.
        const totals = playThrough(end.state.scenario).totals;
        assert.deepEqual(Object.values(end.state.collected), totals);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same events from AUTO as opening the rest one by one, from any point', () => {
    fc.assert(
      fc.property(unit, fc.shuffledSubarray([0, 1, 2, 3, 4]), ({ seed, prize }, opened) => {
        const { state } = play(seed, prize, opened.map((box) => ({ type: 'open', box })));
        const auto = rules.complete(state);
        if (!state.finished) assert.deepEqual(ok(rules.reduce(state, { type: 'auto' })), auto);
        let step = state;
        const events: RainDiamondsEvent[] = [];
        for (let box = 0; box < 5; box++) {
          if (step.boxes[box] !== null) continue;
          const r = ok(rules.reduce(step, { type: 'open', box }));
          step = r.state;
          events.push(...r.events);
        }
        assert.deepEqual(events, auto.events);
        assert.deepEqual(step, auto.state);
        // Whichever boxes were clicked, the colours come in the scenario's order and the grid ends the same.
        const plain = rules.complete(rules.start({ stake: STAKE, prize }, seed, undefined).state).state;
        assert.deepEqual(step.grid, plain.grid);
        assert.deepEqual(step.collected, plain.collected);
        assert.deepEqual(step.openOrder.map((b) => step.boxes[b]), state.scenario.boxes);
      }),
      { numRuns: 200 },
    );
  });

  it('replays the same actions from start into the same events (recall)', () => {
    fc.assert(
      fc.property(unit, fc.array(rawAction, { maxLength: 8 }), ({ seed, prize }, inputs) => {
        const a = play(seed, prize, inputs);
        const b = play(seed.slice(), prize, structuredClone(inputs));
        assert.deepEqual(b.events, a.events);
        assert.deepEqual(b.state, a.state);
      }),
      { numRuns: 100 },
    );
  });

  it('never streams a value before it is revealed', () => {
    fc.assert(
      fc.property(unit, fc.array(rawAction, { maxLength: 8 }), ({ seed, prize }, inputs) => {
        const { state, events } = play(seed, prize, [...inputs, { type: 'auto' }]);
        const s = state.scenario;
        const used = [0, 0, 0, 0, 0];
        events.forEach((e, i) => {
          if (e.type !== 'finished') assert.ok(!('prize' in e));
          if (e.type === 'finished') assert.equal(i, events.length - 1);
          if (e.type === 'box_opened') assert.equal(e.colour, s.boxes[e.order - 1]);
          // Entering gems are the next ones of their queue, nothing further.
          if (e.type === 'gems_entered') for (const c of e.cells) assert.equal(c.colour, s.queues[c.col]![used[c.col]!++]);
        });
      }),
      { numRuns: 100 },
    );
  });
  it('lists its cells in the documented order: collected top-down and entered bottom-up, column by column; falls from the lowest gem up', () => {
    /** The list must already be sorted by its key (first number, then second). */
    const inOrder = <T>(list: readonly T[], key: (x: T) => number[]) => {
      const sorted = list.slice().sort((x, y) => {
        const a = key(x), b = key(y);
        return a[0]! - b[0]! || a[1]! - b[1]!;
      });
      assert.deepEqual(list, sorted);
    };
    fc.assert(
      fc.property(unit, ({ seed, prize }) => {
        const { events } = play(seed, prize, [{ type: 'auto' }]);
        for (const e of events) {
          if (e.type === 'gems_collected') inOrder(e.cells, (c) => [c.col, c.row]);
          if (e.type === 'gems_fell') inOrder(e.moves, (m) => [m.col, -m.fromRow]);
          if (e.type === 'gems_entered') inOrder(e.cells, (c) => [c.col, -c.row]);
        }
      }),
      { numRuns: 100 },
    );
  });
});
