import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { caratsRules } from '../../../src/games/500000-carats';
import type { CaratsAction, CaratsAnyEvent, CaratsState } from '../../../src/games/500000-carats';
import type { Outcome, Refusal, Step } from '../../../src/games/types';
import { PRIZES, outcomeOf, seedOf } from './helpers';
import { frozen, refused } from '../support';

const rules = caratsRules;
type AnyStep = Step<CaratsState, CaratsAnyEvent>;

function started(prize: number, label = 'reducer'): CaratsState {
  return frozen(rules.start(outcomeOf(prize), seedOf(label), undefined).state);
}

function ok(result: AnyStep | Refusal): AnyStep {
  if (!result.ok) assert.fail(`refused: ${result.code}`);
  frozen(result.state);
  return result;
}

/** A state's invariants: counts agree, nothing of "Vos numéros" before the winning numbers. */
function assertLegal(state: CaratsState, outcome: Outcome): void {
  assert.equal(state.prize, outcome.prize);
  assert.equal(state.revealed.length, 24);
  assert.equal(state.revealedCount, state.revealed.filter(Boolean).length);
  if (!state.winningRevealed) assert.equal(state.revealedCount, 0);
  assert.equal(rules.evaluate(state.scenario), outcome.prize);
}

describe('500000-carats reducer', () => {
  it('starts with no events and nothing shown', () => {
    const step = rules.start(outcomeOf(1_500), seedOf('start'), undefined);
    assert.deepEqual(step.events, []);
    assert.equal(rules.isFinished(step.state), false);
    assert.equal(step.state.winningRevealed, false);
    assert.equal(step.state.revealedCount, 0);
  });

  it('reveals the six winning numbers in one action, then the numbers one by one, then the prize once', () => {
    let state = started(1_500, 'one-by-one');
    const scenario = rules.scenarioOf(state)!;
    let step = ok(rules.reduce(state, { type: 'reveal_winning' }));
    assert.deepEqual(step.events, [{ type: 'winning_numbers_revealed', numbers: scenario.winning }]);
    state = step.state;
    assert.equal(state.winningRevealed, true);
    const shown: CaratsAnyEvent[] = [];
    for (let i = 23; i >= 0; i--) {
      step = ok(rules.reduce(state, { type: 'reveal', index: i }));
      state = step.state;
      shown.push(...step.events);
      const matched = scenario.winning.includes(scenario.numbers[i]!);
      assert.deepEqual(step.events[0], { type: 'number_revealed', index: i, number: scenario.numbers[i], amount: scenario.amounts[i], matched });
    }
    assert.equal(shown.length, 25);
    assert.deepEqual(shown[24], { type: 'finished', prize: 1_500 });
    assert.equal(shown.filter((e) => e.type === 'finished').length, 1);
    // What the player saw adds up to the prize.
    const sum = shown.reduce((s, e) => s + (e.type === 'number_revealed' && e.matched ? e.amount : 0), 0);
    assert.equal(sum, 1_500);
    assert.equal(rules.isFinished(state), true);
  });

  it('reveals a drag across several numbers in the order dragged', () => {
    let state = ok(rules.reduce(started(500, 'drag'), { type: 'reveal_winning' })).state;
    const step = ok(rules.reduce(state, { type: 'reveal_many', indexes: [7, 3, 12] }));
    assert.deepEqual(step.events.map((e) => (e.type === 'number_revealed' ? e.index : -1)), [7, 3, 12]);
    state = step.state;
    assert.equal(state.revealedCount, 3);
    const rest = Array.from({ length: 24 }, (_, i) => i).filter((i) => ![7, 3, 12].includes(i));
    const last = ok(rules.reduce(state, { type: 'reveal_many', indexes: rest }));
    assert.equal(last.events.length, 22);
    assert.deepEqual(last.events[21], { type: 'finished', prize: 500 });
  });

  it('reveals everything with AUTO: the winning numbers first, then the rest in index order', () => {
    const state = started(50_000_000, 'auto');
    const scenario = rules.scenarioOf(state)!;
    const step = ok(rules.reduce(state, { type: 'auto' }));
    assert.equal(step.events.length, 26);
    assert.deepEqual(step.events[0], { type: 'winning_numbers_revealed', numbers: scenario.winning });
    for (let i = 0; i < 24; i++) assert.equal((step.events[i + 1] as { index: number }).index, i);
    assert.deepEqual(step.events[25], { type: 'finished', prize: 50_000_000 });
  });

  it('completes a unit left alone like AUTO, and does nothing to a finished one', () => {
    const state = ok(rules.reduce(started(1_000, 'complete'), { type: 'reveal_winning' })).state;
    const done = rules.complete(state);
    assert.deepEqual(done, rules.reduce(state, { type: 'auto' }));
    assert.equal(rules.isFinished(done.state), true);
    const again = rules.complete(done.state);
    assert.equal(again.state, done.state);
    assert.deepEqual(again.events, []);
  });

  describe('refusals', () => {
    it('refuses "Vos numéros" before the winning numbers (action/not_allowed_now)', () => {
      const state = started(0);
      refused(rules.reduce(state, { type: 'reveal', index: 0 }), 'action/not_allowed_now');
      refused(rules.reduce(state, { type: 'reveal_many', indexes: [0, 1] }), 'action/not_allowed_now');
    });

    it('refuses what is already revealed (action/already_revealed)', () => {
      let state = ok(rules.reduce(started(0), { type: 'reveal_winning' })).state;
      refused(rules.reduce(state, { type: 'reveal_winning' }), 'action/already_revealed');
      state = ok(rules.reduce(state, { type: 'reveal', index: 4 })).state;
      refused(rules.reduce(state, { type: 'reveal', index: 4 }), 'action/already_revealed');
      refused(rules.reduce(state, { type: 'reveal_many', indexes: [5, 4] }), 'action/already_revealed');
    });

    it('refuses an index outside 0..23 (action/out_of_range)', () => {
      const state = ok(rules.reduce(started(0), { type: 'reveal_winning' })).state;
      for (const index of [-1, 24, 1e9]) {
        refused(rules.reduce(state, { type: 'reveal', index }), 'action/out_of_range');
        refused(rules.reduce(state, { type: 'reveal_many', indexes: [0, index] }), 'action/out_of_range');
      }
    });

    it('refuses a drag listing a number twice (action/duplicate_index)', () => {
      const state = ok(rules.reduce(started(0), { type: 'reveal_winning' })).state;
      refused(rules.reduce(state, { type: 'reveal_many', indexes: [2, 3, 2] }), 'action/duplicate_index');
    });

    it('refuses anything once finished (action/finished)', () => {
      const state = ok(rules.reduce(started(0), { type: 'auto' })).state;
      for (const action of [{ type: 'auto' }, { type: 'reveal_winning' }, { type: 'reveal', index: 0 }] as CaratsAction[]) {
        refused(rules.reduce(state, action), 'action/finished');
      }
    });

    it('refuses malformed actions (action/malformed)', () => {
      for (const input of [
        null, 3, 'auto', [], {}, { type: 'scratch' }, { type: 'reveal' }, { type: 'reveal', index: '3' },
        { type: 'reveal', index: 1.5 }, { type: 'reveal_many', indexes: [] }, { type: 'reveal_many', indexes: 4 },
        { type: 'reveal_many', indexes: [1, 'x'] }, { type: 'reveal_many', indexes: Array.from({ length: 25 }, (_, i) => i) },
      ]) {
        refused(rules.parseAction(input), 'action/malformed');
      }
      refused(rules.reduce(started(0), { type: 'jump' } as never), 'action/malformed');
    });

    it('parses valid actions into clean objects', () => {
      assert.deepEqual(rules.parseAction({ type: 'reveal_winning', extra: 1 }), { ok: true, value: { type: 'reveal_winning' } });
      assert.deepEqual(rules.parseAction({ type: 'auto' }), { ok: true, value: { type: 'auto' } });
      assert.deepEqual(rules.parseAction({ type: 'reveal', index: 30 }), { ok: true, value: { type: 'reveal', index: 30 } });
      assert.deepEqual(rules.parseAction({ type: 'reveal_many', indexes: [1, 2] }), { ok: true, value: { type: 'reveal_many', indexes: [1, 2] } });
    });

    it('takes no picks at purchase (picks/not_allowed)', () => {
      assert.deepEqual(rules.parsePicks(undefined), { ok: true, value: [undefined] });
      assert.deepEqual(rules.parsePicks(null), { ok: true, value: [undefined] });
      refused(rules.parsePicks({ number: 7 }), 'picks/not_allowed');
    });
  });
});

