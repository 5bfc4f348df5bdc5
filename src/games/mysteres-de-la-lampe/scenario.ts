import type { Cents } from '../types';

/**
 * Les mystères de la lampe: the shapes of a unit, its reveal and what is streamed.
 * Règlement art. 4: a unit is either "Votre couleur" (1 of 4 colours) or "Votre symbole"
 * (1 of 4 symbols); the potential gain of the pick is shown, the lamp reveals the winning
 * colour (symbol); same as the pick, the unit wins the shown gain.
 */

/** The 4 colours proposed on screen (rules 4.2.1). */
export const COLOURS = ['red', 'blue', 'green', 'gold'] as const;
/** The 4 symbols proposed on screen (rules 4.3.1). */
export const SYMBOLS = ['star', 'moon', 'sun', 'key'] as const;

export type LampColour = (typeof COLOURS)[number];
export type LampSymbol = (typeof SYMBOLS)[number];
export type LampKind = 'colour' | 'symbol';

/** The two kinds of unit and the values each offers. */
export const VALUES_OF_KIND: { readonly colour: readonly LampColour[]; readonly symbol: readonly LampSymbol[] } = {
  colour: COLOURS,
  symbol: SYMBOLS,
};

/** A purchase is one unit ("Votre couleur" or "Votre symbole") or both at once (article 4.4). */
export const MAX_UNITS_PER_PURCHASE = 2;

/** The player's pick, made before paying; it is also what shapes the scenario. */
export type LampChoice =
  | { readonly kind: 'colour'; readonly choice: LampColour }
  | { readonly kind: 'symbol'; readonly choice: LampSymbol };

/**
 * A whole unit as dealt. `potentialGain` is shown right after purchase; `result` is what the
 * lamp reveals once rubbed to 100 %. Both are values of the same kind as the pick.
 */
export interface LampScenario {
  readonly kind: LampKind;
  readonly pick: LampColour | LampSymbol;
  readonly potentialGain: Cents;
  readonly result: LampColour | LampSymbol;
}

/** Rub progress is streamed in whole percents; the lamp opens at this value. */
export const RUB_DONE = 100;

export type LampAction =
  /** The player's finger has rubbed up to `progress` % (1..100, strictly increasing). */
  | { readonly type: 'rub'; readonly progress: number }
  /** Rub to 100 % at once. */
  | { readonly type: 'auto' };

export type LampEvent =
  /**
   * At start: the player's pick and the gain attached to it (rules 4.2.2 / 4.3.2). The pick is
   * in the step so that whoever sees the unit (a watcher, a recall) sees what was chosen.
   */
  | { readonly type: 'potential_gain_shown'; readonly pick: LampChoice; readonly amount: Cents }
  | { readonly type: 'rub_progress'; readonly progress: number }
  /** At 100 %: the winning colour (symbol). */
  | { readonly type: 'lamp_opened'; readonly result: LampColour | LampSymbol };

/**
 * The reveal's state: plain immutable data. `progress` 0 means not rubbed yet; the reveal is
 * over at RUB_DONE. `prize` is the dealt prize (hidden until `finished`).
 */
export interface LampState {
  readonly scenario: LampScenario;
  readonly prize: Cents;
  readonly progress: number;
}
