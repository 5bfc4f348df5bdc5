import { strict as assert } from 'node:assert';
import { evaluate, playThrough } from '../../../src/games/rain-diamonds/evaluator';
import { ruleViolations } from '../../../src/games/rain-diamonds/rules-check';
import { COLOURS } from '../../../src/games/rain-diamonds';
import { scenarioOf } from './helpers';

const total = (s: ReturnType<typeof scenarioOf>) =>
  Object.fromEntries(playThrough(s).totals.map((n, i) => [COLOURS[i], n]).filter(([, n]) => n !== 0));

/** 6 whites at once; the three columns that lose two gems take two from their queues. */
const WHITE_AT_ONCE = scenarioOf(
  [
    'white white red red',
    'white white red red',
    'white white green green',
    'violet violet green green',
    'violet yellow yellow orange',
  ],
  ['orange yellow', 'orange yellow', 'orange yellow', '', ''],
  'white blue blue blue blue',
);

/**
 * Red over three boxes: the reds that enter after the first red box are collected by the next
 * red box, not by the one that made room for them. Then 4 violets, then 3 blues that entered.
 */
const RED_OVER_THREE = scenarioOf(
  [
    'red green green violet',
    'red green orange violet',
    'yellow yellow orange violet',
    'yellow white white violet',
    'yellow white white orange',
  ],
  ['red red blue green white', 'red red blue orange white', 'blue white', 'green', ''],
  'red red red violet blue',
);

/** Five blues, then nothing more of blue: a near miss, losing. No white ever shows in the grid. */
const FIVE_BLUES = scenarioOf(
  [
    'blue blue red red',
    'blue blue red orange',
    'blue green green orange',
    'violet violet green green',
    'violet yellow yellow orange',
  ],
  ['orange red', 'orange red', 'orange', '', 'green red'],
  'blue white yellow blue blue',
);

describe('rain-diamonds evaluator', () => {
  it('pays the white prize for 6 whites collected by one box', () => {
    assert.deepEqual(total(WHITE_AT_ONCE), { white: 6 });
    assert.equal(evaluate(WHITE_AT_ONCE), 50);
    assert.deepEqual(ruleViolations(WHITE_AT_ONCE), []);
  });

  it('collects gems that entered only with a later box, and pays red for 6 over three boxes', () => {
    assert.deepEqual(total(RED_OVER_THREE), { red: 6, violet: 4, blue: 3 });
    assert.deepEqual(playThrough(RED_OVER_THREE).used, [5, 5, 2, 1, 0]);
    assert.equal(evaluate(RED_OVER_THREE), 2_000);
    assert.deepEqual(ruleViolations(RED_OVER_THREE), []);
  });

  it('gives nothing for 5 of a colour, and counts a box of a colour not in the grid as collecting none', () => {
    // blue: 5 at once; white: none; yellow: 2; blue again: none left.
    assert.deepEqual(total(FIVE_BLUES), { blue: 5, yellow: 2 });
    assert.deepEqual(playThrough(FIVE_BLUES).used, [2, 2, 1, 0, 2]);
    assert.equal(evaluate(FIVE_BLUES), 0);
    assert.deepEqual(ruleViolations(FIVE_BLUES), []);
  });

  it('pays each colour by its prize: blue 5,000 €, green 500 €, violet 10 €', () => {
    // Swap white and `to` in the grid, and open `to` first.
    const swapped = (to: string) =>
      scenarioOf(
        WHITE_AT_ONCE.grid.map((c) => c.map((g) => (g === 'white' ? to : g === to ? 'white' : g)).join(' ')),
        WHITE_AT_ONCE.queues.map((q) => q.join(' ')),
        `${to} blue blue blue blue`,
      );
    assert.equal(evaluate(swapped('blue')), 500_000);
    assert.equal(evaluate(swapped('green')), 50_000);
    assert.equal(evaluate(swapped('violet')), 1_000);
  });

  it('refuses to score a scenario whose queue runs dry', () => {
    const dry = { ...WHITE_AT_ONCE, queues: [['orange'], ['orange', 'yellow'], ['orange', 'yellow'], [], []] };
    assert.throws(() => evaluate(dry as never), /queue 0 runs out/);
  });
});

describe('rain-diamonds rule check', () => {
  const broken = (patch: object) => ruleViolations({ ...WHITE_AT_ONCE, ...patch } as never);

  it('reports a grid that is not 5 columns of 4 known colours', () => {
    assert.match(broken({ grid: WHITE_AT_ONCE.grid.slice(1) }).join(), /5 columns/);
    assert.match(broken({ grid: [['white'], ...WHITE_AT_ONCE.grid.slice(1)] }).join(), /column 0 must hold 4/);
    const pink = WHITE_AT_ONCE.grid.map((c) => c.slice());
    pink[3]![2] = 'pink' as never;
    assert.match(broken({ grid: pink }).join(), /column 3, row 2 is not a colour/);
  });

  it('reports boxes that are not 5 colours', () => {
    assert.match(broken({ boxes: ['white', 'blue'] }).join(), /5 boxes/);
    assert.match(broken({ boxes: ['white', 'blue', 'blue', 'blue', 'black'] }).join(), /box 5/);
  });

  it('reports queues too short or longer than the reveal uses', () => {
    assert.match(broken({ queues: [['orange'], ['orange', 'yellow'], ['orange', 'yellow'], [], []] }).join(), /runs out/);
    const long = [['orange', 'yellow'], ['orange', 'yellow'], ['orange', 'yellow', 'blue'], [], ['red']];
    assert.deepEqual(broken({ queues: long }), [
      'queue 2 holds 3 gems but the reveal uses 2',
      'queue 4 holds 1 gems but the reveal uses 0',
    ]);
  });

  it('reports a colour collected more than 6 times, though the rules would still pay it', () => {
    const seven = scenarioOf(
      WHITE_AT_ONCE.grid.map((c, i) => (i === 4 ? 'white yellow yellow orange' : c.join(' '))),
      ['orange yellow', 'orange yellow', 'orange yellow', '', 'orange'],
      'white blue blue blue blue',
    );
    assert.equal(evaluate(seven), 50);
    assert.deepEqual(ruleViolations(seven), ['7 white gems collected, more than 6']);
  });

  it('reports two colours reaching 6', () => {
    const two = scenarioOf(
      [
        'white white red red',
        'white white red red',
        'white white red red',
        'violet violet green green',
        'violet yellow yellow orange',
      ],
      ['orange yellow orange yellow', 'orange yellow orange yellow', 'orange yellow orange yellow', '', ''],
      'white red blue blue blue',
    );
    assert.deepEqual(total(two), { white: 6, red: 6 });
    assert.deepEqual(ruleViolations(two), ['2 colours reach 6; a unit wins at most one']);
  });
});
