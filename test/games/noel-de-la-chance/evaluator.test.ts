import { strict as assert } from 'node:assert';
import { formatEuros } from '../../../src/money';
import { evaluate } from '../../../src/games/noel-de-la-chance/evaluator';
import { NOEL_TABLES } from '../../../src/games/noel-de-la-chance/prize-table';
import { ruleViolations } from '../../../src/games/noel-de-la-chance/rules-check';
import {
  PRIZE_AT_50_BY_COUNT,
  type CellSymbol,
  type GameSymbol,
  type NoelScenario,
} from '../../../src/games/noel-de-la-chance/scenario';

/** A grid written by hand: `spec` lists [symbol, times] pairs, decor 'holly' fills the rest. */
function grid(spec: [CellSymbol, number][], filler: CellSymbol = 'holly'): CellSymbol[] {
  const cells: CellSymbol[] = [];
  for (const [symbol, n] of spec) for (let i = 0; i < n; i++) cells.push(symbol);
  while (cells.length < 18) cells.push(filler);
  return cells;
}

function scenario(stake: number, symbol: GameSymbol, cells: CellSymbol[]): NoelScenario {
  return { stake, symbol, cells };
}

describe('noel-de-la-chance evaluator', () => {
  // Article 4.4, copied from the règlement: euros for 10, 9, 8, 7, 6, 5, 4 matching symbols.
  const RULES_COLUMNS: Record<number, string[]> = {
    50: ['2500', '250', '50', '10', '2.50', '1', '0.50'],
    100: ['5000', '500', '100', '20', '5', '2', '1'],
    200: ['10000', '1000', '200', '40', '10', '4', '2'],
  };
  const cents = (euros: string) => Math.round(Number(euros) * 100);

  for (const stake of [50, 100, 200]) {
    it(`pays the article 4.4 column of the ${formatEuros(stake)} € stake for 10 down to 4 matching symbols`, () => {
      const column = RULES_COLUMNS[stake]!;
      for (let i = 0; i < 7; i++) {
        const count = 10 - i;
        const s = scenario(stake, 'star', grid([['star', count], ['bell', 3], ['gift', 3]]));
        assert.equal(evaluate(s), cents(column[i]!), `${count} stars at ${stake}`);
      }
    });
  }

  it('gives nothing for 3 or fewer matching symbols', () => {
    for (let count = 0; count <= 3; count++) {
      assert.equal(evaluate(scenario(50, 'bell', grid([['bell', count], ['star', 3], ['gift', 3]]))), 0);
    }
  });

  it('counts only the selected symbol, wherever it lies', () => {
    const cells = grid([['gift', 5], ['star', 2]]).reverse();
    assert.equal(evaluate(scenario(100, 'gift', cells)), 200);
    assert.equal(evaluate(scenario(100, 'star', cells)), 0);
    assert.equal(evaluate(scenario(100, 'bell', cells)), 0);
    // Decor symbols never pay, however many there are.
    assert.equal(evaluate(scenario(100, 'bell', grid([], 'candle'))), 0);
  });

  it('gives nothing for more than 10 (article 4.5: every other case loses)', () => {
    assert.equal(evaluate(scenario(50, 'star', grid([['star', 11]]))), 0);
  });

  it('refuses to price a stake the game is not sold at', () => {
    assert.throws(() => evaluate(scenario(150, 'star', grid([['star', 4]]))));
  });

  it('agrees with the prize tables of article 3 (same amounts, stake factors 1, 2, 4)', () => {
    for (const table of NOEL_TABLES) {
      const fromRules = [10, 9, 8, 7, 6, 5, 4].map((k) => PRIZE_AT_50_BY_COUNT[k]! * (table.stake / 50));
      assert.deepEqual(table.tiers.map((t) => t.prize), fromRules);
    }
  });
});

describe('noel-de-la-chance ruleViolations', () => {
  const valid = () => scenario(50, 'star', grid([['star', 6], ['bell', 3], ['gift', 3]], 'sleigh'));

  it('finds nothing wrong in a valid scenario', () => {
    assert.deepEqual(ruleViolations(valid()), []);
  });

  it('catches a grid that is not 18 cells', () => {
    const s = valid();
    assert.equal(ruleViolations({ ...s, cells: s.cells.slice(1) }).length, 1);
    assert.equal(ruleViolations({ ...s, cells: [...s.cells, 'holly'] }).length, 1);
  });

  it('catches an unknown symbol in a cell', () => {
    const cells = [...valid().cells] as string[];
    cells[7] = 'reindeer';
    assert.match(ruleViolations({ ...valid(), cells: cells as CellSymbol[] }).join(), /cell 7/);
  });

  it('catches a selected symbol that is not a game symbol', () => {
    assert.match(ruleViolations({ ...valid(), symbol: 'holly' as GameSymbol }).join(), /not a game symbol/);
  });

  it('catches a stake the game is not sold at', () => {
    assert.match(ruleViolations({ ...valid(), stake: 500 }).join(), /stake/);
  });

  it('catches a symbol not selected shown 4 times (the choice would have looked like it mattered)', () => {
    const s = scenario(50, 'star', grid([['star', 6], ['bell', 4]]));
    assert.match(ruleViolations(s).join(), /bell .* 4 times/);
    // Selecting bell instead flags the 6 stars; selecting gift flags both.
    assert.match(ruleViolations({ ...s, symbol: 'bell' }).join(), /star .* 6 times/);
    assert.deepEqual(ruleViolations({ ...s, symbol: 'gift' }).length, 2);
  });

  it('catches the selected symbol shown more than 10 times', () => {
    assert.match(ruleViolations(scenario(50, 'gift', grid([['gift', 11]]))).join(), /more than 10/);
  });
});
