import type { Cents } from '../types';
import * as S from './scenario';
import type { RainDiamondsScenario } from './scenario';

// Local copies: imported bindings may be compiled to getters, too slow for the inner loops.
const { BOXES, COLOURS, COLUMNS, PRIZE_BY_COLOUR, ROWS, TO_WIN } = S;

/** What playing the 5 boxes of a scenario does, by the rules (article 4.4). */
export interface Playthrough {
  /** Gems collected per colour, indexed like COLOURS. */
  readonly totals: number[];
  /** Gems taken from each column's queue. */
  readonly used: number[];
  /** Why the scenario cannot be played (a malformed grid, a queue that runs dry), if so. */
  readonly error?: string;
}

// Colour code by first letter (the seven colours start with seven different letters).
const BY_INITIAL = new Int8Array(128).fill(-1);
COLOURS.forEach((c, i) => (BY_INITIAL[c.charCodeAt(0)] = i));

/** The colour's index in COLOURS, or -1 if `gem` is not one of the seven colour names. */
export function colourCode(gem: unknown): number {
  if (typeof gem !== 'string') return -1;
  const i = BY_INITIAL[gem.charCodeAt(0) & 127]!;
  return i >= 0 && COLOURS[i] === gem ? i : -1;
}

// Scratch grid of colour codes, column-major (col * ROWS + row): evaluation is synchronous.
const cells = new Int8Array(COLUMNS * ROWS);

/**
 * Plays the scenario's boxes in order, written from the rules alone: the k-th box collects every
 * gem of its colour present at that moment, gems above fall, and each column takes as many new
 * gems from its queue as it lost, the first queued gem ending lowest. Gems that enter are not
 * collected by the box that made room for them.
 */
export function playThrough(s: RainDiamondsScenario): Playthrough {
  const totals = [0, 0, 0, 0, 0, 0, 0];
  const used = [0, 0, 0, 0, 0];
  if (!Array.isArray(s.grid) || s.grid.length !== COLUMNS) return { totals, used, error: `grid must have ${COLUMNS} columns` };
  if (!Array.isArray(s.queues) || s.queues.length !== COLUMNS) return { totals, used, error: `queues must have ${COLUMNS} columns` };
  if (!Array.isArray(s.boxes) || s.boxes.length !== BOXES) return { totals, used, error: `there must be ${BOXES} boxes` };
  for (let col = 0; col < COLUMNS; col++) {
    const column = s.grid[col];
    if (!Array.isArray(column) || column.length !== ROWS) return { totals, used, error: `column ${col} must hold ${ROWS} gems` };
    for (let row = 0; row < ROWS; row++) {
      const code = colourCode(column[row]);
      if (code < 0) return { totals, used, error: `gem at column ${col}, row ${row} is not a colour` };
      cells[col * ROWS + row] = code;
    }
    if (!Array.isArray(s.queues[col])) return { totals, used, error: `queue ${col} is not a list` };
  }
  for (let k = 0; k < BOXES; k++) {
    const colour = colourCode(s.boxes[k]);
    if (colour < 0) return { totals, used, error: `box ${k + 1} does not show a colour` };
    for (let col = 0; col < COLUMNS; col++) {
      const base = col * ROWS;
      // Compact the gems that stay towards the bottom, keeping their order.
      let to = base + ROWS - 1;
      for (let from = base + ROWS - 1; from >= base; from--) {
        const gem = cells[from]!;
        if (gem === colour) totals[colour]!++;
        else cells[to--] = gem;
      }
      // Fill the holes from the top of the queue downwards: the first queued gem lands lowest.
      const queue = s.queues[col]!;
      for (; to >= base; to--) {
        const code = colourCode(queue[used[col]!]);
        if (code < 0) return { totals, used, error: `queue ${col} runs out of colours at its gem ${used[col]! + 1}` };
        cells[to] = code;
        used[col]!++;
      }
    }
  }
  return { totals, used };
}

/**
 * The prize of a played scenario (article 4.6): each colour of which 6 gems were collected pays
 * its prize. Collecting more than 6 still counts as having collected 6; the generator never does
 * it and `ruleViolations` reports it. Throws if the scenario cannot be played.
 */
export function evaluate(s: RainDiamondsScenario): Cents {
  const { totals, error } = playThrough(s);
  if (error !== undefined) throw new Error(`rain-diamonds: unplayable scenario: ${error}`);
  let prize = 0;
  for (let i = 0; i < COLOURS.length; i++) if (totals[i]! >= TO_WIN) prize += PRIZE_BY_COLOUR[COLOURS[i]!];
  return prize;
}
