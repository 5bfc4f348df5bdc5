import type { Cents } from '../types';
import {
  GAIN_AT_50,
  GRID_CELLS,
  STAKES,
  WINNING_SYMBOLS,
  type Combination,
  type MineDOrScenario,
  type MineSymbol,
  type WinningSymbol,
} from './scenario';

/**
 * The prize of a unit, read from the rules alone (articles 4.4 to 4.7), independent of how the
 * generator builds grids: play the main grid, then one Extra stage per EXTRA found so far, and
 * add every gain.
 */

/** isLine[mask] = 1 when the cells of the 9-bit `mask` are one whole row, column or diagonal. */
const IS_LINE = new Uint8Array(1 << GRID_CELLS);
for (let a = 0; a < GRID_CELLS; a++) {
  for (let b = a + 1; b < GRID_CELLS; b++) {
    for (let c = b + 1; c < GRID_CELLS; c++) {
      const rows = [a, b, c].map((i) => Math.floor(i / 3));
      const cols = [a, b, c].map((i) => i % 3);
      const sameRow = rows[0] === rows[1] && rows[1] === rows[2];
      const sameCol = cols[0] === cols[1] && cols[1] === cols[2];
      const diagonal = [0, 1, 2].every((k) => rows[k] === cols[k]);
      const antiDiagonal = [0, 1, 2].every((k) => rows[k]! + cols[k]! === 2);
      if (sameRow || sameCol || diagonal || antiDiagonal) IS_LINE[(1 << a) | (1 << b) | (1 << c)] = 1;
    }
  }
}

/** Index of a winning symbol in WINNING_SYMBOLS; EXTRA and unknown text are not winning. */
const WIN_INDEX: Readonly<Record<string, number>> = Object.fromEntries(WINNING_SYMBOLS.map((s, i) => [s, i]));
const GAINS: readonly Cents[] = WINNING_SYMBOLS.map((s) => GAIN_AT_50[s]);

// Scratch buffers reused by gridGain (single-threaded and never re-entered).
const counts = new Int32Array(WINNING_SYMBOLS.length);
const masks = new Int32Array(WINNING_SYMBOLS.length);

function factorOf(stake: Cents): number {
  if (!(STAKES as readonly number[]).includes(stake)) throw new RangeError(`Mine d'or is not sold at ${stake} cents`);
  return stake / 50;
}

function tally(symbols: readonly MineSymbol[]): void {
  counts.fill(0);
  masks.fill(0);
  for (let cell = 0; cell < symbols.length; cell++) {
    const i = WIN_INDEX[symbols[cell]!];
    if (i === undefined) continue;
    counts[i]!++;
    masks[i]! |= 1 << cell;
  }
}

/** Gain of one grid: 3 identical symbols win, doubled on a line; combinations add up. */
export function gridGain(symbols: readonly MineSymbol[], stake: Cents): Cents {
  const factor = factorOf(stake);
  tally(symbols);
  let gain = 0;
  for (let i = 0; i < GAINS.length; i++) {
    if (counts[i] !== 3) continue;
    gain += GAINS[i]! * factor * (IS_LINE[masks[i]!] ? 2 : 1);
  }
  return gain;
}

/** The winning combinations of one grid, best symbol first (what the player is shown). */
export function gridCombinations(symbols: readonly MineSymbol[], stake: Cents): Combination[] {
  const factor = factorOf(stake);
  tally(symbols);
  const found: Combination[] = [];
  for (let i = 0; i < GAINS.length; i++) {
    if (counts[i] !== 3) continue;
    const mask = masks[i]!;
    const aligned = IS_LINE[mask] === 1;
    const cells: number[] = [];
    for (let cell = 0; cell < GRID_CELLS; cell++) if (mask & (1 << cell)) cells.push(cell);
    found.push({ symbol: WINNING_SYMBOLS[i] as WinningSymbol, cells, aligned, gain: GAINS[i]! * factor * (aligned ? 2 : 1) });
  }
  return found;
}

/** EXTRA symbols in one grid: each gives one Extra stage (article 4.6). */
export function extrasIn(symbols: readonly MineSymbol[]): number {
  let n = 0;
  for (let cell = 0; cell < symbols.length; cell++) if (symbols[cell] === 'extra') n++;
  return n;
}

/**
 * The unit's prize: the main grid, then as many Extra stages as EXTRA symbols found, in order.
 * A stage nobody earned is not played (the rules check reports it).
 */
export function evaluate(scenario: MineDOrScenario): Cents {
  const { grids, stake } = scenario;
  const main = grids[0];
  if (main === undefined) return 0;
  let prize = gridGain(main, stake);
  let pending = extrasIn(main);
  for (let stage = 1; pending > 0 && stage < grids.length; stage++) {
    const grid = grids[stage]!;
    prize += gridGain(grid, stake);
    pending += extrasIn(grid) - 1;
  }
  return prize;
}
