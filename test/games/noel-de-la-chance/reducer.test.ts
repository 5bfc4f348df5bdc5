import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { noelRules } from '../../../src/games/noel-de-la-chance';
import { GAME_SYMBOLS, type NoelAction, type NoelState, type NoelStreamEvent } from '../../../src/games/noel-de-la-chance/scenario';
import type { Outcome, Refusal, Step } from '../../../src/games/types';
import { allOutcomes, seedOf } from './helpers';
import { frozen, refused } from '../support';

const rules = noelRules;
type AnyStep = Step<NoelState, NoelStreamEvent>;

function started(outcome: Outcome, label = 'reducer'): NoelState {
  return rules.start(outcome, seedOf(label), undefined).state;
}

function ok(result: AnyStep | Refusal): AnyStep {
  if (!result.ok) assert.fail(`refused: ${result.code}`);
  return result;
}

/** The invariants of a state: a scenario exactly when finished, and it pays the dealt prize. */
function assertLegal(state: NoelState): void {
  assert.ok(state.phase === 'pick' || state.phase === 'finished');
  if (state.phase === 'pick') {
    assert.equal(state.scenario, undefined);
  } else {
    const s = state.scenario;
    assert.ok(s);
    assert.equal(rules.evaluate(s), state.outcome.prize);
    assert.deepEqual(rules.ruleViolations(s), []);
  }
}

describe('noel-de-la-chance reducer', () => {
  it('starts by offering the three game symbols, with nothing revealed', () => {
    const step = rules.start({ stake: 100, prize: 2_000 }, seedOf('start'), undefined);
    assert.deepEqual(step.events, [{ type: 'symbols_offered', symbols: ['star', 'bell', 'gift'] }]);
    assert.equal(rules.isFinished(step.state), false);
    assert.equal(rules.scenarioOf(step.state), undefined);
    assert.equal(step.state.phase, 'pick');
  });

  it('reveals the pick, the 18 cells in reading order, then the prize, in one step', () => {
    const state = started({ stake: 50, prize: 250 });
    const step = ok(rules.reduce(state, { type: 'pick', symbol: 'bell' }));
    const events = step.events;
    assert.equal(events.length, 20);
    assert.deepEqual(events[0], { type: 'symbol_picked', symbol: 'bell' });
    const scenario = rules.scenarioOf(step.state)!;
    for (let i = 0; i < 18; i++) {
      assert.deepEqual(events[i + 1], { type: 'cell_revealed', row: Math.floor(i / 6), col: i % 6, symbol: scenario.cells[i] });
    }
    assert.deepEqual(events[19], { type: 'finished', prize: 250 });
    assert.equal(scenario.cells.filter((c) => c === 'bell').length, 6);
    assert.equal(rules.isFinished(step.state), true);
    assert.equal(step.state.phase, 'finished');
  });

  it('pays the dealt prize whichever symbol is picked', () => {
    for (const outcome of allOutcomes()) {
      for (const symbol of GAME_SYMBOLS) {
        const step = ok(rules.reduce(started(outcome, `any ${outcome.stake} ${outcome.prize}`), { type: 'pick', symbol }));
        assert.deepEqual(step.events.at(-1), { type: 'finished', prize: outcome.prize });
      }
    }
  });

  describe('refusals', () => {
    const state = frozen(started({ stake: 200, prize: 0 }));
    const done = frozen(ok(rules.reduce(state, { type: 'pick', symbol: 'gift' })).state);

    it('refuses AUTO before the pick (action/pick_required): the rules make the player choose', () => {
      refused(rules.reduce(state, { type: 'auto' }), 'action/pick_required');
    });
    it('refuses a second pick (action/already_picked)', () => {
      refused(rules.reduce(done, { type: 'pick', symbol: 'star' }), 'action/already_picked');
    });
    it('refuses anything else once revealed (action/finished)', () => {
      refused(rules.reduce(done, { type: 'auto' }), 'action/finished');
    });
    it('refuses a symbol that is not offered (action/out_of_range)', () => {
      refused(rules.parseAction({ type: 'pick', symbol: 'holly' }), 'action/out_of_range');
      refused(rules.reduce(state, { type: 'pick', symbol: 'reindeer' } as unknown as NoelAction), 'action/out_of_range');
    });
    it('refuses malformed actions (action/malformed)', () => {
      for (const input of [null, 3, 'pick', [], {}, { type: 'reveal' }, { type: 'pick' }, { type: 'pick', symbol: 2 }]) {
        refused(rules.parseAction(input), 'action/malformed');
      }
      refused(rules.reduce(state, { type: 'open' } as unknown as NoelAction), 'action/malformed');
    });
    it('accepts no picks at purchase (picks/not_allowed)', () => {
      assert.deepEqual(rules.parsePicks(undefined), { ok: true, value: [undefined] });
      assert.deepEqual(rules.parsePicks(null), { ok: true, value: [undefined] });
      refused(rules.parsePicks({ symbol: 'star' }), 'picks/not_allowed');
    });
    it('parses valid actions into clean objects', () => {
      assert.deepEqual(rules.parseAction({ type: 'pick', symbol: 'star', extra: 1 }), { ok: true, value: { type: 'pick', symbol: 'star' } });
      assert.deepEqual(rules.parseAction({ type: 'auto' }), { ok: true, value: { type: 'auto' } });
    });
  });

  it('throws at start for an outcome the game cannot present or a bad seed', () => {
    assert.throws(() => rules.start({ stake: 50, prize: 100_000 }, seedOf('x'), undefined));
    assert.throws(() => rules.start({ stake: 50, prize: 0 }, new Uint8Array(16), undefined));
  });

  it('completes an unpicked unit with a symbol drawn from the seed, as if the player had picked it', () => {
    for (const outcome of allOutcomes()) {
      const state = started(outcome, `complete ${outcome.stake} ${outcome.prize}`);
      const done = rules.complete(state);
      const first = done.events[0];
      assert.ok(first && first.type === 'symbol_picked');
      assert.deepEqual(done, rules.reduce(state, { type: 'pick', symbol: first.symbol }));
      assert.deepEqual(rules.complete(done.state), { ok: true, state: done.state, events: [] });
    }
  });

  it('draws the completion symbol from the seed, so all three occur', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const first = rules.complete(started({ stake: 50, prize: 0 }, `pick ${i}`)).events[0];
      if (first?.type === 'symbol_picked') seen.add(first.symbol);
    }
    assert.equal(seen.size, 3);
  });
});

