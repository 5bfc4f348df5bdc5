import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  lampeRules,
  type LampAction,
  type LampChoice,
  type LampState,
  type LampStreamEvent,
} from '../../../src/games/mysteres-de-la-lampe';
import { PRIZES, STAKE, seedOf } from './helpers';

const rules = lampeRules;
const red: LampChoice = { kind: 'colour', choice: 'red' };

function begin(prize: number, picks: LampChoice = red, label = 'lampe/reducer') {
  return rules.start({ stake: STAKE, prize }, seedOf(`${label}/${prize}`), picks);
}

/** Applies actions, keeping the refusals aside; throws if a refusal touched the state. */
function play(state: LampState, actions: readonly LampAction[]) {
  const events: LampStreamEvent[] = [];
  const refusals: string[] = [];
  for (const action of actions) {
    const before = structuredClone(state);
    const step = rules.reduce(state, action);
    assert.deepEqual(state, before, 'reduce never mutates its input');
    if (!step.ok) {
      refusals.push(step.code);
      continue;
    }
    state = step.state;
    events.push(...step.events);
  }
  return { state, events, refusals };
}

function assertLegal(state: LampState, prize: number): void {
  assert.ok(Number.isInteger(state.progress) && state.progress >= 0 && state.progress <= 100);
  assert.equal(state.prize, prize);
  assert.deepEqual(rules.ruleViolations(state.scenario), []);
  assert.equal(rules.evaluate(state.scenario), prize);
}

const outcomeArb = fc.record({ prize: fc.constantFrom(...PRIZES), stake: fc.constant(STAKE) });
const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
const picksArb = fc.constantFrom(...rules.choiceSpace);
/** Valid rubs, AUTO, and values a confused client (or a bug) could hand to reduce. */
const actionArb: fc.Arbitrary<LampAction> = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 100 }).map((progress) => ({ type: 'rub' as const, progress })), weight: 8 },
  { arbitrary: fc.constant({ type: 'auto' as const }), weight: 1 },
  {
    arbitrary: fc
      .oneof(fc.integer({ min: -5, max: 0 }), fc.integer({ min: 101, max: 200 }), fc.double({ noInteger: true }))
      .map((progress) => ({ type: 'rub' as const, progress })),
    weight: 1,
  },
);

describe('mysteres-de-la-lampe reducer', () => {
  it('shows the pick and its potential gain at start, and nothing else', () => {
    const step = begin(700, { kind: 'symbol', choice: 'moon' });
    assert.deepEqual(step.events, [{ type: 'potential_gain_shown', pick: { kind: 'symbol', choice: 'moon' }, amount: 700 }]);
    assert.equal(step.state.progress, 0);
    assert.equal(rules.isFinished(step.state), false);
  });

  it('streams rub progress and opens the lamp at 100 %', () => {
    const { state, events } = play(begin(200).state, [
      { type: 'rub', progress: 10 },
      { type: 'rub', progress: 55 },
      { type: 'rub', progress: 100 },
    ]);
    assert.deepEqual(events, [
      { type: 'rub_progress', progress: 10 },
      { type: 'rub_progress', progress: 55 },
      { type: 'rub_progress', progress: 100 },
      { type: 'lamp_opened', result: 'red' },
      { type: 'finished', prize: 200 },
    ]);
    assert.ok(rules.isFinished(state));
  });

  it('rubs to the end at once on AUTO', () => {
    const step = rules.reduce(begin(0).state, { type: 'auto' });
    assert.ok(step.ok);
    assert.equal(step.events.length, 3);
    assert.deepEqual(step.events[0], { type: 'rub_progress', progress: 100 });
    assert.equal(step.events[1]?.type, 'lamp_opened');
    assert.notEqual((step.events[1] as { result: string }).result, 'red');
    assert.deepEqual(step.events[2], { type: 'finished', prize: 0 });
  });

  it('refuses to rub backwards or in place', () => {
    const state = play(begin(50).state, [{ type: 'rub', progress: 40 }]).state;
    for (const progress of [40, 39, 1]) {
      const step = rules.reduce(state, { type: 'rub', progress });
      assert.ok(!step.ok && step.code === 'action/rub_backwards');
    }
  });

  it('refuses any action once the lamp is open', () => {
    const state = play(begin(50).state, [{ type: 'auto' }]).state;
    for (const action of [{ type: 'auto' }, { type: 'rub', progress: 100 }] as LampAction[]) {
      const step = rules.reduce(state, action);
      assert.ok(!step.ok && step.code === 'action/finished');
    }
  });

  it('refuses a progress out of 1..100 even if it skipped parsing', () => {
    const state = begin(50).state;
    for (const progress of [0, -1, 101, 2.5, Number.NaN]) {
      const step = rules.reduce(state, { type: 'rub', progress });
      assert.ok(!step.ok && step.code === 'action/out_of_range', String(progress));
    }
    const step = rules.reduce(state, { type: 'scratch' } as unknown as LampAction);
    assert.ok(!step.ok && step.code === 'action/malformed');
  });

  it('completes a unit left alone as AUTO would, and does nothing on a finished one', () => {
    const state = play(begin(5_000).state, [{ type: 'rub', progress: 30 }]).state;
    const done = rules.complete(state);
    assert.deepEqual(done, rules.reduce(state, { type: 'auto' }));
    const again = rules.complete(done.state);
    assert.equal(again.state, done.state);
    assert.deepEqual(again.events, []);
  });

  it('gives the scenario for recall and audit', () => {
    const step = begin(100);
    assert.deepEqual(rules.scenarioOf(step.state), rules.generate({ stake: STAKE, prize: 100 }, seedOf('lampe/reducer/100'), red));
  });
});

