import { fromHex, toHex } from '../../random/hex';
import { Rng, nonceFor } from '../../random/rng';
import { isRecord, refuse, type Outcome, type Parsed, type Refusal, type Step } from '../types';
import { evaluate } from './evaluator';
import { generate, winningCountOf } from './generator';
import {
  COLS,
  GAME_SYMBOLS,
  ROWS,
  isGameSymbol,
  type GameSymbol,
  type NoelAction,
  type NoelState,
  type NoelStreamEvent,
} from './scenario';

/**
 * The reveal of Le Noël de la chance (article 4.3): after paying, the player must choose one of
 * the three game symbols; the 18 cells then reveal themselves, so the pick is the only step.
 * Phases: 'pick' (waiting for the choice, no scenario yet) then 'finished'.
 */

const PICK_NONCE = nonceFor('noel-pick');

type NoelStep = Step<NoelState, NoelStreamEvent>;

export function parseAction(input: unknown): Parsed<NoelAction> {
  if (!isRecord(input)) return refuse('action/malformed', 'an action is an object with a type');
  const { type, symbol } = input;
  if (type === 'auto') return { ok: true, value: { type: 'auto' } };
  if (type === 'pick') {
    if (typeof symbol !== 'string') return refuse('action/malformed', 'a pick names its symbol as a string');
    if (!isGameSymbol(symbol)) {
      return refuse('action/out_of_range', `symbol must be one of ${GAME_SYMBOLS.join(', ')}`);
    }
    return { ok: true, value: { type: 'pick', symbol } };
  }
  return refuse('action/malformed', 'unknown action type (expected pick or auto)');
}

export function start(outcome: Outcome, seed: Uint8Array, _picks: undefined): NoelStep {
  winningCountOf(outcome); // throws now, not at the pick, for an outcome the game cannot present
  if (seed.length !== 32) throw new RangeError(`seed must be 32 bytes, got ${seed.length}`);
  const state: NoelState = {
    phase: 'pick',
    outcome: { stake: outcome.stake, prize: outcome.prize },
    seedHex: toHex(seed),
    scenario: undefined,
  };
  return { ok: true, state, events: [{ type: 'symbols_offered', symbols: [...GAME_SYMBOLS] }] };
}

/** Build the scenario for the chosen symbol and reveal all 18 cells, in reading order. */
function pick(state: NoelState, symbol: GameSymbol): NoelStep {
  const scenario = generate(state.outcome, fromHex(state.seedHex), { symbol });
  const prize = evaluate(scenario);
  // The outcome was fixed at the deal; a scenario that says otherwise is a bug, never shown.
  if (prize !== state.outcome.prize) throw new Error(`noel-de-la-chance: scenario pays ${prize}, dealt ${state.outcome.prize}`);
  const events: NoelStreamEvent[] = [{ type: 'symbol_picked', symbol }];
  for (let row = 0; row < ROWS; row++) {
    for (let col = 0; col < COLS; col++) {
      events.push({ type: 'cell_revealed', row, col, symbol: scenario.cells[row * COLS + col]! });
    }
  }
  events.push({ type: 'finished', prize });
  return { ok: true, state: { ...state, phase: 'finished', scenario }, events };
}

export function reduce(state: NoelState, input: NoelAction): NoelStep | Refusal {
  // Actions may come straight from a caller that skipped parseAction: check them again.
  const parsed = parseAction(input);
  if (!parsed.ok) return parsed;
  const action = parsed.value;
  if (action.type === 'pick') {
    if (state.phase !== 'pick') return refuse('action/already_picked', 'the symbol has already been chosen');
    return pick(state, action.symbol);
  }
  if (state.phase === 'pick') {
    return refuse('action/pick_required', 'choose your game symbol first: the rules make the player choose it');
  }
  return refuse('action/finished', 'this unit is already fully revealed');
}

/** Finish on the player's behalf: a missing choice is drawn from the seed, then all is revealed. */
export function complete(state: NoelState): NoelStep {
  if (state.phase !== 'pick') return { ok: true, state, events: [] };
  const symbol = new Rng(fromHex(state.seedHex), PICK_NONCE).pick(GAME_SYMBOLS);
  return pick(state, symbol);
}

export function isFinished(state: NoelState): boolean {
  return state.phase === 'finished';
}
