import { strict as assert } from 'node:assert';
import { lampeRules, type LampScenario } from '../../../src/games/mysteres-de-la-lampe';

describe('mysteres-de-la-lampe evaluator', () => {
  it('pays the potential gain when the lamp reveals the chosen colour', () => {
    assert.equal(lampeRules.evaluate({ kind: 'colour', pick: 'blue', potentialGain: 700, result: 'blue' }), 700);
    assert.equal(lampeRules.evaluate({ kind: 'colour', pick: 'gold', potentialGain: 1_000_000, result: 'gold' }), 1_000_000);
  });

  it('pays the potential gain when the lamp reveals the chosen symbol', () => {
    assert.equal(lampeRules.evaluate({ kind: 'symbol', pick: 'moon', potentialGain: 50, result: 'moon' }), 50);
    assert.equal(lampeRules.evaluate({ kind: 'symbol', pick: 'key', potentialGain: 50_000, result: 'key' }), 50_000);
  });

  it('pays nothing when the lamp reveals another value, whatever gain was shown', () => {
    assert.equal(lampeRules.evaluate({ kind: 'colour', pick: 'red', potentialGain: 1_000_000, result: 'green' }), 0);
    assert.equal(lampeRules.evaluate({ kind: 'symbol', pick: 'sun', potentialGain: 100, result: 'star' }), 0);
  });
});

describe('mysteres-de-la-lampe rules check', () => {
  const valid: LampScenario = { kind: 'symbol', pick: 'star', potentialGain: 200, result: 'sun' };

  it('accepts a well-formed scenario', () => {
    assert.deepEqual(lampeRules.ruleViolations(valid), []);
  });

  const broken: [string, LampScenario][] = [
    ['an unknown kind', { ...valid, kind: 'number' as never }],
    ['a pick of the other kind', { ...valid, pick: 'red' }],
    ['a pick outside the 4 symbols', { ...valid, pick: 'comet' as never }],
    ['a result of the other kind', { ...valid, result: 'gold' }],
    ['a result outside the 4 colours', { kind: 'colour', pick: 'red', potentialGain: 50, result: 'purple' as never }],
    ['a gain the table does not have', { ...valid, potentialGain: 300 }],
    ['a gain of nothing', { ...valid, potentialGain: 0 }],
    ['a gain in euros instead of cents', { ...valid, potentialGain: 0.5 }],
  ];
  for (const [what, scenario] of broken) {
    it(`catches ${what}`, () => {
      assert.ok(lampeRules.ruleViolations(scenario).length > 0);
    });
  }
});
