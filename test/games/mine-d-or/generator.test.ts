import { strict as assert } from 'node:assert';
import { mineDOrRules as rules } from '../../../src/games/mine-d-or';
import { evaluate, gridCombinations } from '../../../src/games/mine-d-or/evaluator';
import type { MineDOrScenario } from '../../../src/games/mine-d-or/scenario';
import { WINNING_SYMBOLS } from '../../../src/games/mine-d-or/scenario';
import { allOutcomes, euros, seedOf } from './helpers';

const SEEDS_PER_TIER = 200;

/** How a scenario wins: its combinations, how many are doubled, and in which grids. */
function shapeOf(s: MineDOrScenario): { stages: number; combos: number; aligned: number; gridsWinning: number; inExtra: boolean } {
  let combos = 0;
  let aligned = 0;
  let gridsWinning = 0;
  let inExtra = false;
  s.grids.forEach((g, stage) => {
    const found = gridCombinations(g, s.stake);
    combos += found.length;
    aligned += found.filter((c) => c.aligned).length;
    if (found.length > 0) gridsWinning++;
    if (found.length > 0 && stage > 0) inExtra = true;
  });
  return { stages: s.grids.length - 1, combos, aligned, gridsWinning, inExtra };
}

describe('mine-d-or generator', () => {
  for (const outcome of allOutcomes()) {
    it(`presents ${euros(outcome.prize)} at ${euros(outcome.stake)} exactly, with every rule kept, for ${SEEDS_PER_TIER} seeds`, () => {
      for (const choices of rules.choiceSpace) {
        for (let i = 0; i < SEEDS_PER_TIER; i++) {
          const scenario = rules.generate(outcome, seedOf(`mdo/${outcome.stake}/${outcome.prize}/${i}`), choices);
          assert.deepEqual(rules.ruleViolations(scenario), [], JSON.stringify(scenario));
          assert.equal(rules.evaluate(scenario), outcome.prize, JSON.stringify(scenario));
          assert.equal(scenario.stake, outcome.stake);
        }
      }
    });
  }

  it('is reproducible bit for bit from the same outcome and seed', () => {
    for (const outcome of allOutcomes()) {
      const a = rules.generate(outcome, seedOf('same'), undefined);
      const b = rules.generate(outcome, seedOf('same'), undefined);
      assert.deepEqual(a, b);
    }
  });

  it('throws for a prize or a price the game does not have', () => {
    assert.throws(() => rules.generate({ stake: 50, prize: 150 }, seedOf('x'), undefined), /not a prize/);
    assert.throws(() => rules.generate({ stake: 50, prize: 1_500_000 }, seedOf('x'), undefined), /not a prize/);
    assert.throws(() => rules.generate({ stake: 100, prize: 50 }, seedOf('x'), undefined), /not a prize/);
    assert.throws(() => rules.generate({ stake: 500, prize: 0 }, seedOf('x'), undefined), /not sold/);
  });

  it('reaches the amounts the table says need adding or doubling only that way (10 € and 1 € at 0.50 €)', () => {
    for (const [stake, prize] of [[50, 1000], [50, 100], [100, 2000], [100, 200], [200, 4000], [200, 400]] as const) {
      for (let i = 0; i < 100; i++) {
        const shape = shapeOf(rules.generate({ stake, prize }, seedOf(`sum/${stake}/${prize}/${i}`), undefined));
        assert.ok(shape.combos >= 2 || shape.aligned >= 1, `${prize} at ${stake}: ${JSON.stringify(shape)}`);
      }
    }
  });

  it('varies how a prize is won: doubled, several combinations, in the main grid or an Extra stage', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const shape = shapeOf(rules.generate({ stake: 50, prize: 1000 }, seedOf(`vary/${i}`), undefined));
      if (shape.combos === 1 && shape.aligned === 1) seen.add('one doubled');
      if (shape.combos >= 2) seen.add('several');
      if (shape.gridsWinning >= 2) seen.add('spread over grids');
      if (shape.inExtra) seen.add('won in an Extra stage');
      if (!shape.inExtra) seen.add('won in the main grid');
    }
    assert.deepEqual([...seen].sort(), ['one doubled', 'several', 'spread over grids', 'won in an Extra stage', 'won in the main grid'].sort());
    // A 2-combination grid (cactus doubled + pioche doubled) also presents 5 € with no Extra stage.
    const inOneGrid = Array.from({ length: 400 }, (_, i) => rules.generate({ stake: 50, prize: 500 }, seedOf(`one/${i}`), undefined))
      .some((s) => gridCombinations(s.grids[0]!, 50).length === 2);
    assert.ok(inOneGrid);
  });

  it('draws the number of Extra stages with the same weights whatever the outcome', () => {
    const n = 3000;
    const histogram = (prize: number): number[] => {
      const h = [0, 0, 0, 0, 0];
      for (let i = 0; i < n; i++) h[rules.generate({ stake: 50, prize }, seedOf(`k/${prize}/${i}`), undefined).grids.length - 1]!++;
      return h;
    };
    const losing = histogram(0);
    const winning = histogram(500);
    // Weights 24:8:4:2:1 of 39; 5 sigma of a binomial(3000, 24/39) is about 133.
    for (let k = 0; k <= 4; k++) {
      assert.ok(losing[k]! > 0 && winning[k]! > 0, `${losing} / ${winning}`);
      assert.ok(Math.abs(losing[k]! - winning[k]!) < 190, `${losing} / ${winning}`);
    }
  });

  it('shows near misses (two of a kind) in losing grids only as a neutral draw gives them, alike for every symbol', () => {
    const pairs = new Map<string, number>(WINNING_SYMBOLS.map((s) => [s, 0]));
    let grids = 0;
    for (let i = 0; i < 4000; i++) {
      const s = rules.generate({ stake: 50, prize: 0 }, seedOf(`near/${i}`), undefined);
      assert.equal(evaluate(s), 0);
      for (const g of s.grids) {
        if (g.includes('extra')) continue; // compare grids of 9 ordinary cells only
        grids++;
        for (const sym of WINNING_SYMBOLS) if (g.filter((x) => x === sym).length === 2) pairs.set(sym, pairs.get(sym)! + 1);
      }
    }
    const counts = [...pairs.values()];
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    // Uniform over all losing fillings: each symbol is paired equally often; a bias toward the
    // top symbols would show as a gap far beyond 6 sigma.
    for (const c of counts) assert.ok(Math.abs(c - mean) < 6 * Math.sqrt(mean), `${[...pairs]} over ${grids} grids`);
    // 9 cells from 6 symbols at most twice each: every such grid holds at least 3 pairs.
    assert.ok(mean >= grids * 0.5, `${[...pairs]} over ${grids} grids`);
  });
});
