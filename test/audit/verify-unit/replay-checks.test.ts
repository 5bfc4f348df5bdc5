import { strict as assert } from 'node:assert';
import { replayChecks, scoredScenarioCheck } from '../../../src/audit/verify-unit/replay-checks';
import type { RecallRead } from '../../../src/audit/verify-unit/recall-shape';
import { withBrokenRules } from '../../games/support';
import { readExample } from './recalls';

/** What a sentence quotes of a value: its JSON, cut at 160 characters. */
const quoted = (x: unknown) => JSON.stringify(x).slice(0, 160);

const CANNOT_REGENERATE = { id: 'scenario', ok: false, detail: 'the scenario cannot be re-generated: the recorded steps do not replay to the end' };

/** The steps check of the 500 000 CARATS example (a reveal_winning, then 24 reveals) with `change` made to its steps. */
const carats = (change: (steps: any[]) => void) => replayChecks(readExample('500000-carats', (r) => change(r.steps)), 1000).checks.find((c) => c.id === 'steps');

describe('replayChecks (scheme 3)', () => {
  it('replays an untouched lamp unit: the purchase from its pick, every step, the scenario, each said in its sentence', () => {
    const r = readExample('mysteres-de-la-lampe');
    assert.deepEqual(replayChecks(r, 100), {
      checks: [
        { id: 'picks', ok: true, detail: 'the purchase step replays exactly from the picks {"kind":"colour","choice":"red"}' },
        { id: 'steps', ok: true, detail: 'all 5 steps replay exactly from the unit seed and the recorded actions, ending with the prize 100 cents' },
        { id: 'scenario', ok: true, detail: 'the scenario is the one the unit seed generates, and the mysteres-de-la-lampe evaluator scores it 100 cents' },
      ],
      purchaseEvents: r.steps[0]!.events,
    });
  });

  it('says a game without picks takes none, and replays a unit whose purchase step finishes it', () => {
    assert.deepEqual(replayChecks(readExample('mine-d-or'), 100).checks, [
      { id: 'picks', ok: true, detail: 'mine-d-or takes no picks at purchase, and none are recalled' },
      { id: 'steps', ok: true, detail: 'all 1 steps replay exactly from the unit seed and the recorded actions, ending with the prize 100 cents' },
      { id: 'scenario', ok: true, detail: 'the scenario is the one the unit seed generates, and the mine-d-or evaluator scores it 100 cents' },
    ]);
  });

  it('refuses picks the game does not take, or does not know, and replays nothing after', () => {
    assert.deepEqual(replayChecks(readExample('mysteres-de-la-lampe', (r) => (r.picks = { kind: 'colour', choice: 'purple' })), 100), {
      checks: [{ id: 'picks', ok: false, detail: 'the recalled picks {"kind":"colour","choice":"purple"} are not a valid purchase of mysteres-de-la-lampe (picks/out_of_range)' }],
    });
    assert.deepEqual(replayChecks(readExample('mine-d-or', (r) => (r.picks = { kind: 'colour', choice: 'red' })), 100), {
      checks: [{ id: 'picks', ok: false, detail: 'the recalled picks {"kind":"colour","choice":"red"} are not a valid purchase of mine-d-or (picks/not_allowed)' }],
    });
  });

  it('says a unit cannot start when no tier of its game pays the proven prize', () => {
    assert.deepEqual(replayChecks(readExample('mysteres-de-la-lampe'), 7), {
      checks: [{ id: 'picks', ok: false, detail: 'the unit cannot start from its seed and picks: Error: lampe: no tier pays 7 cents' }],
    });
  });

  for (const [what, change] of [
    ['numbered 1', (s: any) => (s.seq = 1)],
    ['by the player', (s: any) => (s.by = 'player')],
    ['with an action', (s: any) => (s.action = { type: 'rub', progress: 25 })],
    ['with no events', (s: any) => (s.events = [])],
  ] as const) {
    it(`refuses a lamp purchase step ${what}: the picks, the steps and the scenario fail, each saying why`, () => {
      const r = readExample('mysteres-de-la-lampe', (x) => change(x.steps[0]));
      const dealt = readExample('mysteres-de-la-lampe').steps[0]!.events;
      assert.deepEqual(replayChecks(r, 100), {
        checks: [
          { id: 'picks', ok: false, detail: `the picks {"kind":"colour","choice":"red"} and the unit seed give the purchase step ${quoted(dealt)}, not the one shown` },
          { id: 'steps', ok: false, detail: `the purchase step shows ${quoted(r.steps[0]!.events)}, but the unit seed and picks give ${quoted(dealt)}` },
          CANNOT_REGENERATE,
        ],
        purchaseEvents: dealt,
      });
    });
  }

  it('refuses a purchase step altered on a unit it finishes (Mine d\'or): no scenario is re-generated from a step not shown', () => {
    const dealt = readExample('mine-d-or').steps[0]!.events;
    assert.ok(JSON.stringify(dealt).length > 160, 'a long purchase step, quoted cut');
    assert.deepEqual(replayChecks(readExample('mine-d-or', (r) => (r.steps[0].by = 'player')), 100).checks.slice(1), [
      { id: 'steps', ok: false, detail: `the purchase step shows ${quoted(dealt)}, but the unit seed and picks give ${quoted(dealt)}` },
      CANNOT_REGENERATE,
    ]);
  });

  it('refuses a recall without steps, quoting the purchase step shown as undefined', () => {
    const dealt = readExample('500000-carats').steps[0]!.events;
    assert.deepEqual(replayChecks(readExample('500000-carats', (r) => (r.steps = [])), 1000).checks.slice(1), [
      { id: 'steps', ok: false, detail: `the purchase step shows undefined, but the unit seed and picks give ${quoted(dealt)}` },
      CANNOT_REGENERATE,
    ]);
  });

  it('refuses each later step altered, with the first difference in a sentence', () => {
    assert.deepEqual(carats((s) => (s[2].seq = 5)), { id: 'steps', ok: false, detail: 'step 2 is numbered 5: a step was dropped or moved' });
    assert.deepEqual(carats((s) => s.push({ ...s[s.length - 1], seq: s.length })), { id: 'steps', ok: false, detail: 'step 26 comes after the unit finished' });
    assert.deepEqual(carats((s) => (s[1].action = { type: 'server_complete' })), { id: 'steps', ok: false, detail: 'step 1\'s action {"type":"server_complete"} by player is not one the rules take (action/malformed)' });
    assert.deepEqual(carats((s) => Object.assign(s[1], { by: 'server', action: null })), { id: 'steps', ok: false, detail: 'step 1\'s action null by server is not one the rules take (action/malformed)' });
    assert.deepEqual(carats((s) => (s[1].by = 'robot')), { id: 'steps', ok: false, detail: 'step 1\'s action {"type":"reveal_winning"} by robot is not one the rules take (unknown author)' });
    assert.deepEqual(carats((s) => (s[3].action = s[2].action)), { id: 'steps', ok: false, detail: 'step 3\'s action {"type":"reveal","index":1} is refused by the rules (action/already_revealed)' });
    const shown = [{ type: 'number_revealed', index: 1, number: 27, amount: 1500, matched: true }];
    assert.deepEqual(carats((s) => (s[2].events = shown)), { id: 'steps', ok: false, detail: `step 2 shows ${JSON.stringify(shown)}, but replaying its action gives ${JSON.stringify(readExample('500000-carats').steps[2]!.events)}` });
  });

  it('replays an action the server took like the player\'s: only its completion action completes', () => {
    assert.deepEqual(carats((s) => (s[1].by = 'server')), { id: 'steps', ok: true, detail: 'all 26 steps replay exactly from the unit seed and the recorded actions, ending with the prize 1000 cents' });
  });

  it('says a unit whose last step is missing replays but does not finish, and re-generates no scenario', () => {
    assert.deepEqual(replayChecks(readExample('500000-carats', (r) => r.steps.pop()), 1000).checks.slice(1), [
      { id: 'steps', ok: false, detail: 'the 25 recorded steps replay but do not finish the unit: a step is missing' },
      CANNOT_REGENERATE,
    ]);
  });

  it('refuses a recalled scenario that is not the one the steps re-generate', () => {
    assert.deepEqual(replayChecks(readExample('500000-carats', (r) => r.scenario.amounts.reverse()), 1000).checks[2], {
      id: 'scenario', ok: false, detail: 'the recalled scenario is not the one the unit seed generates for the proven prize (1000 cents) and these actions',
    });
  });
});

