import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { mineDOrRules as rules } from '../../../src/games/mine-d-or';
import type { MineSymbol } from '../../../src/games/mine-d-or/scenario';
import { seedOf } from './helpers';

/**
 * Pinned scenarios (golden.json): any change to the generator's draws shows here. If a change
 * is intended, regenerate the file from `generate` and say why in the commit.
 */
interface Golden {
  readonly label: string;
  readonly stake: number;
  readonly prize: number;
  readonly grids: MineSymbol[][];
}
const GOLDEN: Golden[] = JSON.parse(readFileSync(new URL('./golden.json', import.meta.url), 'utf8'));

describe('mine-d-or golden scenarios', () => {
  it('covers every price, losses, the top prize and the amounts only reached by adding or doubling', () => {
    for (const stake of [50, 100, 200]) {
      const prizes = new Set(GOLDEN.filter((g) => g.stake === stake).map((g) => g.prize));
      for (const p of [0, 1000, 100, 750_000].map((x) => (x * stake) / 50)) assert.ok(prizes.has(p), `${stake}: ${p}`);
    }
  });

  for (const g of GOLDEN) {
    it(`still generates ${g.label} as pinned`, () => {
      const scenario = rules.generate({ stake: g.stake, prize: g.prize }, seedOf(g.label), undefined);
      assert.deepEqual(scenario, { stake: g.stake, grids: g.grids });
      assert.equal(rules.evaluate(scenario), g.prize);
    });
  }
});
