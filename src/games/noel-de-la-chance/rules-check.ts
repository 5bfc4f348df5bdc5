import {
  CELL_COUNT,
  CELL_SYMBOLS,
  GAME_SYMBOLS,
  MAX_COUNT,
  MAX_OTHER_GAME_SYMBOL,
  stakeFactor,
  type NoelScenario,
} from './scenario';

const CELL_SET: ReadonlySet<string> = new Set(CELL_SYMBOLS);
const GAME_SET: ReadonlySet<string> = new Set(GAME_SYMBOLS);

/**
 * Every rule the scenario breaks, empty when valid: a known stake (article 2), 18 cells of known
 * symbols (4.1), a selected symbol among the three game symbols (4.3), at most 10 of it (the
 * table stops at 10), and at most 3 of each game symbol not selected (docs/games/noel-de-la-chance.md).
 */
export function ruleViolations(scenario: NoelScenario): string[] {
  const out: string[] = [];
  if (stakeFactor(scenario.stake) === undefined) out.push(`stake ${scenario.stake} is not a price of the game`);
  if (!GAME_SET.has(scenario.symbol)) out.push(`selected symbol ${String(scenario.symbol)} is not a game symbol`);
  const cells = scenario.cells;
  if (!Array.isArray(cells) || cells.length !== CELL_COUNT) {
    out.push(`expected ${CELL_COUNT} cells, got ${Array.isArray(cells) ? cells.length : typeof cells}`);
    if (!Array.isArray(cells)) return out;
  }
  // Counts of the three game symbols, in GAME_SYMBOLS order (a short loop beats a Map here).
  let c0 = 0, c1 = 0, c2 = 0;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (cell === GAME_SYMBOLS[0]) c0++;
    else if (cell === GAME_SYMBOLS[1]) c1++;
    else if (cell === GAME_SYMBOLS[2]) c2++;
    else if (!CELL_SET.has(cell)) out.push(`cell ${i} holds unknown symbol ${String(cell)}`);
  }
  const counts = [c0, c1, c2];
  for (let g = 0; g < GAME_SYMBOLS.length; g++) {
    const symbol = GAME_SYMBOLS[g]!;
    const n = counts[g]!;
    if (symbol === scenario.symbol) {
      if (n > MAX_COUNT) out.push(`selected symbol ${symbol} appears ${n} times, more than ${MAX_COUNT}`);
    } else if (n > MAX_OTHER_GAME_SYMBOL) {
      out.push(`game symbol ${symbol} (not selected) appears ${n} times, more than ${MAX_OTHER_GAME_SYMBOL}`);
    }
  }
  return out;
}