describe('replayChecks, on a game whose rules break their own promises', () => {
  // Read in a hook, not as the file loads: a broken reader fails these tests, not the test run.
  let r: RecallRead;
  before(() => {
    r = readExample('500000-carats');
  });

  it('refuses picks a game parses into more than one unit', () => {
    const checks = withBrokenRules('500000-carats', { parsePicks: () => ({ ok: true, value: [undefined, undefined] }) }, () => replayChecks(r, 1000).checks);
    assert.deepEqual(checks, [{ id: 'picks', ok: false, detail: 'the recalled picks null are not a valid purchase of 500000-carats (not one unit)' }]);
  });

  it('fails the steps check, not the verifier, when a step\'s action throws', () => {
    const checks = withBrokenRules('500000-carats', { reduce: () => { throw new Error('reduce broke'); } }, () => replayChecks(r, 1000).checks);
    assert.deepEqual(checks.slice(1), [{ id: 'steps', ok: false, detail: 'step 1 cannot be replayed: Error: reduce broke' }, CANNOT_REGENERATE]);
  });

  it('fails the scenario its seed generates when it breaks the game\'s rules or scores another prize, naming each rule', () => {
    const broken = withBrokenRules('500000-carats', { ruleViolations: () => ['winning: 5 numbers instead of 6', 'numbers[0]: 0 is out of range'] }, () => replayChecks(r, 1000).checks[2]);
    assert.deepEqual(broken, { id: 'scenario', ok: false, detail: 'the generated scenario scores 1000 cents or breaks rules (winning: 5 numbers instead of 6; numbers[0]: 0 is out of range)' });
    const misscored = withBrokenRules('500000-carats', { evaluate: () => 500 }, () => replayChecks(r, 1000).checks[2]);
    assert.deepEqual(misscored, { id: 'scenario', ok: false, detail: 'the generated scenario scores 500 cents or breaks rules ()' });
  });
});

