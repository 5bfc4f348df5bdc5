import type { AnyGameRules } from './registry';
import type { Outcome } from './types';

/** One entry of a unit's action log (src/action-log stores them): the parsed action, when, by whom. */
export interface LoggedAction {
  /** The parsed action as the game's reducer took it (JSON). */
  readonly action: unknown;
  readonly at: number;
  readonly by: 'player' | 'server';
}

/** The log entry of the server finishing a unit on the player's behalf (`rules.complete`). */
export const SERVER_COMPLETE = { type: 'server_complete' } as const;

/** One step of a reveal as played: what was done, when, by whom, and what it showed. */
export interface PlayedStep {
  /** 0: the events shown at purchase; n: the n-th logged action. */
  readonly seq: number;
  readonly at: number;
  readonly by: 'purchase' | 'player' | 'server';
  readonly action: unknown;
  readonly events: readonly { type: string }[];
}

export interface Replayed {
  readonly state: unknown;
  readonly steps: PlayedStep[];
  readonly finished: boolean;
}

/**
 * Rebuilds a unit's reveal from what was stored: the deal (outcome, seed, picks) and the
 * action log. The games are deterministic, so this is the unit exactly as it was played, and
 * it is how resume and recall both work.
 */
export function replay(
  rules: AnyGameRules,
  outcome: Outcome,
  seed: Uint8Array,
  picks: unknown,
  soldAt: number,
  log: readonly LoggedAction[],
): Replayed {
  const first = rules.start(outcome, seed, picks);
  let state = first.state;
  const steps: PlayedStep[] = [{ seq: 0, at: soldAt, by: 'purchase', action: null, events: first.events }];
  log.forEach((entry, i) => {
    const isCompletion = entry.by === 'server' && (entry.action as { type?: unknown })?.type === SERVER_COMPLETE.type;
    const step = isCompletion ? rules.complete(state) : rules.reduce(state, entry.action);
    // A logged action was accepted when it was played: refusing it now means the stored
    // unit and the rules disagree, which must never be papered over.
    if (!step.ok) throw new Error(`replay: logged action ${i + 1} refused (${step.code})`);
    state = step.state;
    steps.push({ seq: i + 1, at: entry.at, by: entry.by, action: entry.action, events: step.events });
  });
  return { state, steps, finished: rules.isFinished(state) };
}
