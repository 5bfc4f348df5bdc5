import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { mineDOrRules as rules, type MineDOrState, type MineDOrStreamEvent } from '../../../src/games/mine-d-or';
import type { Outcome } from '../../../src/games/types';
import { allOutcomes, seedOf } from './helpers';

const OUTCOMES = allOutcomes();
const outcomeArb = fc.constantFrom(...OUTCOMES);
const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
/** Untrusted client input: valid actions most of the time, junk otherwise. */
const inputArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant<unknown>({ type: 'extra' }) },
  { weight: 2, arbitrary: fc.constant<unknown>({ type: 'auto' }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 'extra', 42, [], { type: 'EXTRA' }, { type: 'extra', stage: 2 }, {}) },
  { weight: 1, arbitrary: fc.anything() },
);

/** A seed with Extra stages, found by trying labels in order (deterministic). */
function seedWithStages(outcome: Outcome, stages: number): Uint8Array {
  for (let i = 0; ; i++) {
    const seed = seedOf(`stages/${outcome.stake}/${outcome.prize}/${stages}/${i}`);
    if (rules.generate(outcome, seed, undefined).grids.length === stages + 1) return seed;
  }
}

/** Every check one state must pass: a legal reveal position and nothing hidden in its view. */
function assertLegal(state: MineDOrState): void {
  const grids = state.scenario.grids.length;
  assert.ok(Number.isInteger(state.revealed) && state.revealed >= 1 && state.revealed <= grids);
  assert.equal(state.finished, state.revealed === grids);
}

