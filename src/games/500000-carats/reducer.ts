import type { Cents } from '../../money';
import { isRecord, refuse, type Outcome, type Parsed, type Refusal, type Step } from '../types';
import { generate } from './generator';
import { NUMBERS_COUNT } from './rules';
import type { CaratsAction, CaratsAnyEvent, CaratsPicks, CaratsScenario } from './scenario';

/**
 * The reveal (article 4.1 and 4.4): the winning numbers first, all six at once; then the 24
 * numbers in any order, one by one, by a drag over several, or AUTO; `finished` once the 24th
 * is shown. The prize is fixed at purchase: actions only change what is shown.
 */
export interface CaratsState {
  /** The dealt prize (hidden until `finished`). */
  readonly prize: Cents;
  /** Hidden values: never send the state. */
  readonly scenario: CaratsScenario;
  readonly winningRevealed: boolean;
  /** `revealed[i]`: number i of "Vos numéros" has been shown. */
  readonly revealed: readonly boolean[];
  readonly revealedCount: number;
}

export type CaratsStep = Step<CaratsState, CaratsAnyEvent>;

export function start(outcome: Outcome, seed: Uint8Array, _picks: CaratsPicks): CaratsStep {
  const scenario = generate(outcome, seed);
  const state: CaratsState = {
    prize: outcome.prize,
    scenario,
    winningRevealed: false,
    revealed: new Array<boolean>(NUMBERS_COUNT).fill(false),
    revealedCount: 0,
  };
  return { ok: true, state, events: [] };
}

export function isFinished(state: CaratsState): boolean {
  return state.revealedCount === NUMBERS_COUNT;
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/**
 * Checks the shape of an untrusted action and returns a clean copy (unknown keys dropped).
 * Ranges and the game's order are the reducer's business, so that each gets its own code.
 */
export function parseAction(input: unknown): Parsed<CaratsAction> {
  if (!isRecord(input)) return refuse('action/malformed', 'an action is an object with a type');
  switch (input.type) {
    case 'reveal_winning':
      return { ok: true, value: { type: 'reveal_winning' } };
    case 'auto':
      return { ok: true, value: { type: 'auto' } };
    case 'reveal':
      if (!isIndex(input.index)) return refuse('action/malformed', 'reveal needs an integer index');
      return { ok: true, value: { type: 'reveal', index: input.index } };
    case 'reveal_many': {
      const indexes = input.indexes;
      if (!Array.isArray(indexes) || indexes.length === 0 || indexes.length > NUMBERS_COUNT) {
        return refuse('action/malformed', `reveal_many needs a list of 1 to ${NUMBERS_COUNT} indexes`);
      }
      if (!indexes.every(isIndex)) return refuse('action/malformed', 'reveal_many indexes must be integers');
      return { ok: true, value: { type: 'reveal_many', indexes: indexes.slice() } };
    }
    default:
      return refuse('action/malformed', 'unknown action type');
  }
}

function winningStep(state: CaratsState): { state: CaratsState; events: CaratsAnyEvent[] } {
  return {
    state: { ...state, winningRevealed: true },
    events: [{ type: 'winning_numbers_revealed', numbers: state.scenario.winning.slice() }],
  };
}

/** Shows `indexes` (already validated) in that order, and `finished` if nothing is left. */
function revealStep(state: CaratsState, indexes: readonly number[], events: CaratsAnyEvent[]): CaratsStep {
  const { winning, numbers, amounts } = state.scenario;
  const revealed = state.revealed.slice();
  for (const index of indexes) {
    revealed[index] = true;
    const number = numbers[index]!;
    events.push({ type: 'number_revealed', index, number, amount: amounts[index]!, matched: winning.includes(number) });
  }
  const next: CaratsState = { ...state, revealed, revealedCount: state.revealedCount + indexes.length };
  if (isFinished(next)) events.push({ type: 'finished', prize: next.prize });
  return { ok: true, state: next, events };
}

function checkIndex(state: CaratsState, index: number): Refusal | undefined {
  if (!isIndex(index) || index < 0 || index >= NUMBERS_COUNT) {
    return refuse('action/out_of_range', `index ${String(index)} is not in 0..${NUMBERS_COUNT - 1}`);
  }
  if (state.revealed[index]) return refuse('action/already_revealed', `number ${index} is already revealed`);
  return undefined;
}

function remaining(state: CaratsState): number[] {
  const out: number[] = [];
  for (let i = 0; i < NUMBERS_COUNT; i++) if (!state.revealed[i]) out.push(i);
  return out;
}

export function reduce(state: CaratsState, action: CaratsAction): CaratsStep | Refusal {
  if (isFinished(state)) return refuse('action/finished', 'this unit is already fully revealed');
  switch (action.type) {
    case 'reveal_winning': {
      if (state.winningRevealed) return refuse('action/already_revealed', 'the winning numbers are already revealed');
      const step = winningStep(state);
      return { ok: true, state: step.state, events: step.events };
    }
    case 'reveal': {
      if (!state.winningRevealed) return refuse('action/not_allowed_now', 'reveal the winning numbers first');
      const bad = checkIndex(state, action.index);
      if (bad) return bad;
      return revealStep(state, [action.index], []);
    }
    case 'reveal_many': {
      if (!state.winningRevealed) return refuse('action/not_allowed_now', 'reveal the winning numbers first');
      const indexes = action.indexes;
      if (!Array.isArray(indexes) || indexes.length === 0) return refuse('action/malformed', 'reveal_many needs indexes');
      for (const index of indexes) {
        const bad = checkIndex(state, index);
        if (bad) return bad;
      }
      if (new Set(indexes).size !== indexes.length) {
        return refuse('action/duplicate_index', 'reveal_many lists the same index twice');
      }
      return revealStep(state, indexes, []);
    }
    case 'auto': {
      // Exactly the step-by-step events: the winning numbers if still hidden, then the rest in
      // index order.
      if (!state.winningRevealed) {
        const step = winningStep(state);
        return revealStep(step.state, remaining(step.state), step.events);
      }
      return revealStep(state, remaining(state), []);
    }
    default:
      return refuse('action/malformed', 'unknown action type');
  }
}

/** What AUTO would do; nothing on a finished unit. */
export function complete(state: CaratsState): CaratsStep {
  if (isFinished(state)) return { ok: true, state, events: [] };
  const step = reduce(state, { type: 'auto' });
  if (!step.ok) throw new Error(`auto refused on an unfinished unit: ${step.code}`);
  return step;
}
