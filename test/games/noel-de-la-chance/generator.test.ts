import { strict as assert } from 'node:assert';
import { evaluate } from '../../../src/games/noel-de-la-chance/evaluator';
import { generate } from '../../../src/games/noel-de-la-chance/generator';
import { noelRules } from '../../../src/games/noel-de-la-chance';
import { ruleViolations } from '../../../src/games/noel-de-la-chance/rules-check';
import { GAME_SYMBOLS, type GameSymbol, type NoelScenario } from '../../../src/games/noel-de-la-chance/scenario';
import { formatEuros } from '../../../src/money';
import { allOutcomes, seedOf } from './helpers';

const SEEDS_PER_TIER = 200;

function countOf(s: NoelScenario, symbol: string): number {
  return s.cells.filter((c) => c === symbol).length;
}

/** The grid with game symbols replaced by their role: S (selected), A and B (the others, in order). */
function roles(s: NoelScenario): string {
  const others = GAME_SYMBOLS.filter((g) => g !== s.symbol);
  return s.cells.map((c) => (c === s.symbol ? 'S' : c === others[0] ? 'A' : c === others[1] ? 'B' : c)).join(' ');
}

describe('noel-de-la-chance generator', () => {
  for (const outcome of allOutcomes()) {
    const name = `${outcome.prize === 0 ? 'a loss' : `${formatEuros(outcome.prize)} €`} at ${formatEuros(outcome.stake)} €`;
    it(`presents ${name} exactly and validly for ${SEEDS_PER_TIER} seeds and every symbol`, () => {
      for (let i = 0; i < SEEDS_PER_TIER; i++) {
        const seed = seedOf(`noel gen ${outcome.stake} ${outcome.prize} ${i}`);
        for (const choices of noelRules.choiceSpace) {
          const s = generate(outcome, seed, choices);
          assert.equal(evaluate(s), outcome.prize);
          assert.deepEqual(ruleViolations(s), []);
          assert.equal(s.symbol, choices.symbol);
          assert.equal(s.stake, outcome.stake);
        }
      }
    });
  }

  it('shows the selected symbol exactly as many times as the prize says', () => {
    const expected: Record<number, number> = { 250_000: 10, 25_000: 9, 5_000: 8, 1_000: 7, 250: 6, 100: 5, 50: 4 };
    for (const [prize, k] of Object.entries(expected)) {
      for (const [stake, factor] of [[50, 1], [100, 2], [200, 4]] as const) {
        const s = generate({ stake, prize: Number(prize) * factor }, seedOf(`count ${prize} ${stake}`), { symbol: 'gift' });
        assert.equal(countOf(s, 'gift'), k);
      }
    }
  });

  it('is reproducible bit for bit from the same outcome, seed and choice', () => {
    for (const outcome of allOutcomes()) {
      const seed = seedOf(`repro ${outcome.stake} ${outcome.prize}`);
      assert.deepEqual(generate(outcome, seed, { symbol: 'bell' }), generate(outcome, seed, { symbol: 'bell' }));
    }
  });

  it('gives the same prize and the same grid up to renaming for every choice of symbol', () => {
    for (const outcome of allOutcomes()) {
      for (let i = 0; i < 50; i++) {
        const seed = seedOf(`indep ${outcome.stake} ${outcome.prize} ${i}`);
        const scenarios = GAME_SYMBOLS.map((symbol) => generate(outcome, seed, { symbol }));
        for (const s of scenarios) {
          assert.equal(evaluate(s), outcome.prize);
          assert.equal(roles(s), roles(scenarios[0]!));
        }
      }
    }
  });

  it('throws for a prize or a stake the game cannot present, and for an unknown symbol', () => {
    const seed = seedOf('throws');
    assert.throws(() => generate({ stake: 100, prize: 50 }, seed, { symbol: 'star' }), /no prize 50/);
    assert.throws(() => generate({ stake: 50, prize: 60 }, seed, { symbol: 'star' }), /no prize/);
    assert.throws(() => generate({ stake: 500, prize: 0 }, seed, { symbol: 'star' }), /not sold/);
    assert.throws(() => generate({ stake: 50, prize: 0 }, seed, { symbol: 'holly' as GameSymbol }), /unknown/);
  });

  it('lets losses show 0 to 3 of the selected symbol as often as a neutral draw does, no more near misses', () => {
    // The neutral law: 18 cells uniform over 8 symbols, conditioned on no game symbol above 3.
    // Computed here from scratch (floats are fine in a test) and compared with 6,000 losses.
    const fact = (n: number): number => (n <= 1 ? 1 : n * fact(n - 1));
    const p = [0, 0, 0, 0];
    for (let s = 0; s <= 3; s++)
      for (let a = 0; a <= 3; a++)
        for (let b = 0; b <= 3; b++) {
          const r = 18 - s - a - b;
          p[s]! += (fact(18) / (fact(s) * fact(a) * fact(b) * fact(r))) * 5 ** r;
        }
    const total = p.reduce((x, y) => x + y, 0);
    const n = 6000;
    const seen = [0, 0, 0, 0];
    const seenOther = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) {
      const symbol = GAME_SYMBOLS[i % 3]!;
      const s = generate({ stake: 50, prize: 0 }, seedOf(`loss law ${i}`), { symbol });
      seen[countOf(s, symbol)]!++;
      seenOther[countOf(s, GAME_SYMBOLS[(i + 1) % 3]!)]!++;
    }
    for (let k = 0; k <= 3; k++) {
      const expected = (n * p[k]!) / total;
      const sigma = Math.sqrt(expected * (1 - p[k]! / total));
      assert.ok(Math.abs(seen[k]! - expected) < 4 * sigma, `selected ${k}: ${seen[k]} vs ${expected.toFixed(0)}`);
      assert.ok(Math.abs(seenOther[k]! - expected) < 4 * sigma, `other ${k}: ${seenOther[k]} vs ${expected.toFixed(0)}`);
    }
  });

  it('varies how a win looks: positions, other game symbols and decor differ from seed to seed', () => {
    for (const prize of [50, 1_000, 250_000]) {
      const layouts = new Set<string>();
      const otherCounts = new Set<number>();
      for (let i = 0; i < 200; i++) {
        const s = generate({ stake: 50, prize }, seedOf(`vary ${prize} ${i}`), { symbol: 'star' });
        layouts.add(s.cells.map((c) => (c === 'star' ? 'X' : '.')).join(''));
        otherCounts.add(countOf(s, 'bell'));
      }
      assert.ok(layouts.size > 190, `${prize}: only ${layouts.size} layouts of the winning symbols`);
      assert.deepEqual([...otherCounts].sort(), [0, 1, 2, 3]);
    }
  });
});
