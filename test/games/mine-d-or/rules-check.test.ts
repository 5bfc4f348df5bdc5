import { strict as assert } from 'node:assert';
import { mineDOrRules as rules } from '../../../src/games/mine-d-or';
import type { MineDOrScenario, MineSymbol } from '../../../src/games/mine-d-or/scenario';
import { seedOf } from './helpers';

const LOSING: MineSymbol[] = ['pepite', 'diamant', 'billet', 'billet', 'cactus', 'pioche', 'diamant', 'pepite', 'bougie'];
const WITH_EXTRA: MineSymbol[] = ['pepite', 'extra', 'billet', 'billet', 'cactus', 'pioche', 'diamant', 'pepite', 'bougie'];

function violations(s: unknown): string[] {
  return rules.ruleViolations(s as MineDOrScenario);
}

describe('mine-d-or rules check', () => {
  it('finds nothing wrong with valid units', () => {
    assert.deepEqual(violations({ stake: 50, grids: [LOSING] }), []);
    assert.deepEqual(violations({ stake: 200, grids: [WITH_EXTRA, LOSING] }), []);
  });

  it('catches a price Mine d\'or is not sold at', () => {
    assert.match(violations({ stake: 500, grids: [LOSING] }).join(), /stake 500/);
  });

  it('catches a unit without a main grid, and grids that are not 3×3', () => {
    assert.match(violations({ stake: 50, grids: [] }).join(), /main grid/);
    assert.match(violations({ stake: 50, grids: [LOSING.slice(0, 8)] }).join(), /8 cells/);
  });

  it('catches an unknown symbol', () => {
    assert.match(violations({ stake: 50, grids: [[...LOSING.slice(0, 8), 'gold']] }).join(), /unknown symbol "gold"/);
  });

  it('catches a symbol shown more than 3 times in a grid', () => {
    const four: MineSymbol[] = ['pepite', 'pepite', 'pepite', 'pepite', 'cactus', 'pioche', 'diamant', 'billet', 'bougie'];
    assert.match(violations({ stake: 50, grids: [four] }).join(), /pepite shows 4 times/);
  });

  it('catches Extra stages that do not match the EXTRA symbols, or are not yet earned', () => {
    assert.match(violations({ stake: 50, grids: [LOSING, LOSING] }).join(), /not earned/);
    assert.match(violations({ stake: 50, grids: [WITH_EXTRA] }).join(), /1 EXTRA symbols but 0 Extra stages/);
    const threeExtras: MineSymbol[] = ['extra', 'extra', 'extra', 'billet', 'cactus', 'pioche', 'diamant', 'pepite', 'bougie'];
    assert.match(violations({ stake: 50, grids: [threeExtras, LOSING] }).join(), /3 EXTRA symbols but 1 Extra stages/);
  });

  it('catches more than 4 Extra stages', () => {
    const threeExtras: MineSymbol[] = ['extra', 'extra', 'extra', 'billet', 'cactus', 'pioche', 'diamant', 'pepite', 'bougie'];
    const s = { stake: 50, grids: [threeExtras, WITH_EXTRA, WITH_EXTRA, LOSING, LOSING, LOSING] };
    assert.match(violations(s).join(), /5 Extra stages: at most 4/);
  });

  it('catches a generated scenario broken by hand', () => {
    const good = rules.generate({ stake: 100, prize: 2000 }, seedOf('broken'), undefined);
    assert.deepEqual(rules.ruleViolations(good), []);
    const grids = good.grids.map((g) => g.slice());
    grids[0]![0] = grids[0]![1]!;
    grids[0]![2] = grids[0]![1]!;
    grids[0]![3] = grids[0]![1]!;
    assert.notDeepEqual(rules.ruleViolations({ stake: 100, grids }), []);
  });
});