describe('mysteres-de-la-lampe parsing', () => {
  it('accepts every pick of the choice space as one unit', () => {
    for (const c of rules.choiceSpace) assert.deepEqual(rules.parsePicks(JSON.parse(JSON.stringify([c]))), { ok: true, value: [c] });
  });

  it('accepts a colour and a symbol together as two units, in the order sent', () => {
    const colour = { kind: 'colour', choice: 'gold' } as const;
    const symbol = { kind: 'symbol', choice: 'moon' } as const;
    assert.deepEqual(rules.parsePicks([colour, symbol]), { ok: true, value: [colour, symbol] });
    assert.deepEqual(rules.parsePicks([symbol, colour]), { ok: true, value: [symbol, colour] });
  });

  it('refuses a purchase that is not a list of one or two picks, or two of a kind (picks/malformed)', () => {
    const red = { kind: 'colour', choice: 'red' };
    const blue = { kind: 'colour', choice: 'blue' };
    const star = { kind: 'symbol', choice: 'star' };
    for (const input of [undefined, null, red, [], [red, star, blue], [red, blue], [star, star], 'red']) {
      const parsed = rules.parsePicks(input);
      assert.ok(!parsed.ok && parsed.code === 'picks/malformed', JSON.stringify(input));
    }
  });

  it('refuses malformed picks', () => {
    for (const input of [
      'red',
      ['colour', 'red'],
      {},
      { kind: 'colour' },
      { kind: 'shape', choice: 'red' },
      { kind: 'colour', choice: 3 },
      { kind: 'colour', choice: 'red', extra: 1 },
    ]) {
      const parsed = rules.parsePicks([input]);
      assert.ok(!parsed.ok && parsed.code === 'picks/malformed', JSON.stringify(input));
    }
  });

  it('refuses a colour or symbol that is not offered', () => {
    for (const input of [
      { kind: 'colour', choice: 'purple' },
      { kind: 'colour', choice: 'star' },
      { kind: 'symbol', choice: 'red' },
      { kind: 'symbol', choice: 'toString' },
    ]) {
      const parsed = rules.parsePicks([input]);
      assert.ok(!parsed.ok && parsed.code === 'picks/out_of_range', JSON.stringify(input));
    }
  });

  it('accepts rub and auto actions', () => {
    assert.deepEqual(rules.parseAction({ type: 'auto' }), { ok: true, value: { type: 'auto' } });
    assert.deepEqual(rules.parseAction({ type: 'rub', progress: 1 }), { ok: true, value: { type: 'rub', progress: 1 } });
    assert.deepEqual(rules.parseAction({ type: 'rub', progress: 100 }), { ok: true, value: { type: 'rub', progress: 100 } });
  });

  it('refuses malformed actions', () => {
    for (const input of [
      null,
      42,
      'auto',
      [],
      {},
      { type: 'open' },
      { type: 'rub' },
      { type: 'rub', progress: '50' },
      { type: 'rub', progress: 50.5 },
      { type: 'rub', progress: 50, speed: 2 },
      { type: 'auto', progress: 100 },
    ]) {
      const parsed = rules.parseAction(input);
      assert.ok(!parsed.ok && parsed.code === 'action/malformed', JSON.stringify(input));
    }
  });

  it('refuses a progress outside 1..100', () => {
    for (const progress of [0, -3, 101, 1e9]) {
      const parsed = rules.parseAction({ type: 'rub', progress });
      assert.ok(!parsed.ok && parsed.code === 'action/out_of_range', String(progress));
    }
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        rules.parseAction(input);
        rules.parsePicks(input);
      }),
    );
  });
});