describe('scoredScenarioCheck (scheme 2)', () => {
  // Read in a hook, not as the file loads: a broken reader fails these tests, not the test run.
  let r: RecallRead;
  before(() => {
    r = readExample('500000-carats');
  });

  it('passes a scenario that scores the proven prize and breaks no rule', () => {
    assert.deepEqual(scoredScenarioCheck(r, 1000), { id: 'scenario', ok: true, detail: 'the scenario scores 1000 cents with the 500000-carats evaluator and breaks no rule' });
  });

  it('refuses a scenario scoring another prize than the proven tier\'s', () => {
    assert.deepEqual(scoredScenarioCheck(r, 500), { id: 'scenario', ok: false, detail: 'the scenario scores 1000 cents, the proven tier pays 500' });
  });

  it('refuses a scenario breaking rules, naming each', () => {
    const scenario = { ...(r.scenario as object), winning: [1, 1, 2, 3, 4] };
    assert.deepEqual(scoredScenarioCheck({ ...r, scenario }, 1000), {
      id: 'scenario', ok: false, detail: 'the scenario breaks rules of the game: winning: 5 numbers instead of 6; winning[1]: 1 appears twice',
    });
  });

  it('refuses a scenario that cannot be scored, with the evaluator\'s error', () => {
    assert.deepEqual(scoredScenarioCheck({ ...r, scenario: null }, 1000), { id: 'scenario', ok: false, detail: 'the scenario cannot be scored: TypeError: Cannot read properties of null (reading \'winning\')' });
  });
});
