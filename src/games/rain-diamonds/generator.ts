import { Rng, nonceFor } from '../../random/rng';
import type { Outcome } from '../types';
import * as R from './scenario';
import type { Colour, RainDiamondsScenario } from './scenario';

/*
 * How a scenario is made. Gems are numbered as they appear: the 20 of the grid, then each one
 * that enters a column (the queues are exactly the gems that entered, so never too long).
 *
 * Losing unit: the neutral draw, i.e. every gem and every box colour uniform and independent,
 * the boxes played by the rules, and the whole draw redone while some colour reaches 6. Its near
 * misses (5 of a colour) come only as often as chance gives them (GLI-19 4.5.2).
 *
 * Winning unit of colour W: 1 to 4 box positions (drawn) show W and together collect exactly 6
 * gems, split at random (all 6 at once, or over several boxes); the other boxes show other
 * colours. Colours are decided lazily: a gem's colour stays open until a box needs it. When a
 * box of colour c opens, a gem in the grid either is c (collected) or becomes "not c". A W box
 * makes exactly its share of the open gems W (a uniform subset); any other box is neutral, each
 * open gem being c with probability 1 / (colours it may still be), which is the neutral draw
 * decided late. Gems left at the end take a colour no box barred them from. The whole draw is
 * redone if a W box cannot find its share or another colour reaches 6.
 */

// Local copies: imported bindings may be compiled to getters, too slow for the inner loops.
const { BOXES, COLOURS, COLUMNS, PRIZE_BY_COLOUR, ROWS, STAKE, TO_WIN } = R;
const NCOL = COLOURS.length;
const ALL = (1 << NCOL) - 1;
const CELLS = COLUMNS * ROWS;
/** Gems a unit can number: the 20 of the grid plus at most 20 entering per box. */
const MAX_GEMS = CELLS * (BOXES + 1);
const MAX_ATTEMPTS = 10_000;
const NONCE = nonceFor('rain-diamond');

/** The colours a 7-bit mask allows, for every mask. */
const ALLOWED: readonly (readonly number[])[] = Array.from({ length: ALL + 1 }, (_, m) =>
  [...COLOURS.keys()].filter((i) => (m >> i) & 1),
);
/** Number of colours in a mask. */
const POPCOUNT = Uint8Array.from(ALLOWED, (l) => l.length);
/** How many boxes show the winning colour: 1 in 3 of 10 wins, 2 in 4, 3 in 2, 4 in 1. */
const WIN_BOXES = [1, 1, 1, 2, 2, 2, 2, 3, 3, 4] as const;
const COLOUR_OF_PRIZE = new Map<number, number>(COLOURS.map((c, i) => [PRIZE_BY_COLOUR[c], i]));

// For oneIn(n): bytes from ONE_IN_LIMIT[n] up are redrawn, the rest split into n equal parts.
const ONE_IN_LIMIT = Uint16Array.from({ length: NCOL + 1 }, (_, n) => (n === 0 ? 0 : 256 - (256 % n)));
const ONE_IN_THRESHOLD = Uint16Array.from(ONE_IN_LIMIT, (l, n) => (n === 0 ? 0 : l / n));

/**
 * Small uniform draws from the unit's ChaCha20 stream, one byte at a time (rejection sampling
 * per byte, so unbiased): a unit needs dozens of draws below 21, four from each 32-bit word.
 */
class ByteDraws {
  private word = 0;
  private left = 0;
  constructor(private readonly rng: Rng) {}

  private byte(): number {
    if (this.left === 0) {
      this.word = this.rng.nextU32();
      this.left = 4;
    }
    const b = this.word & 255;
    this.word >>>= 8;
    this.left--;
    return b;
  }

  /** Uniform in [0, n), 1 <= n <= 256. */
  below(n: number): number {
    const limit = 256 - (256 % n);
    for (;;) {
      const b = this.byte();
      if (b < limit) return b % n;
    }
  }

