import { strict as assert } from 'node:assert';
import { lampeRules, LAMPE_TABLE, type LampChoice } from '../../../src/games/mysteres-de-la-lampe';
import { PRIZES, STAKE, seedOf } from './helpers';

const SEEDS_PER_CASE = 200;

function label(c: LampChoice): string {
  return `${c.kind}:${c.choice}`;
}

describe('mysteres-de-la-lampe generator', () => {
  for (const prize of PRIZES) {
    it(`presents a prize of ${prize} cents exactly, for every pick and ${SEEDS_PER_CASE} seeds`, () => {
      for (const choice of lampeRules.choiceSpace) {
        for (let i = 0; i < SEEDS_PER_CASE; i++) {
          const seed = seedOf(`lampe/gen/${prize}/${label(choice)}/${i}`);
          const s = lampeRules.generate({ stake: STAKE, prize }, seed, choice);
          assert.equal(lampeRules.evaluate(s), prize);
          assert.deepEqual(lampeRules.ruleViolations(s), []);
          assert.equal(s.kind, choice.kind);
          assert.equal(s.pick, choice.choice);
          if (prize > 0) {
            assert.equal(s.potentialGain, prize, 'a winning unit shows its prize as the potential gain');
            assert.equal(s.result, choice.choice, 'a winning unit reveals the pick');
          } else {
            assert.notEqual(s.result, choice.choice, 'a losing unit reveals another value');
          }
        }
      }
    });
  }

  it('offers the 4 colours and the 4 symbols as choices', () => {
    assert.equal(lampeRules.choiceSpace.length, 8);
    assert.equal(lampeRules.choiceSpace.filter((c) => c.kind === 'colour').length, 4);
    assert.equal(lampeRules.choiceSpace.filter((c) => c.kind === 'symbol').length, 4);
    assert.equal(new Set(lampeRules.choiceSpace.map(label)).size, 8);
  });

  it('gives the same scenario for the same outcome, seed and pick', () => {
    for (const prize of PRIZES) {
      for (const choice of lampeRules.choiceSpace) {
        const seed = seedOf(`lampe/det/${prize}/${label(choice)}`);
        const a = lampeRules.generate({ stake: STAKE, prize }, seed, choice);
        const b = lampeRules.generate({ stake: STAKE, prize }, seed.slice(), { ...choice });
        assert.deepEqual(a, b);
      }
    }
  });

  it('draws the decoy gain of a losing unit from the seed alone, whatever the pick', () => {
    for (let i = 0; i < 200; i++) {
      const seed = seedOf(`lampe/decoy-pick/${i}`);
      const gains = lampeRules.choiceSpace.map((c) => lampeRules.generate({ stake: STAKE, prize: 0 }, seed, c).potentialGain);
      assert.equal(new Set(gains).size, 1);
    }
  });

  it('shows decoy gains on losing units about as often as the table pays each amount', () => {
    const n = 30_000;
    const seen = new Map<number, number>();
    const results = new Map<string, number>();
    const choice: LampChoice = { kind: 'colour', choice: 'red' };
    for (let i = 0; i < n; i++) {
      const s = lampeRules.generate({ stake: STAKE, prize: 0 }, seedOf(`lampe/decoy/${i}`), choice);
      seen.set(s.potentialGain, (seen.get(s.potentialGain) ?? 0) + 1);
      results.set(s.result, (results.get(s.result) ?? 0) + 1);
    }
    const winners = LAMPE_TABLE.tiers.reduce((sum, t) => sum + t.count, 0);
    for (const tier of LAMPE_TABLE.tiers) {
      const expected = (n * tier.count) / winners;
      const got = seen.get(tier.prize) ?? 0;
      // Five standard deviations, plus slack for the tiers too rare to see at all.
      assert.ok(Math.abs(got - expected) <= 5 * Math.sqrt(expected) + 3, `${tier.prize}: ${got} vs ${expected}`);
    }
    // The other 3 colours come up evenly; the pick never does.
    assert.equal(results.get('red'), undefined);
    for (const other of ['blue', 'green', 'gold']) {
      const got = results.get(other) ?? 0;
      assert.ok(Math.abs(got - n / 3) <= 5 * Math.sqrt(n / 3), `${other}: ${got}`);
    }
  });

  it('throws for a prize or a price the game cannot present', () => {
    const seed = seedOf('lampe/throws');
    const red: LampChoice = { kind: 'colour', choice: 'red' };
    for (const prize of [1, 25, 150, 1_500, 20_000, -50, 0.5, Number.NaN]) {
      assert.throws(() => lampeRules.generate({ stake: STAKE, prize }, seed, red), Error, `prize ${prize}`);
    }
    assert.throws(() => lampeRules.generate({ stake: 100, prize: 0 }, seed, red));
    assert.throws(() => lampeRules.generate({ stake: STAKE, prize: 0 }, seed, { kind: 'colour', choice: 'star' } as unknown as LampChoice));
    assert.throws(() => lampeRules.generate({ stake: STAKE, prize: 0 }, seed, { kind: 'toString', choice: 'red' } as unknown as LampChoice));
  });
});