describe('noel-de-la-chance reducer properties', () => {
  const outcomeArb = fc.constantFrom(...allOutcomes());
  const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
  const symbolArb = fc.constantFrom(...GAME_SYMBOLS);
  const actionArb: fc.Arbitrary<unknown> = fc.oneof(
    symbolArb.map((symbol) => ({ type: 'pick', symbol })),
    fc.constant({ type: 'auto' }),
    fc.record({ type: fc.constant('pick'), symbol: fc.oneof(fc.string(), fc.integer(), fc.constant('holly')) }),
    fc.record({ type: fc.string() }),
    fc.anything(),
  );
  const actionsArb = fc.array(actionArb, { maxLength: 6 });

  /** Plays raw inputs through parseAction + reduce; returns the states and all events. */
  function play(outcome: Outcome, seed: Uint8Array, inputs: unknown[]) {
    let state = frozen(rules.start(outcome, seed, undefined).state);
    const events: NoelStreamEvent[] = [];
    const states = [state];
    for (const input of inputs) {
      const parsed = rules.parseAction(input);
      // Both paths are checked: parsed actions, and raw input straight into reduce.
      const result = rules.reduce(state, (parsed.ok ? parsed.value : input) as NoelAction);
      if (result.ok) {
        state = frozen(result.state);
        events.push(...result.events);
      } else if (!parsed.ok) {
        assert.equal(result.code, parsed.code);
      }
      assertLegal(state);
      states.push(state);
    }
    return { state, events, states };
  }

  it('keeps the dealt prize and a legal state whatever the actions, and refusals change nothing', () => {
    fc.assert(
      fc.property(outcomeArb, seedArb, actionsArb, (outcome, seed, inputs) => {
        let state = frozen(rules.start(outcome, seed, undefined).state);
        for (const input of inputs) {
          const before = JSON.stringify(state);
          const result = rules.reduce(state, input as NoelAction);
          if (!result.ok) {
            assert.match(result.code, /^action\//);
            assert.equal(JSON.stringify(state), before);
          } else {
            state = frozen(result.state);
          }
          assertLegal(state);
        }
        const { state: end, events } = play(outcome, seed, inputs);
        const finished = [...events, ...rules.complete(end).events].filter((e) => e.type === 'finished');
        assert.deepEqual(finished, [{ type: 'finished', prize: outcome.prize }]);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same prize and the same cells by completing as by picking step by step', () => {
    fc.assert(
      fc.property(outcomeArb, seedArb, actionsArb, (outcome, seed, inputs) => {
        const { state, events } = play(outcome, seed, inputs);
        const completed = rules.complete(state);
        const all = [...events, ...completed.events];
        const picked = all.find((e) => e.type === 'symbol_picked');
        assert.ok(picked && picked.type === 'symbol_picked');
        // Step by step: the same symbol picked from a fresh start gives the same stream.
        const fresh = ok(rules.reduce(rules.start(outcome, seed, undefined).state, { type: 'pick', symbol: picked.symbol }));
        assert.deepEqual(all, fresh.events);
        assert.deepEqual(completed.state, fresh.state);
        // Once finished, AUTO and complete add nothing.
        refused(rules.reduce(completed.state, { type: 'auto' }), 'action/finished');
        assert.deepEqual(rules.complete(completed.state).events, []);
      }),
      { numRuns: 200 },
    );
  });

  it('replays the same actions from start into the same events (recall)', () => {
    fc.assert(
      fc.property(outcomeArb, seedArb, actionsArb, (outcome, seed, inputs) => {
        const a = play(outcome, seed, inputs);
        const b = play(outcome, seed, inputs);
        assert.deepEqual(a.events, b.events);
        assert.deepEqual(a.states, b.states);
      }),
      { numRuns: 200 },
    );
  });

  it('shows nothing hidden before the pick: the same three symbols offered, whatever the unit', () => {
    fc.assert(
      fc.property(outcomeArb, seedArb, (outcome, seed) => {
        const step = rules.start(outcome, seed, undefined);
        assert.deepEqual(step.events, [{ type: 'symbols_offered', symbols: ['star', 'bell', 'gift'] }]);
      }),
      { numRuns: 100 },
    );
  });
});
