import { GRID_CELLS, MAX_EXTRA_STAGES, MAX_SAME_SYMBOL, STAKES, SYMBOLS, type MineDOrScenario } from './scenario';

/**
 * Every rule a scenario breaks (article 4 and docs/games/mine-d-or.md), as sentences; empty when valid.
 * Scoring is the evaluator's job; this checks shape: a priced unit, 3×3 grids of known symbols,
 * no symbol more than 3 times in a grid, and exactly one Extra stage per EXTRA symbol, each
 * earned before it is played, at most 4.
 */

const SYMBOL_INDEX: Readonly<Record<string, number>> = Object.fromEntries(SYMBOLS.map((s, i) => [s, i]));
const EXTRA = SYMBOL_INDEX['extra']!;
const counts = new Int32Array(SYMBOLS.length);

export function ruleViolations(scenario: MineDOrScenario): string[] {
  const found: string[] = [];
  if (!(STAKES as readonly number[]).includes(scenario.stake)) {
    found.push(`stake ${scenario.stake} is not a price of Mine d'or (50, 100 or 200 cents)`);
  }
  const { grids } = scenario;
  if (!Array.isArray(grids) || grids.length < 1) {
    found.push('a unit has a main grid');
    return found;
  }
  if (grids.length > 1 + MAX_EXTRA_STAGES) {
    found.push(`${grids.length - 1} Extra stages: at most ${MAX_EXTRA_STAGES}`);
  }
  // EXTRA symbols seen in the grids played so far: stage j needs at least j of them.
  let extrasSeen = 0;
  for (let stage = 0; stage < grids.length; stage++) {
    const grid = grids[stage]!;
    if (stage > 0 && extrasSeen < stage) {
      found.push(`Extra stage ${stage} is not earned: only ${extrasSeen} EXTRA before it`);
    }
    if (!Array.isArray(grid) || grid.length !== GRID_CELLS) {
      found.push(`grid ${stage} has ${Array.isArray(grid) ? grid.length : 'no'} cells, not ${GRID_CELLS}`);
      continue;
    }
    counts.fill(0);
    for (let cell = 0; cell < GRID_CELLS; cell++) {
      const i = SYMBOL_INDEX[grid[cell]!];
      if (i === undefined) found.push(`grid ${stage} cell ${cell}: unknown symbol ${JSON.stringify(grid[cell])}`);
      else counts[i]!++;
    }
    for (let i = 0; i < SYMBOLS.length; i++) {
      if (counts[i]! > MAX_SAME_SYMBOL) {
        found.push(`grid ${stage}: ${SYMBOLS[i]} shows ${counts[i]} times, at most ${MAX_SAME_SYMBOL}`);
      }
    }
    extrasSeen += counts[EXTRA]!;
  }
  if (extrasSeen !== grids.length - 1) {
    found.push(`${extrasSeen} EXTRA symbols but ${grids.length - 1} Extra stages: one stage per EXTRA`);
  }
  return found;
}
