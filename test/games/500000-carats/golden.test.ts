import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { caratsRules } from '../../../src/games/500000-carats';
import { PRIZES, outcomeOf, seedOf } from './helpers';

/**
 * Pinned scenarios: a change to the generator (even one that keeps every rule) shows here.
 * If the change is intended, regenerate with `GOLDEN_WRITE=1` and review the diff.
 */
interface Golden {
  readonly prize: number;
  readonly seed: string;
  /** Numbers separated by spaces. */
  readonly winning: string;
  readonly numbers: string;
  /** Cents, in the order of `numbers`. */
  readonly amounts: string;
}

const FILE = new URL('./golden.json', import.meta.url);

describe('500000-carats golden scenarios', () => {
  it('generates exactly the pinned scenarios: two per tier and three losses', () => {
    const cases = [...PRIZES.flatMap((prize) => [0, 1].map((i) => ({ prize, seed: `golden ${prize} ${i}` }))), { prize: 0, seed: 'golden 0 2' }];
    const actual: Golden[] = cases.map(({ prize, seed }) => {
      const s = caratsRules.generate(outcomeOf(prize), seedOf(seed), undefined);
      return { prize, seed, winning: s.winning.join(' '), numbers: s.numbers.join(' '), amounts: s.amounts.join(' ') };
    });
    if (process.env.GOLDEN_WRITE === '1') {
      writeFileSync(FILE, JSON.stringify(actual, null, 2) + '\n');
      return;
    }
    assert.deepEqual(actual, JSON.parse(readFileSync(FILE, 'utf8')));
  });
});
