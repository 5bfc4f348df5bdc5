import { strict as assert } from 'node:assert';
import { caratsRules } from '../../../src/games/500000-carats';
import { handScenario } from './helpers';

/** Scenarios written by hand from article 4.4, independent of the generator. */
describe('500000-carats evaluator', () => {
  it('gives nothing when no number matches a winning number (article 4.5)', () => {
    const s = handScenario();
    s.amounts[0] = 50_000_000; // a big amount under a number that does not match pays nothing
    assert.equal(caratsRules.evaluate(s), 0);
  });

  it('pays the amount under a number equal to a winning number', () => {
    const s = handScenario();
    s.numbers[5] = 4;
    s.amounts[5] = 10_000;
    assert.equal(caratsRules.evaluate(s), 10_000);
  });

  it('adds the amounts of several matches into one prize (15 € = 10 € + 5 €)', () => {
    const s = handScenario();
    s.numbers[0] = 7;
    s.amounts[0] = 1_000;
    s.numbers[23] = 1;
    s.amounts[23] = 500;
    assert.equal(caratsRules.evaluate(s), 1_500);
  });

  it('does not care about the order of either zone', () => {
    const s = handScenario();
    s.numbers[2] = 6;
    s.amounts[2] = 5_000;
    s.numbers[9] = 2;
    s.amounts[9] = 5_000;
    const shuffled = {
      winning: [...s.winning].reverse(),
      numbers: [...s.numbers].reverse(),
      amounts: [...s.amounts].reverse(),
    };
    assert.equal(caratsRules.evaluate(s), 10_000);
    assert.equal(caratsRules.evaluate(shuffled), 10_000);
  });

  it('adds up all six winning numbers when all of them are found', () => {
    const s = handScenario();
    [1, 2, 3, 4, 6, 7].forEach((n, k) => {
      s.numbers[k * 4] = n;
      s.amounts[k * 4] = k === 0 ? 5_000 : 1_000;
    });
    assert.equal(caratsRules.evaluate(s), 10_000);
  });

  it('pays the top prize with a single match of 500,000 €', () => {
    const s = handScenario();
    s.numbers[12] = 3;
    s.amounts[12] = 50_000_000;
    assert.equal(caratsRules.evaluate(s), 50_000_000);
  });
});
