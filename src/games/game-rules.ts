import type { GameId, GameRules } from './types';

/**
 * What a game's folder writes for its rules: the reducer's functions (`reducer.ts`), the
 * generator, the evaluator, the rules check, the demo player, and the choices that shape a
 * scenario. `demoPicks` may be left out by a game that takes no picks at purchase.
 */
type GameParts<Picks, Choices, Scenario, State, Action, Event extends { type: string }> = Omit<
  GameRules<Picks, Choices, Scenario, State, Action, Event>,
  'id' | 'scenarioOf' | 'demoPicks'
> &
  Partial<Pick<GameRules<Picks, Choices, Scenario, State, Action, Event>, 'demoPicks'>>;

/**
 * A game's rules, put together from its parts. Every game keeps its scenario in the reveal's
 * state (Noël only once the symbol is picked), so `scenarioOf` reads it there.
 */
export function gameRules<
  Picks,
  Choices,
  Scenario,
  State extends { readonly scenario?: Scenario | undefined },
  Action,
  Event extends { type: string },
>(id: GameId, parts: GameParts<Picks, Choices, Scenario, State, Action, Event>): GameRules<Picks, Choices, Scenario, State, Action, Event> {
  return {
    id,
    parsePicks: parts.parsePicks,
    choiceSpace: parts.choiceSpace,
    generate: parts.generate,
    evaluate: parts.evaluate,
    ruleViolations: parts.ruleViolations,
    start: parts.start,
    parseAction: parts.parseAction,
    reduce: parts.reduce,
    complete: parts.complete,
    isFinished: parts.isFinished,
    scenarioOf: (state) => state.scenario,
    demoPicks: parts.demoPicks ?? (() => undefined),
    demoScript: parts.demoScript,
  };
}
