import type { Cents, FinishedEvent } from '../types';

/**
 * Gem colours, from the largest prize down (règlement article 4.6). The index of a colour in
 * this list is used as a compact code inside the generator and the evaluator.
 */
export const COLOURS = ['blue', 'green', 'red', 'violet', 'yellow', 'orange', 'white'] as const;
export type Colour = (typeof COLOURS)[number];

/** Prize for collecting 6 gems of a colour, in cents, at the only price (0.50 €). */
export const PRIZE_BY_COLOUR: Readonly<Record<Colour, Cents>> = {
  blue: 500_000, green: 50_000, red: 2_000, violet: 1_000, yellow: 500, orange: 100, white: 50,
};

export const STAKE: Cents = 50;
export const COLUMNS = 5;
export const ROWS = 4;
export const BOXES = 5;
/** Gems of one colour that win its prize. */
export const TO_WIN = 6;

/**
 * Everything the reveal needs, fixed before the first box is opened.
 * - `grid[col]` lists that column's 4 gems from the top (row 0) to the bottom (row 3); the
 *   whole grid is shown at purchase.
 * - `queues[col]` lists the gems that will enter that column, in order of entry. Picture them
 *   stacked above the column, `queues[col][0]` just above row 0: when k gems leave a column,
 *   the gems above fall and the next k queued gems come down behind them, so the first one
 *   enters lowest. A queue is exactly as long as the reveal uses.
 * - `boxes[k]` is the colour shown by the k-th box opened, whichever box the player clicks.
 */
export interface RainDiamondsScenario {
  readonly grid: readonly (readonly Colour[])[];
  readonly queues: readonly (readonly Colour[])[];
  readonly boxes: readonly Colour[];
}

/** A grid position: column 0..4 from the left, row 0..3 from the top. */
export interface Cell {
  readonly col: number;
  readonly row: number;
}

export type RainDiamondsAction =
  | { readonly type: 'open'; readonly box: number }
  | { readonly type: 'auto' };

/** The grid at purchase: `grid[col][row]`, columns from the left, each from the top (as in the scenario). */
export interface GridShownEvent {
  readonly type: 'grid_shown';
  readonly grid: readonly (readonly Colour[])[];
}
/** `order` is 1 for the first box opened, 5 for the last. */
export interface BoxOpenedEvent {
  readonly type: 'box_opened';
  readonly box: number;
  readonly colour: Colour;
  readonly order: number;
}
/**
 * The gems of `colour` taken out of the grid (possibly none); `total` is the running count.
 * Order of `cells`: column by column from the left, each from the top (row 0) down.
 */
export interface GemsCollectedEvent {
  readonly type: 'gems_collected';
  readonly colour: Colour;
  readonly cells: readonly Cell[];
  readonly total: number;
}
/**
 * Gems that moved down; only emitted when some gem moves. Order of `moves`: column by column
 * from the left, each from the lowest moving gem up (`fromRow` decreasing), the order in which
 * they can land without passing through one another.
 */
export interface GemsFellEvent {
  readonly type: 'gems_fell';
  readonly moves: readonly { readonly col: number; readonly fromRow: number; readonly toRow: number }[];
}
/**
 * New gems that entered at the top; only emitted when some gem enters. Order of `cells`: column
 * by column from the left, each in entry order (the queue's order), so from the lowest row up.
 */
export interface GemsEnteredEvent {
  readonly type: 'gems_entered';
  readonly cells: readonly (Cell & { readonly colour: Colour })[];
}

export type RainDiamondsEvent =
  | GridShownEvent
  | BoxOpenedEvent
  | GemsCollectedEvent
  | GemsFellEvent
  | GemsEnteredEvent
  | FinishedEvent;

/** The game takes no picks and no choices. */
export type RainDiamondsPicks = undefined;
export type RainDiamondsChoices = undefined;

/**
 * The reveal's state (plain immutable data; holds the hidden scenario, so it is never sent).
 * `grid` and `queueUsed` are the grid as it stands and how many gems each queue has given.
 */
export interface RainDiamondsState {
  readonly prize: Cents;
  readonly scenario: RainDiamondsScenario;
  readonly grid: readonly (readonly Colour[])[];
  readonly queueUsed: readonly number[];
  /** Colour shown by each box position, null while closed. */
  readonly boxes: readonly (Colour | null)[];
  /** Box positions in the order the player opened them. */
  readonly openOrder: readonly number[];
  readonly collected: Readonly<Record<Colour, number>>;
  readonly finished: boolean;
}