describe('mysteres-de-la-lampe reducer properties', () => {
  it('keeps the dealt prize and a legal state whatever the actions, and refusals change nothing', () => {
    fc.assert(
      fc.property(outcomeArb, seedArb, picksArb, fc.array(actionArb, { maxLength: 30 }), (outcome, seed, picks, actions) => {
        const start = rules.start(outcome, seed, picks);
        let state = start.state;
        let finished = 0;
        for (const action of actions) {
          const before = structuredClone(state);
          const step = rules.reduce(state, action);
          if (!step.ok) {
            assert.deepEqual(state, before);
            continue;
          }
          assertLegal(step.state, outcome.prize);
          assert.ok(step.state.progress > state.progress, 'progress only moves forward');
          for (const e of step.events) {
            if (e.type === 'finished') {
              finished++;
              assert.equal(e.prize, outcome.prize);
              assert.equal(e, step.events[step.events.length - 1], 'finished comes last');
            }
            if (!rules.isFinished(step.state)) {
              assert.ok(!('result' in e) && !('prize' in e), 'nothing hidden leaks before the lamp opens');
            }
          }
          state = step.state;
        }
        assert.ok(finished <= 1);
        assert.equal(finished === 1, rules.isFinished(state));
      }),
      { numRuns: 300 },
    );
  });

  it('ends the same with AUTO from any point as rubbing step by step', () => {
    fc.assert(
      fc.property(
        outcomeArb,
        seedArb,
        picksArb,
        fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { maxLength: 10 }).map((xs) => xs.sort((a, b) => a - b)),
        fc.nat(10),
        (outcome, seed, picks, steps, cut) => {
          const s0 = rules.start(outcome, seed, picks).state;
          const rubs: LampAction[] = steps.map((progress) => ({ type: 'rub', progress }));
          const stepwise = play(s0, [...rubs, { type: 'rub', progress: 100 }]);
          const prefix = play(s0, rubs.slice(0, cut));
          const auto = play(prefix.state, [{ type: 'auto' }]);
          assert.deepEqual(stepwise.refusals, []);
          assert.deepEqual(auto.refusals, []);
          // Same ending events (the lamp's result, the prize) and the same revealed values.
          assert.deepEqual(auto.events, stepwise.events.slice(-3));
          assert.deepEqual(auto.state, stepwise.state);
          assert.deepEqual(stepwise.events.at(-1), { type: 'finished', prize: outcome.prize });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('completes from any state with the dealt prize', () => {
    fc.assert(
      fc.property(outcomeArb, seedArb, picksArb, fc.array(actionArb, { maxLength: 10 }), (outcome, seed, picks, actions) => {
        const { state, events } = play(rules.start(outcome, seed, picks).state, actions);
        const done = rules.complete(state);
        assert.ok(rules.isFinished(done.state));
        const all = [...events, ...done.events];
        assert.deepEqual(all.filter((e) => e.type === 'finished'), [{ type: 'finished', prize: outcome.prize }]);
        assert.equal(all.at(-1)?.type, 'finished');
      }),
      { numRuns: 300 },
    );
  });

  it('replays the same actions from start into the same events (recall)', () => {
    fc.assert(
      fc.property(outcomeArb, seedArb, picksArb, fc.array(actionArb, { maxLength: 15 }), (outcome, seed, picks, actions) => {
        const run = () => {
          const s = rules.start(outcome, seed.slice(), picks);
          const p = play(s.state, actions);
          return { start: s.events, ...p };
        };
        assert.deepEqual(run(), run());
      }),
      { numRuns: 200 },
    );
  });
});
