import { strict as assert } from 'node:assert';
import { evaluate, gridCombinations, gridGain } from '../../../src/games/mine-d-or/evaluator';
import type { MineDOrScenario, MineSymbol } from '../../../src/games/mine-d-or/scenario';

/** A grid written as 3 rows of short names, so the tests read like the screen. */
const NAMES: Record<string, MineSymbol> = {
  P: 'pepite', D: 'diamant', B: 'billet', O: 'bougie', C: 'cactus', I: 'pioche', X: 'extra',
};
function grid(rows: string): MineSymbol[] {
  const cells = rows.replace(/\s+/g, '').split('').map((c) => NAMES[c]!);
  assert.equal(cells.length, 9);
  return cells;
}
function unit(stake: number, ...grids: string[]): MineDOrScenario {
  return { stake, grids: grids.map(grid) };
}

describe('mine-d-or evaluator', () => {
  it('pays 3 identical symbols not on a line their table gain (article 4.4)', () => {
    assert.equal(gridGain(grid('PDP BCI DPO'), 50), 375_000);
    assert.equal(gridGain(grid('DPB DCI BOD'), 50), 10_000);
    assert.equal(gridGain(grid('IBC ODI CBI'), 50), 50);
  });

  it('doubles a combination on a row, a column or a diagonal (article 4.5)', () => {
    assert.equal(gridGain(grid('OOO BCI DPC'), 50), 1000); // top row
    assert.equal(gridGain(grid('BCD BIO BPC'), 50), 4000); // left column
    assert.equal(gridGain(grid('ICD BIO PCI'), 50), 100); // diagonal
    assert.equal(gridGain(grid('BCD PDO DPC'), 50), 20_000); // anti-diagonal
    assert.equal(gridGain(grid('PPP BCI DOC'), 50), 750_000);
  });

  it('adds several combinations of one grid (article 4.4)', () => {
    // cactus on the top row (400) + pioche on the bottom row (100)
    assert.deepEqual(
      gridCombinations(grid('CCC BOP III'), 50).map((c) => [c.symbol, c.aligned, c.gain]),
      [['cactus', true, 400], ['pioche', true, 100]],
    );
    assert.equal(gridGain(grid('CCC BOP III'), 50), 500);
    // three combinations fill the grid: bougie row (1000), cactus and pioche not aligned (200 + 50)
    assert.equal(gridGain(grid('OOO CIC ICI'), 50), 1250);
  });

  it('scales gains with the price: ×2 at 1 €, ×4 at 2 €', () => {
    assert.equal(gridGain(grid('IBC ODI CBI'), 100), 100);
    assert.equal(gridGain(grid('IBC ODI CBI'), 200), 200);
    assert.equal(gridGain(grid('PPP BCI DOC'), 200), 3_000_000);
  });

  it('pays nothing for pairs, for EXTRA symbols, or for three EXTRA on a line', () => {
    assert.equal(gridGain(grid('PPD DBB CCI'), 50), 0);
    assert.equal(gridGain(grid('XXX PPD DBB'), 50), 0);
  });

  it('reports the cells of each combination, row-major', () => {
    assert.deepEqual(gridCombinations(grid('BCD PDO DPC'), 50), [
      { symbol: 'diamant', cells: [2, 4, 6], aligned: true, gain: 20_000 },
    ]);
  });

  it('adds the gains of the main grid and of every Extra stage into one prize (articles 4.6, 4.7)', () => {
    // main: bougie (500) + 1 EXTRA; stage 1: cactus on a column (400) + 1 EXTRA; stage 2: pioche (50)
    const s = unit(50, 'OXO BCO DPI', 'CXB CIP CDO', 'IBC ODI CBI');
    assert.equal(evaluate(s), 950);
  });

  it('plays one Extra stage per EXTRA, including EXTRAs found in Extra stages', () => {
    assert.equal(evaluate(unit(50, 'XXI BCO DPI', 'IBC ODI CBI', 'IBC ODI CBI')), 100);
    assert.equal(evaluate(unit(50, 'XBI BCO DPI', 'XBC ODI CBP', 'IBC ODI CBI')), 50);
  });

  it('does not pay a stage that no EXTRA earned', () => {
    assert.equal(evaluate(unit(50, 'PDB BCI DPO', 'IBC ODI CBI')), 0);
  });

  it('pays a losing unit nothing', () => {
    assert.equal(evaluate(unit(100, 'PDB BCI DPO')), 0);
    assert.equal(evaluate(unit(100, 'PXB BCI DPO', 'PDB BCI DPO')), 0);
  });
});
