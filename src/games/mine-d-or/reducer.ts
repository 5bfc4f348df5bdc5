import { isRecord, refuse, type FinishedEvent, type Outcome, type Parsed, type Refusal, type Step } from '../types';
import { evaluate, extrasIn, gridCombinations } from './evaluator';
import { generate } from './generator';
import type {
  GridRevealedEvent,
  MineDOrAction,
  MineDOrPicks,
  MineDOrScenario,
  MineDOrState,
  MineDOrStreamEvent,
} from './scenario';

/**
 * The reveal (articles 4.3 and 4.6): "Jouer" shows the main grid at once; each press of EXTRA
 * shows the next Extra stage; AUTO shows every pending stage. The prize is streamed once,
 * after the last grid.
 */

type MineStep = Step<MineDOrState, MineDOrStreamEvent>;

/** `{ type: 'extra' }` or `{ type: 'auto' }`, with no other field. */
export function parseAction(input: unknown): Parsed<MineDOrAction> {
  if (!isRecord(input)) return refuse('action/malformed', 'an action must be an object');
  if (Object.keys(input).some((k) => k !== 'type')) return refuse('action/malformed', 'an action has only a type');
  if (input.type === 'extra') return { ok: true, value: { type: 'extra' } };
  if (input.type === 'auto') return { ok: true, value: { type: 'auto' } };
  return refuse('action/malformed', 'type must be "extra" or "auto"');
}

/** Extra stages earned by the first `revealed` grids and not yet revealed. */
function pendingAfter(scenario: MineDOrScenario, revealed: number): number {
  let earned = 0;
  for (let i = 0; i < revealed; i++) earned += extrasIn(scenario.grids[i]!);
  return earned - (revealed - 1);
}

/** The event showing grid `stage` (its symbols are public from now on). */
function gridEvent(scenario: MineDOrScenario, stage: number): GridRevealedEvent {
  const symbols = scenario.grids[stage]!;
  const combinations = gridCombinations(symbols, scenario.stake);
  return {
    type: 'grid_revealed',
    stage,
    symbols: symbols.slice(),
    combinations,
    gain: combinations.reduce((sum, c) => sum + c.gain, 0),
    extrasEarned: extrasIn(symbols),
    extrasPending: pendingAfter(scenario, stage + 1),
  };
}

/** Reveal grids up to `until` (exclusive) from `state`, adding `finished` after the last one. */
function revealUpTo(state: MineDOrState, until: number): MineStep {
  const events: MineDOrStreamEvent[] = [];
  for (let stage = state.revealed; stage < until; stage++) events.push(gridEvent(state.scenario, stage));
  const finished = until === state.scenario.grids.length;
  if (finished) events.push({ type: 'finished', prize: state.prize } satisfies FinishedEvent);
  return { ok: true, state: { ...state, revealed: until, finished }, events };
}

/** "Jouer": the unit is generated and its main grid shown; with no EXTRA it is over at once. */
export function start(outcome: Outcome, seed: Uint8Array, _picks?: MineDOrPicks): MineStep {
  const scenario = generate(outcome, seed, undefined);
  // A scenario that does not pay the dealt prize must never reach a player.
  if (evaluate(scenario) !== outcome.prize) {
    throw new Error(`Mine d'or generated a scenario worth ${evaluate(scenario)} for a prize of ${outcome.prize}`);
  }
  const initial: MineDOrState = { scenario, prize: outcome.prize, revealed: 0, finished: false };
  return revealUpTo(initial, 1);
}

export function isFinished(state: MineDOrState): boolean {
  return state.finished;
}

export function reduce(state: MineDOrState, action: MineDOrAction): MineStep | Refusal {
  switch (action.type) {
    case 'extra':
      // Every earned stage is pending until shown, so "none pending" is "the unit is over".
      if (state.finished) return refuse('action/no_extra_left', 'no Extra stage is left: the unit is over');
      return revealUpTo(state, state.revealed + 1);
    case 'auto':
      if (state.finished) return refuse('action/finished', 'the unit is already fully revealed');
      return revealUpTo(state, state.scenario.grids.length);
    default:
      return refuse('action/malformed', 'unknown action');
  }
}

/** Finishing for the player is AUTO; nothing to do on a finished unit. */
export function complete(state: MineDOrState): MineStep {
  if (state.finished) return { ok: true, state, events: [] };
  return revealUpTo(state, state.scenario.grids.length);
}
