import { strict as assert } from 'node:assert';
import { CARATS_TABLE, caratsRules } from '../../../src/games/500000-carats';
import { NEUTRAL_WEIGHTS } from '../../../src/games/500000-carats/generator';
import { CARATS_NUMBERS } from '../../../src/games/500000-carats/rules';
import { totalPaid, winningUnits } from '../../../src/games/prize-tables';
import { PRIZES, matchCount, outcomeOf, seedOf } from './helpers';

describe('500000-carats prize table', () => {
  it('is the table of article 3: 2,055,464 winning units paying 28,857,500 € in a block of 8,016,000 at 5 €', () => {
    assert.equal(CARATS_TABLE.stake, 500);
    assert.equal(CARATS_TABLE.blockSize, 8_016_000);
    assert.equal(winningUnits(CARATS_TABLE), 2_055_464);
    assert.equal(totalPaid(CARATS_TABLE), 2_885_750_000);
  });
});

describe('500000-carats generator', () => {
  it('presents every tier and losses so that the evaluator finds the dealt prize and no rule is broken', () => {
    for (const prize of PRIZES) {
      for (const choice of caratsRules.choiceSpace) {
        for (let i = 0; i < 200; i++) {
          const scenario = caratsRules.generate(outcomeOf(prize), seedOf(`gen-${prize}-${i}`), choice);
          assert.equal(caratsRules.evaluate(scenario), prize, `prize ${prize}, seed ${i}`);
          assert.deepEqual(caratsRules.ruleViolations(scenario), [], `prize ${prize}, seed ${i}`);
        }
      }
    }
  });

  it('is reproducible bit for bit from the outcome and the seed', () => {
    for (const prize of PRIZES) {
      const a = caratsRules.generate(outcomeOf(prize), seedOf(`same-${prize}`), undefined);
      const b = caratsRules.generate(outcomeOf(prize), seedOf(`same-${prize}`), undefined);
      assert.deepEqual(a, b);
    }
  });

  it('gives different scenarios for different seeds', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) seen.add(JSON.stringify(caratsRules.generate(outcomeOf(1_000), seedOf(`diff-${i}`), undefined)));
    assert.equal(seen.size, 100);
  });

  it('never shows a match on a losing unit', () => {
    for (let i = 0; i < 500; i++) {
      assert.equal(matchCount(caratsRules.generate(outcomeOf(0), seedOf(`lose-${i}`), undefined)), 0);
    }
  });

  it('splits a prize over one to six matches where the table amounts allow, and shows every split', () => {
    // The splits of each prize into at most 6 table amounts, worked out by hand.
    const expected: Record<number, string[]> = {
      500: ['500'],
      1_000: ['1000', '500+500'],
      1_500: ['1500', '1000+500', '500+500+500'],
      5_000: [
        '5000',
        '1500+1500+1500+500', '1500+1500+1000+1000',
        '1500+1500+1000+500+500', '1500+1000+1000+1000+500', '1000+1000+1000+1000+1000',
        '1500+1500+500+500+500+500', '1500+1000+1000+500+500+500', '1000+1000+1000+1000+500+500',
      ],
      10_000: [
        '10000', '5000+5000',
        '5000+1500+1500+1500+500', '5000+1500+1500+1000+1000',
        '5000+1500+1500+1000+500+500', '5000+1500+1000+1000+1000+500', '5000+1000+1000+1000+1000+1000',
      ],
      100_000: ['100000'],
      1_000_000: ['1000000'],
      50_000_000: ['50000000'],
    };
    for (const [prizeText, splits] of Object.entries(expected)) {
      const prize = Number(prizeText);
      const seen = new Set<string>();
      for (let i = 0; i < 1_500; i++) {
        const s = caratsRules.generate(outcomeOf(prize), seedOf(`split-${prize}-${i}`), undefined);
        const parts = s.numbers
          .map((n, k) => (s.winning.includes(n) ? s.amounts[k]! : -1))
          .filter((a) => a >= 0)
          .sort((a, b) => b - a);
        seen.add(parts.join('+'));
      }
      assert.deepEqual([...seen].sort(), [...splits].sort(), `prize ${prize}`);
    }
  });

  it('chooses how many matches uniformly among those the prize allows', () => {
    // 100 € can show 1, 2, 5 or 6 matches: each about a quarter of the time.
    const counts = new Map<number, number>();
    for (let i = 0; i < 2_000; i++) {
      const k = matchCount(caratsRules.generate(outcomeOf(10_000), seedOf(`k-${i}`), undefined));
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    assert.deepEqual([...counts.keys()].sort(), [1, 2, 5, 6]);
    for (const n of counts.values()) assert.ok(n > 400 && n < 600, `${[...counts]}`);
  });

  it('draws the amounts under unmatched numbers the same neutral way for winning and losing units', () => {
    const frequencies = (prize: number): Map<number, number> => {
      const f = new Map<number, number>();
      let total = 0;
      for (let i = 0; i < 2_000; i++) {
        const s = caratsRules.generate(outcomeOf(prize), seedOf(`neutral-${prize}-${i}`), undefined);
        s.numbers.forEach((n, k) => {
          if (s.winning.includes(n)) return;
          f.set(s.amounts[k]!, (f.get(s.amounts[k]!) ?? 0) + 1);
          total++;
        });
      }
      for (const [a, n] of f) f.set(a, n / total);
      return f;
    };
    const losing = frequencies(0);
    const winning = frequencies(1_000);
    const top = frequencies(50_000_000);
    for (const [amount, weight] of NEUTRAL_WEIGHTS) {
      for (const f of [losing, winning, top]) {
        assert.ok(Math.abs((f.get(amount) ?? 0) - weight / 100) < 0.01, `amount ${amount}: ${f.get(amount)} vs ${weight}%`);
      }
    }
  });

  it('uses all 46 numbers and only them, in both zones', () => {
    const winning = new Set<number>();
    const mine = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const s = caratsRules.generate(outcomeOf(i % 2 ? 0 : 1_500), seedOf(`all-${i}`), undefined);
      s.winning.forEach((n) => winning.add(n));
      s.numbers.forEach((n) => mine.add(n));
    }
    assert.deepEqual([...winning].sort((a, b) => a - b), [...CARATS_NUMBERS]);
    assert.deepEqual([...mine].sort((a, b) => a - b), [...CARATS_NUMBERS]);
  });

  it('throws for a prize or a stake the game cannot present', () => {
    const seed = seedOf('throw');
    assert.throws(() => caratsRules.generate(outcomeOf(2_000), seed, undefined), /no prize/);
    assert.throws(() => caratsRules.generate(outcomeOf(-500), seed, undefined), /no prize/);
    assert.throws(() => caratsRules.generate({ stake: 100, prize: 500 }, seed, undefined), /sold at/);
    assert.throws(() => caratsRules.generate(outcomeOf(500), new Uint8Array(16), undefined), /seed/);
  });
});