  /** True with probability 1/n, 1 <= n <= 7 (the hot path of a neutral box: no division). */
  oneIn(n: number): boolean {
    const limit = ONE_IN_LIMIT[n]!;
    for (;;) {
      const b = this.byte();
      if (b < limit) return b < ONE_IN_THRESHOLD[n]!;
    }
  }
}

// Scratch state of one draw, reused (generation is synchronous): no allocation per attempt.
const colourOf = new Int8Array(MAX_GEMS); // colour index, -1 while undecided
const barred = new Uint8Array(MAX_GEMS); // colours a gem is known not to be (bitmask)
const taken = new Uint8Array(MAX_GEMS); // collected by the box being opened
const grid = new Uint8Array(CELLS); // gem numbers, col * ROWS + row, row 0 at the top
const queue = new Uint8Array(COLUMNS * MAX_GEMS); // gems that entered each column, in order
const queueLen = new Uint8Array(COLUMNS);
const totals = new Uint8Array(NCOL);
const eligible = new Uint8Array(CELLS);
const boxColour = new Uint8Array(BOXES);
const isWinBox = new Uint8Array(BOXES);
let nextGem = 0;

function reset(): void {
  for (let i = 0; i < CELLS; i++) {
    grid[i] = i;
    colourOf[i] = -1;
    barred[i] = 0;
  }
  nextGem = CELLS;
  queueLen.fill(0);
  totals.fill(0);
}

/**
 * After a box of colour `c`: the `taken` gems leave, the others fall (and are now known not to
 * be c), and each column numbers the gems entering from its queue, the first one lowest. With
 * `eager` the new gems' colours are drawn at once, otherwise they stay undecided.
 */
function collapse(c: number, draw: ByteDraws, eager: boolean): void {
  const bit = 1 << c;
  for (let col = 0; col < COLUMNS; col++) {
    const base = col * ROWS;
    let to = base + ROWS - 1;
    for (let from = to; from >= base; from--) {
      const g = grid[from]!;
      if (taken[g]) colourOf[g] = c;
      else {
        barred[g]! |= bit;
        grid[to--] = g;
      }
    }
    for (; to >= base; to--) {
      const g = nextGem++;
      colourOf[g] = eager ? draw.below(NCOL) : -1;
      barred[g] = 0;
      grid[to] = g;
      queue[col * MAX_GEMS + queueLen[col]!++] = g;
    }
  }
}

/** One neutral draw; false (redo) when some colour reaches 6. */
function drawLoss(draw: ByteDraws): boolean {
  reset();
  for (let g = 0; g < CELLS; g++) colourOf[g] = draw.below(NCOL);
  for (let k = 0; k < BOXES; k++) boxColour[k] = draw.below(NCOL);
  for (let k = 0; k < BOXES; k++) {
    const c = boxColour[k]!;
    let count = 0;
    for (let i = 0; i < CELLS; i++) {
      const g = grid[i]!;
      const t = colourOf[g] === c ? 1 : 0;
      taken[g] = t;
      count += t;
    }
    collapse(c, draw, true);
    totals[c]! += count;
    if (totals[c]! >= TO_WIN) return false;
  }
  return true;
}

/** Opens a neutral box of colour `c` over undecided gems. */
function openNeutral(draw: ByteDraws, c: number): void {
  const bit = 1 << c;
  let count = 0;
  for (let i = 0; i < CELLS; i++) {
    const g = grid[i]!;
    const b = barred[g]!;
    const t = (b & bit) === 0 && draw.oneIn(NCOL - POPCOUNT[b]!) ? 1 : 0;
    taken[g] = t;
    count += t;
  }
  totals[c]! += count;
  collapse(c, draw, false);
}

/**
 * Opens a box of the winning colour `c` that must collect some of the gems still missing, leaving
 * at least one for each later such box. False (redo) when the grid cannot give them.
 */
