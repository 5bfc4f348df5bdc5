import type { Cents } from '../../money';
import type { FinishedEvent } from '../types';

/**
 * A unit of 500 000 CARATS as printed: plain JSON-safe data.
 * - `winning`: the 6 "Numéros gagnants", in display order;
 * - `numbers`: the 24 "Vos numéros", in display order (index 0..23);
 * - `amounts`: `amounts[i]` is the sum in cents printed under `numbers[i]`.
 */
export interface CaratsScenario {
  readonly winning: readonly number[];
  readonly numbers: readonly number[];
  readonly amounts: readonly Cents[];
}

/** No purchase-time picks and no choice shapes the scenario. */
export type CaratsPicks = undefined;
export type CaratsChoices = undefined;

/**
 * The player's actions (article 4.1 and 4.4): first the winning numbers (one action reveals the
 * six), then "Vos numéros" one by one, by a drag over several, or AUTO for whatever is left.
 */
export type CaratsAction =
  | { readonly type: 'reveal_winning' }
  | { readonly type: 'reveal'; readonly index: number }
  | { readonly type: 'reveal_many'; readonly indexes: readonly number[] }
  | { readonly type: 'auto' };

/** The six winning numbers at once, in display order (`scenario.winning`). */
export interface WinningNumbersRevealedEvent {
  readonly type: 'winning_numbers_revealed';
  readonly numbers: readonly number[];
}

/**
 * `matched` is public once shown: the winning numbers are always revealed first. A step lists
 * its numbers in the order the action names them (a drag's `indexes` as sent); AUTO and the
 * server's completion in increasing index.
 */
export interface NumberRevealedEvent {
  readonly type: 'number_revealed';
  readonly index: number;
  readonly number: number;
  readonly amount: Cents;
  readonly matched: boolean;
}

export type CaratsEvent = WinningNumbersRevealedEvent | NumberRevealedEvent;
export type CaratsAnyEvent = CaratsEvent | FinishedEvent;
