import type { Cents, FinishedEvent } from '../types';

/**
 * Constants of the rules (règlement, article 4) and the shapes of a Mine d'or unit.
 * Evaluator, rules check and generator all read these; nothing here decides a scenario.
 */

/** The six symbols that win when three of them show in one grid, best first (article 4.4). */
export const WINNING_SYMBOLS = ['pepite', 'diamant', 'billet', 'bougie', 'cactus', 'pioche'] as const;
export type WinningSymbol = (typeof WINNING_SYMBOLS)[number];

/** Every symbol a cell can show: the six winning ones and EXTRA (article 4.6). */
export const SYMBOLS = [...WINNING_SYMBOLS, 'extra'] as const;
export type MineSymbol = (typeof SYMBOLS)[number];

/** Gain of three identical symbols for a 0.50 € unit, in cents (article 4.4). */
export const GAIN_AT_50: Readonly<Record<WinningSymbol, Cents>> = {
  pepite: 375_000, diamant: 10_000, billet: 2_000, bougie: 500, cactus: 200, pioche: 50,
};

/** The prices of a unit in cents (article 2); gains scale with the price (×2 at 1 €, ×4 at 2 €). */
export const STAKES = [50, 100, 200] as const;

/** A grid is 3 rows of 3 cells (articles 4.1 and 4.6); cells are numbered 0..8 row by row. */
export const GRID_CELLS = 9;
/** Settled (docs/games/mine-d-or.md): a symbol shows at most 3 times in a grid, so a combination is 3 symbols. */
export const MAX_SAME_SYMBOL = 3;
/** Settled (docs/games/mine-d-or.md): a unit has at most 4 Extra stages. */
export const MAX_EXTRA_STAGES = 4;

/**
 * A whole unit: the main grid then the Extra stages in the order they are played, each 9
 * symbols row-major. There are exactly as many Extra stages as EXTRA symbols in the unit, and
 * stage j is earned by an EXTRA in one of the grids before it.
 */
export interface MineDOrScenario {
  readonly stake: Cents;
  readonly grids: readonly (readonly MineSymbol[])[];
}

/** A winning combination found in one grid: 3 identical symbols, doubled when on one line. */
export interface Combination {
  readonly symbol: WinningSymbol;
  readonly cells: readonly number[];
  readonly aligned: boolean;
  readonly gain: Cents;
}

/** Mine d'or has no purchase-time picks and no choices. */
export type MineDOrPicks = undefined;
export type MineDOrChoices = undefined;

/** `extra`: press EXTRA (reveal the next Extra stage). `auto`: reveal every pending stage. */
export type MineDOrAction = { readonly type: 'extra' } | { readonly type: 'auto' };

/**
 * One grid shown: stage 0 is the main grid (shown at purchase), 1..4 the Extra stages.
 * `symbols` row-major (cells 0..8); `combinations` best symbol first (WINNING_SYMBOLS order, at
 * most one per symbol), each combination's `cells` increasing.
 */
export interface GridRevealedEvent {
  readonly type: 'grid_revealed';
  readonly stage: number;
  readonly symbols: readonly MineSymbol[];
  readonly combinations: readonly Combination[];
  /** Sum of this grid's combinations. */
  readonly gain: Cents;
  /** EXTRA symbols in this grid: Extra stages it earns. */
  readonly extrasEarned: number;
  /** Extra stages earned and not yet revealed, after this one. */
  readonly extrasPending: number;
}

export type MineDOrEvent = GridRevealedEvent;
export type MineDOrStreamEvent = MineDOrEvent | FinishedEvent;

/**
 * The reveal: `revealed` grids of the scenario are shown (the main grid at purchase, so at
 * least 1). Holds the hidden prize and the hidden stages: never sent as is.
 */
export interface MineDOrState {
  readonly scenario: MineDOrScenario;
  readonly prize: Cents;
  readonly revealed: number;
  readonly finished: boolean;
}