function openWinning(draw: ByteDraws, c: number, later: number): boolean {
  const bit = 1 << c;
  let e = 0;
  for (let i = 0; i < CELLS; i++) {
    const g = grid[i]!;
    taken[g] = 0;
    if ((barred[g]! & bit) === 0) eligible[e++] = g;
  }
  // The last such box takes all that is missing; an earlier one a random part of it.
  let share = TO_WIN - totals[c]!;
  if (later > 0) {
    const most = Math.min(e, share - later);
    if (most < 1) return false;
    share = 1 + draw.below(most);
  }
  if (e < share) return false;
  // A uniform subset of `share` of the open gems (partial Fisher–Yates).
  for (let i = 0; i < share; i++) {
    const j = i + draw.below(e - i);
    const g = eligible[j]!;
    eligible[j] = eligible[i]!;
    eligible[i] = g;
    taken[g] = 1;
  }
  totals[c]! += share;
  collapse(c, draw, false);
  return true;
}

/** One draw of a unit winning colour `win`; false when it must be redone. */
function drawWin(draw: ByteDraws, win: number): boolean {
  reset();
  // m of the 5 positions show the winning colour (selection sampling), the others another one.
  let m: number = WIN_BOXES[draw.below(WIN_BOXES.length)]!;
  for (let k = 0; k < BOXES; k++) {
    if (draw.below(BOXES - k) < m) {
      boxColour[k] = win;
      isWinBox[k] = 1;
      m--;
    } else {
      const other = draw.below(NCOL - 1);
      boxColour[k] = other >= win ? other + 1 : other;
      isWinBox[k] = 0;
    }
  }
  for (let k = 0; k < BOXES; k++) {
    const c = boxColour[k]!;
    if (isWinBox[k]) {
      let later = 0;
      for (let j = k + 1; j < BOXES; j++) later += isWinBox[j]!;
      if (!openWinning(draw, c, later)) return false;
    } else {
      openNeutral(draw, c);
      if (totals[c]! >= TO_WIN) return false;
    }
  }
  // The gems still in the grid take a colour no box has barred them from.
  for (let i = 0; i < CELLS; i++) {
    const g = grid[i]!;
    const allowed = ALLOWED[ALL & ~barred[g]!]!;
    colourOf[g] = allowed[draw.below(allowed.length)]!;
  }
  return true;
}

function build(): RainDiamondsScenario {
  const gridOut: Colour[][] = [];
  const queuesOut: Colour[][] = [];
  for (let col = 0; col < COLUMNS; col++) {
    const column: Colour[] = [];
    for (let row = 0; row < ROWS; row++) column.push(COLOURS[colourOf[col * ROWS + row]!]!);
    gridOut.push(column);
    const q: Colour[] = [];
    for (let i = 0; i < queueLen[col]!; i++) q.push(COLOURS[colourOf[queue[col * MAX_GEMS + i]!]!]!);
    queuesOut.push(q);
  }
  const boxes: Colour[] = [];
  for (let k = 0; k < BOXES; k++) boxes.push(COLOURS[boxColour[k]!]!);
  return { grid: gridOut, queues: queuesOut, boxes };
}

/** A scenario presenting exactly `outcome`, reproducible bit for bit from `seed`. */
export function generate(outcome: Outcome, seed: Uint8Array): RainDiamondsScenario {
  if (outcome.stake !== STAKE) throw new Error(`rain-diamonds is sold at ${STAKE} cents only, not ${outcome.stake}`);
  const win = outcome.prize === 0 ? -1 : COLOUR_OF_PRIZE.get(outcome.prize);
  if (win === undefined) throw new Error(`rain-diamonds has no prize of ${outcome.prize} cents`);
  const draw = new ByteDraws(new Rng(seed, NONCE));
  for (let n = 0; n < MAX_ATTEMPTS; n++) {
    if (win < 0 ? drawLoss(draw) : drawWin(draw, win)) return build();
  }
  throw new Error(`rain-diamonds: no scenario for ${outcome.prize} cents after ${MAX_ATTEMPTS} draws`);
}