/** Runs untrusted inputs from `start`, checking every step; returns the whole event stream. */
function play(outcome: Outcome, seed: Uint8Array, inputs: readonly unknown[]): { state: MineDOrState; events: MineDOrStreamEvent[] } {
  const first = rules.start(outcome, seed, undefined);
  let state = first.state;
  const events = [...first.events];
  assertLegal(state);
  for (const input of inputs) {
    const parsed = rules.parseAction(input);
    if (!parsed.ok) {
      assert.equal(parsed.code, 'action/malformed');
      continue;
    }
    const before = structuredClone(state);
    const step = rules.reduce(state, parsed.value);
    assert.deepEqual(state, before, 'reduce never mutates its input');
    if (!step.ok) {
      assert.match(step.code, /^action\//);
      continue;
    }
    assert.ok(step.events.length > 0);
    state = step.state;
    events.push(...step.events);
    assertLegal(state);
  }
  return { state, events };
}

/** The stream's shape: stages 0..k in order, each once, then `finished` with the prize, once, last. */
function assertStream(outcome: Outcome, state: MineDOrState, events: readonly MineDOrStreamEvent[]): void {
  const finished = events.filter((e) => e.type === 'finished');
  const grids = events.flatMap((e) => (e.type === 'grid_revealed' ? [e] : []));
  assert.deepEqual(grids.map((g) => g.stage), Array.from({ length: state.revealed }, (_, i) => i));
  grids.forEach((g) => assert.deepEqual(g.symbols, state.scenario.grids[g.stage]));
  if (state.finished) {
    assert.deepEqual(finished, [{ type: 'finished', prize: outcome.prize }]);
    assert.equal(events.at(-1)?.type, 'finished');
    assert.equal(grids.reduce((sum, g) => sum + g.gain, 0), outcome.prize);
  } else {
    assert.equal(finished.length, 0);
  }
}

function autoStream(outcome: Outcome, seed: Uint8Array): MineDOrStreamEvent[] {
  const first = rules.start(outcome, seed, undefined);
  if (first.state.finished) return [...first.events];
  const auto = rules.reduce(first.state, { type: 'auto' });
  assert.ok(auto.ok);
  return [...first.events, ...auto.events];
}

describe('mine-d-or reducer', () => {
  it('shows the main grid at purchase, and ends at once when it holds no EXTRA', () => {
    const outcome = { stake: 50, prize: 500 };
    const step = rules.start(outcome, seedWithStages(outcome, 0), undefined);
    assert.deepEqual(step.events.map((e) => e.type), ['grid_revealed', 'finished']);
    assert.ok(rules.isFinished(step.state));
    assert.deepEqual(step.events[1], { type: 'finished', prize: 500 });
  });

  it('reveals one Extra stage per press of EXTRA, then the prize after the last one', () => {
    const outcome = { stake: 100, prize: 2000 };
    const first = rules.start(outcome, seedWithStages(outcome, 2), undefined);
    assert.deepEqual(first.events.map((e) => e.type), ['grid_revealed']);
    const e0 = first.events[0]!;
    assert.ok(e0.type === 'grid_revealed' && e0.stage === 0 && e0.extrasEarned >= 1);
    const one = rules.reduce(first.state, { type: 'extra' });
    assert.ok(one.ok);
    assert.deepEqual(one.events.map((e) => e.type), ['grid_revealed']);
    assert.equal((one.events[0] as { extrasPending: number }).extrasPending, 1);
    const two = rules.reduce(one.state, { type: 'extra' });
    assert.ok(two.ok);
    assert.deepEqual(two.events.map((e) => e.type), ['grid_revealed', 'finished']);
    assert.deepEqual(two.events[1], { type: 'finished', prize: 2000 });
  });

  it('refuses with a stated code and changes nothing: malformed, no Extra left, finished, picks', () => {
    assert.deepEqual(rules.parseAction({ type: 'rub' }), { ok: false, code: 'action/malformed', message: 'type must be "extra" or "auto"' });
    assert.equal((rules.parseAction('extra') as { code: string }).code, 'action/malformed');
    assert.equal((rules.parseAction({ type: 'extra', stage: 1 }) as { code: string }).code, 'action/malformed');
    const { state } = rules.start({ stake: 50, prize: 0 }, seedWithStages({ stake: 50, prize: 0 }, 0), undefined);
    const extra = rules.reduce(state, { type: 'extra' });
    assert.equal(!extra.ok && extra.code, 'action/no_extra_left');
    const auto = rules.reduce(state, { type: 'auto' });
    assert.equal(!auto.ok && auto.code, 'action/finished');
    assert.deepEqual(rules.parsePicks(undefined), { ok: true, value: [undefined] });
    assert.deepEqual(rules.parsePicks(null), { ok: true, value: [undefined] });
    assert.equal((rules.parsePicks({ symbol: 'pepite' }) as { code: string }).code, 'picks/not_allowed');
  });

  it('never changes the prize nor reaches an illegal state, whatever the player sends', () => {
    fc.assert(
      fc.property(outcomeArb, seedArb, fc.array(inputArb, { maxLength: 12 }), (outcome, seed, inputs) => {
        const { state, events } = play(outcome, seed, inputs);
        assertStream(outcome, state, events);
        const done = rules.complete(state);
        const all = [...events, ...done.events];
        assert.ok(rules.isFinished(done.state));
        assertStream(outcome, done.state, all);
        assert.equal(rules.evaluate(rules.scenarioOf(done.state)!), outcome.prize);
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same events with AUTO from any point as step by step, and complete() as AUTO', () => {
    fc.assert(
      fc.property(outcomeArb, seedArb, fc.nat(5), (outcome, seed, steps) => {
        const stepwise = play(outcome, seed, Array.from({ length: 6 }, () => ({ type: 'extra' })));
        assert.ok(stepwise.state.finished);
        const mixed = play(outcome, seed, [...Array.from({ length: steps }, () => ({ type: 'extra' })), { type: 'auto' }]);
        assert.deepEqual(mixed.events, stepwise.events);
        assert.deepEqual(autoStream(outcome, seed), stepwise.events);
        const partial = play(outcome, seed, Array.from({ length: steps }, () => ({ type: 'extra' })));
        const completed = rules.complete(partial.state);
        assert.deepEqual([...partial.events, ...completed.events], stepwise.events);
        assert.deepEqual(completed.state, stepwise.state);
      }),
      { numRuns: 300 },
    );
  });

  it('replays identically from start and the stored actions (recall)', () => {
    fc.assert(
      fc.property(outcomeArb, seedArb, fc.array(inputArb, { maxLength: 8 }), (outcome, seed, inputs) => {
        const a = play(outcome, seed, inputs);
        const b = play(outcome, seed, inputs);
        assert.deepEqual(b.events, a.events);
        assert.deepEqual(b.state, a.state);
      }),
      { numRuns: 200 },
    );
  });

  it('complete() on a finished unit gives no events and the same state', () => {
    const { state } = rules.complete(rules.start({ stake: 200, prize: 400 }, seedOf('done'), undefined).state);
    const again = rules.complete(state);
    assert.equal(again.state, state);
    assert.deepEqual(again.events, []);
  });

  it('streams nothing hidden: a grid only when shown, the prize only at the end', () => {
    const outcome = { stake: 50, prize: 375_000 };
    const first = rules.start(outcome, seedWithStages(outcome, 3), undefined);
    assert.deepEqual(first.events.map((e) => e.type), ['grid_revealed']);
    const shown = first.events[0]!;
    assert.ok(shown.type === 'grid_revealed' && shown.stage === 0 && shown.extrasPending >= 1);
    assert.equal(first.state.revealed, 1);
    // Each press shows exactly the next grid, nothing of the ones after it.
    const next = rules.reduce(first.state, { type: 'extra' });
    assert.ok(next.ok);
    assert.deepEqual(next.events.map((e) => (e.type === 'grid_revealed' ? e.stage : e.type)), [1]);
  });
  it('lists combinations best symbol first, each with its cells increasing', () => {
    const best = ['pepite', 'diamant', 'billet', 'bougie', 'cactus', 'pioche'];
    fc.assert(
      fc.property(outcomeArb, seedArb, (outcome, seed) => {
        const { events } = rules.complete(rules.start(outcome, seed, undefined).state);
        const shown = [...rules.start(outcome, seed, undefined).events, ...events];
        for (const e of shown) {
          if (e.type !== 'grid_revealed') continue;
          const order = e.combinations.map((c) => best.indexOf(c.symbol));
          assert.deepEqual(order, order.slice().sort((a, b) => a - b));
          for (const c of e.combinations) assert.deepEqual(c.cells, c.cells.slice().sort((a, b) => a - b));
        }
      }),
      { numRuns: 300 },
    );
  });
});
