import { strict as assert } from 'node:assert';
import { caratsRules } from '../../../src/games/500000-carats';
import { handScenario } from './helpers';

type Hand = ReturnType<typeof handScenario>;

function violationsAfter(breakIt: (s: Hand) => void): string[] {
  const s = handScenario();
  breakIt(s);
  return caratsRules.ruleViolations(s);
}

describe('500000-carats rules check', () => {
  it('accepts a valid losing scenario and a valid winning one', () => {
    assert.deepEqual(caratsRules.ruleViolations(handScenario()), []);
    // A number in both zones is no breach: it is a match.
    assert.deepEqual(violationsAfter((s) => { s.numbers[3] = 6; s.amounts[3] = 1_000; }), []);
  });

  it('catches zones of the wrong size (article 4.2)', () => {
    assert.match(violationsAfter((s) => s.winning.pop()).join(), /winning: 5 numbers instead of 6/);
    assert.match(violationsAfter((s) => { s.numbers.pop(); s.amounts.pop(); }).join(), /numbers: 23 numbers instead of 24/);
    assert.match(violationsAfter((s) => s.amounts.pop()).join(), /amounts: 23 amounts instead of 24/);
  });

  it('catches numbers outside the list of article 4.3 (5, 10, 15, 0, 50, fractions, text)', () => {
    for (const bad of [5, 10, 15, 0, 50, -1, 2.5, '8' as unknown as number]) {
      assert.match(violationsAfter((s) => { s.numbers[0] = bad; }).join(), /numbers\[0\]: .* is not an allowed number/, `${bad}`);
      assert.match(violationsAfter((s) => { s.winning[5] = bad; }).join(), /winning\[5\]: .* is not an allowed number/, `${bad}`);
    }
  });

  it('catches a number printed twice within one zone (article 4.3)', () => {
    assert.match(violationsAfter((s) => { s.winning[1] = 1; }).join(), /winning\[1\]: 1 appears twice/);
    assert.match(violationsAfter((s) => { s.numbers[23] = 8; }).join(), /numbers\[23\]: 8 appears twice/);
  });

  it('catches an amount that is not one of the table (20 €, 0 €, cents)', () => {
    for (const bad of [2_000, 0, 501, -500]) {
      assert.match(violationsAfter((s) => { s.amounts[7] = bad; }).join(), /amounts\[7\]: .* is not an amount of the table/);
    }
  });

  it('catches matches that add up to no prize of the table (5 € + 50 € = 55 €)', () => {
    const v = violationsAfter((s) => {
      s.numbers[0] = 1;
      s.amounts[0] = 500;
      s.numbers[1] = 2;
      s.amounts[1] = 5_000;
    });
    assert.match(v.join(), /add up to 5500 cents/);
  });

  it('catches a scenario that is not lists at all', () => {
    const v = caratsRules.ruleViolations({ winning: null, numbers: {}, amounts: 3 } as never);
    assert.ok(v.length >= 3, v.join());
  });
});
