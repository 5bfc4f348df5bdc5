import type { Cents, FinishedEvent, Outcome } from '../types';

/**
 * Le Noël de la chance: the constants of the rules (règlement, articles 3 and 4) and the shapes
 * of its scenario, actions and events. The evaluator and the generator both read these
 * constants; nothing else is shared between them.
 */

/** Article 4.1: three rows of six cells, 18 symbols in all. */
export const ROWS = 3;
export const COLS = 6;
export const CELL_COUNT = ROWS * COLS;

/** Article 4.3: the three game symbols the player chooses from (names settled here). */
export const GAME_SYMBOLS = ['star', 'bell', 'gift'] as const;
export type GameSymbol = (typeof GAME_SYMBOLS)[number];

export function isGameSymbol(value: unknown): value is GameSymbol {
  return value === GAME_SYMBOLS[0] || value === GAME_SYMBOLS[1] || value === GAME_SYMBOLS[2];
}

/** Decor symbols: they fill the cells and never win (names settled here). */
export const DECOR_SYMBOLS = ['holly', 'candle', 'snowflake', 'bauble', 'sleigh'] as const;
export type DecorSymbol = (typeof DECOR_SYMBOLS)[number];

export type CellSymbol = GameSymbol | DecorSymbol;
export const CELL_SYMBOLS: readonly CellSymbol[] = [...GAME_SYMBOLS, ...DECOR_SYMBOLS];

/** Article 2: the three prices, in cents. */
export const STAKES = [50, 100, 200] as const;
export type Stake = (typeof STAKES)[number];

/**
 * Article 4.4, column "mise de 0,5 €": the prize in cents by how many of the 18 cells show the
 * selected symbol (index = count). Fewer than 4 loses; article 4.5 makes every other case a
 * loss, so counts above 10 (which a valid scenario never shows) pay nothing either.
 */
export const PRIZE_AT_50_BY_COUNT: readonly Cents[] = [0, 0, 0, 0, 50, 100, 250, 1_000, 5_000, 25_000, 250_000];
export const MIN_WINNING_COUNT = 4;
export const MAX_COUNT = 10;

/** The 1 € and 2 € columns are the 0.50 € column times 2 and 4 (article 4.4). */
export function stakeFactor(stake: number): number | undefined {
  return stake === 50 ? 1 : stake === 100 ? 2 : stake === 200 ? 4 : undefined;
}

/**
 * Settled in docs/games/noel-de-la-chance.md: each game symbol the player did not choose appears at most 3 times,
 * so that no other choice would have looked like a win.
 */
export const MAX_OTHER_GAME_SYMBOL = 3;

/**
 * A scenario: the stake (the prize depends on it), the symbol the player chose, and the 18
 * cells in reading order (row 0 left to right, then row 1, then row 2): cell (row, col) is
 * `cells[row * COLS + col]`.
 */
export interface NoelScenario {
  readonly stake: Cents;
  readonly symbol: GameSymbol;
  readonly cells: readonly CellSymbol[];
}

/** The player's choice after purchase; it shapes the look, never the prize. */
export interface NoelChoices {
  readonly symbol: GameSymbol;
}

/** Choose the game symbol (once); the 18 cells then reveal themselves in the same step. */
export interface PickAction {
  readonly type: 'pick';
  readonly symbol: GameSymbol;
}
/** Reveal what is left: refused before the pick (the rules make the player choose). */
export interface AutoAction {
  readonly type: 'auto';
}
export type NoelAction = PickAction | AutoAction;

/** Step 0: the three game symbols the player must choose from (article 4.3), in GAME_SYMBOLS order. */
export interface SymbolsOfferedEvent {
  readonly type: 'symbols_offered';
  readonly symbols: readonly GameSymbol[];
}
export interface SymbolPickedEvent {
  readonly type: 'symbol_picked';
  readonly symbol: GameSymbol;
}
/** One per cell, in reading order: row 0 left to right, then row 1, then row 2. */
export interface CellRevealedEvent {
  readonly type: 'cell_revealed';
  readonly row: number;
  readonly col: number;
  readonly symbol: CellSymbol;
}
export type NoelEvent = SymbolsOfferedEvent | SymbolPickedEvent | CellRevealedEvent;
export type NoelStreamEvent = NoelEvent | FinishedEvent;

export type NoelPhase = 'pick' | 'finished';

/**
 * The reveal's state (holds hidden values: never sent). The seed is kept as hex so the state
 * stays plain, immutable, JSON-safe data; the scenario is generated when the symbol is picked.
 */
export interface NoelState {
  readonly phase: NoelPhase;
  readonly outcome: Outcome;
  readonly seedHex: string;
  readonly scenario: NoelScenario | undefined;
}