// Untrusted input as a client could send it: mostly plausible actions, some nonsense.
const rawAction = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ type: 'reveal_winning' }) },
  { weight: 1, arbitrary: fc.constant({ type: 'auto' }) },
  { weight: 8, arbitrary: fc.record({ type: fc.constant('reveal'), index: fc.integer({ min: -2, max: 26 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({ type: fc.constant('reveal_many'), indexes: fc.array(fc.integer({ min: -1, max: 25 }), { maxLength: 6 }) }),
  },
  { weight: 1, arbitrary: fc.anything() },
);
const prizeArb = fc.constantFrom(...PRIZES);
const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });

/** Plays raw inputs through parseAction and reduce, checking every step; the accepted actions. */
function play(outcome: Outcome, seed: Uint8Array, inputs: unknown[]) {
  let state = frozen(rules.start(outcome, seed, undefined).state);
  const accepted: CaratsAction[] = [];
  const events: CaratsAnyEvent[] = [];
  for (const input of inputs) {
    const parsed = rules.parseAction(input);
    if (!parsed.ok) {
      assert.equal(parsed.code, 'action/malformed');
      continue;
    }
    const before = JSON.stringify(state);
    const result = rules.reduce(state, parsed.value);
    assert.equal(JSON.stringify(state), before, 'the input state is never changed');
    if (!result.ok) {
      assert.match(result.code, /^action\//);
      continue;
    }
    accepted.push(parsed.value);
    events.push(...result.events);
    state = frozen(result.state);
    assertLegal(state, outcome);
  }
  return { state, accepted, events };
}

describe('500000-carats reducer properties', () => {
  it('keeps the dealt prize and a legal state whatever the actions, and events tell the truth', () => {
    fc.assert(
      fc.property(prizeArb, seedArb, fc.array(rawAction, { maxLength: 40 }), (prize, seed, inputs) => {
        const outcome = outcomeOf(prize);
        const { state, events } = play(outcome, seed, inputs);
        const end = rules.complete(state);
        const all = [...events, ...end.events];
        const scenario = rules.scenarioOf(end.state)!;
        // One winning-numbers event first, each number once with its true value, one finish last.
        assert.deepEqual(all[0], { type: 'winning_numbers_revealed', numbers: scenario.winning });
        const seen = new Set<number>();
        let sum = 0;
        for (const e of all.slice(1, -1)) {
          assert.equal(e.type, 'number_revealed');
          if (e.type !== 'number_revealed') continue;
          assert.ok(!seen.has(e.index));
          seen.add(e.index);
          assert.equal(e.number, scenario.numbers[e.index]);
          assert.equal(e.amount, scenario.amounts[e.index]);
          assert.equal(e.matched, scenario.winning.includes(e.number));
          if (e.matched) sum += e.amount;
        }
        assert.equal(seen.size, 24);
        assert.equal(sum, prize);
        assert.deepEqual(all.at(-1), { type: 'finished', prize });
        assert.equal(rules.isFinished(end.state), true);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses without changing anything: the same state stays usable and reduces the same way', () => {
    fc.assert(
      fc.property(prizeArb, seedArb, fc.array(rawAction, { maxLength: 30 }), rawAction, (prize, seed, inputs, probe) => {
        const { state } = play(outcomeOf(prize), seed, inputs);
        const parsed = rules.parseAction(probe);
        if (!parsed.ok) return;
        const snapshot = structuredClone(state);
        const result = rules.reduce(state, parsed.value);
        assert.deepEqual(state, snapshot);
        if (!result.ok) assert.deepEqual(rules.complete(state), rules.complete(snapshot));
      }),
      { numRuns: 200 },
    );
  });

  it('gives by AUTO, from any point, exactly the events and state of step-by-step play', () => {
    fc.assert(
      fc.property(prizeArb, seedArb, fc.array(rawAction, { maxLength: 30 }), (prize, seed, inputs) => {
        const { state } = play(outcomeOf(prize), seed, inputs);
        if (rules.isFinished(state)) return;
        const auto = ok(rules.reduce(state, { type: 'auto' }));
        let s = state;
        const events: CaratsAnyEvent[] = [];
        if (!s.winningRevealed) {
          const step = ok(rules.reduce(s, { type: 'reveal_winning' }));
          events.push(...step.events);
          s = step.state;
        }
        for (let i = 0; i < 24; i++) {
          if (s.revealed[i]) continue;
          const step = ok(rules.reduce(s, { type: 'reveal', index: i }));
          events.push(...step.events);
          s = step.state;
        }
        assert.deepEqual(auto.events, events);
        assert.deepEqual(auto.state, s);
      }),
      { numRuns: 200 },
    );
  });

  it('replays the same actions from start into the same events and state (recall)', () => {
    fc.assert(
      fc.property(prizeArb, seedArb, fc.array(rawAction, { maxLength: 40 }), (prize, seed, inputs) => {
        const first = play(outcomeOf(prize), seed, inputs);
        let state = rules.start(outcomeOf(prize), seed, undefined).state;
        const events: CaratsAnyEvent[] = [];
        for (const action of first.accepted) {
          const step = ok(rules.reduce(state, action));
          events.push(...step.events);
          state = step.state;
        }
        assert.deepEqual(events, first.events);
        assert.deepEqual(state, first.state);
      }),
      { numRuns: 200 },
    );
  });
});
