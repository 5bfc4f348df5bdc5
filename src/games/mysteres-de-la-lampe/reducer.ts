import { isRecord, refuse, type Outcome, type Parsed, type Refusal, type Step, type FinishedEvent } from '../types';
import { generate } from './generator';
import { COLOURS, MAX_UNITS_PER_PURCHASE, RUB_DONE, SYMBOLS, type LampAction, type LampChoice, type LampEvent, type LampState } from './scenario';

type LampStep = Step<LampState, LampEvent | FinishedEvent>;

function hasOnlyKeys(input: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(input).every((k) => keys.includes(k));
}

/** One unit's pick: `{ kind: 'colour' | 'symbol', choice }`, nothing else. */
function parsePick(input: unknown): Parsed<LampChoice> {
  if (!isRecord(input) || !hasOnlyKeys(input, ['kind', 'choice'])) {
    return refuse('picks/malformed', 'picks must be { kind: "colour" | "symbol", choice }');
  }
  const { kind, choice } = input;
  if (kind !== 'colour' && kind !== 'symbol') {
    return refuse('picks/malformed', 'kind must be "colour" or "symbol"');
  }
  if (typeof choice !== 'string') return refuse('picks/malformed', 'choice must be a string');
  if (kind === 'colour') {
    const colour = COLOURS.find((c) => c === choice);
    if (colour === undefined) return refuse('picks/out_of_range', `colour must be one of ${COLOURS.join(', ')}`);
    return { ok: true, value: { kind, choice: colour } };
  }
  const symbol = SYMBOLS.find((s) => s === choice);
  if (symbol === undefined) return refuse('picks/out_of_range', `symbol must be one of ${SYMBOLS.join(', ')}`);
  return { ok: true, value: { kind, choice: symbol } };
}

/**
 * A purchase's picks: a list of one pick (one unit) or two, a colour and a symbol (both units
 * at once, article 4.4); never two of a kind.
 */
export function parsePicks(input: unknown): Parsed<readonly LampChoice[]> {
  if (!Array.isArray(input) || input.length < 1 || input.length > MAX_UNITS_PER_PURCHASE) {
    return refuse('picks/malformed', 'the lamp takes a list of one or two picks (colour and/or symbol)');
  }
  const picks: LampChoice[] = [];
  for (const raw of input) {
    const parsed = parsePick(raw);
    if (!parsed.ok) return parsed;
    picks.push(parsed.value);
  }
  if (picks.length === 2 && picks[0]!.kind === picks[1]!.kind) {
    return refuse('picks/malformed', 'playing both lamp units takes one colour and one symbol');
  }
  return { ok: true, value: picks };
}

/** Client actions: `{ type: 'rub', progress: 1..100 }` or `{ type: 'auto' }`, nothing else. */
export function parseAction(input: unknown): Parsed<LampAction> {
  if (!isRecord(input)) return refuse('action/malformed', 'an action must be an object');
  if (input.type === 'auto') {
    if (!hasOnlyKeys(input, ['type'])) return refuse('action/malformed', 'auto takes no fields');
    return { ok: true, value: { type: 'auto' } };
  }
  if (input.type === 'rub') {
    if (!hasOnlyKeys(input, ['type', 'progress'])) return refuse('action/malformed', 'rub takes only progress');
    const { progress } = input;
    if (typeof progress !== 'number' || !Number.isInteger(progress)) {
      return refuse('action/malformed', 'progress must be a whole percent');
    }
    if (progress < 1 || progress > RUB_DONE) return refuse('action/out_of_range', 'progress must be 1..100');
    return { ok: true, value: { type: 'rub', progress } };
  }
  return refuse('action/malformed', 'type must be "rub" or "auto"');
}

/** Right after purchase: the scenario is dealt, and the pick is shown with its potential gain. */
export function start(outcome: Outcome, seed: Uint8Array, picks: LampChoice): LampStep {
  const scenario = generate(outcome, seed, picks);
  return {
    ok: true,
    state: { scenario, prize: outcome.prize, progress: 0 },
    events: [{ type: 'potential_gain_shown', pick: picks, amount: scenario.potentialGain }],
  };
}

export function isFinished(state: LampState): boolean {
  return state.progress >= RUB_DONE;
}

/** Rubbing to `progress`; at 100 % the lamp opens and the reveal ends. */
function rubTo(state: LampState, progress: number): LampStep {
  const events: (LampEvent | FinishedEvent)[] = [{ type: 'rub_progress', progress }];
  if (progress === RUB_DONE) {
    events.push({ type: 'lamp_opened', result: state.scenario.result });
    events.push({ type: 'finished', prize: state.prize });
  }
  return { ok: true, state: { ...state, progress }, events };
}

export function reduce(state: LampState, action: LampAction): LampStep | Refusal {
  if (isFinished(state)) return refuse('action/finished', 'the lamp is already open');
  switch (action.type) {
    case 'auto':
      return rubTo(state, RUB_DONE);
    case 'rub':
      // Actions reach here parsed, but a stray value must still change nothing.
      if (!Number.isInteger(action.progress) || action.progress < 1 || action.progress > RUB_DONE) {
        return refuse('action/out_of_range', 'progress must be 1..100');
      }
      if (action.progress <= state.progress) {
        return refuse('action/rub_backwards', `progress must exceed ${state.progress}`);
      }
      return rubTo(state, action.progress);
    default:
      return refuse('action/malformed', 'unknown action');
  }
}

/** A unit left alone: the lamp is rubbed to the end, exactly as AUTO (no pick is missing). */
export function complete(state: LampState): LampStep {
  if (isFinished(state)) return { ok: true, state, events: [] };
  return rubTo(state, RUB_DONE);
}
