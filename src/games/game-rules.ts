import type { GameDescription } from '../protocol/catalog';
import { parseNoPicks, type GameRules, type Parsed } from './types';

/**
 * What a game's folder writes for its rules: the reducer's functions (`reducer.ts`), the
 * generator, the evaluator, the rules check, the demo player, and the choices that shape a
 * scenario. A game that takes no picks at purchase leaves out `parsePicks` and `demoPicks`.
 */
type GameParts<Picks, Choices, Scenario, State, Action, Event extends { type: string }> = Omit<
  GameRules<Picks, Choices, Scenario, State, Action, Event>,
  'id' | 'scenarioOf' | 'parsePicks' | 'demoPicks'
> &
  Partial<Pick<GameRules<Picks, Choices, Scenario, State, Action, Event>, 'demoPicks'>> &
  ([undefined] extends [Picks]
    ? Partial<Pick<GameRules<Picks, Choices, Scenario, State, Action, Event>, 'parsePicks'>>
    : Pick<GameRules<Picks, Choices, Scenario, State, Action, Event>, 'parsePicks'>);

/**
 * The rules of the game `game` describes, put together from its parts. Every game keeps its
 * scenario in the reveal's state (Noël only once the symbol is picked), so `scenarioOf` reads it
 * there.
 */
export function gameRules<
  Picks,
  Choices,
  Scenario,
  State extends { readonly scenario?: Scenario | undefined },
  Action,
  Event extends { type: string },
>(
  game: Pick<GameDescription, 'id' | 'name'>,
  parts: GameParts<Picks, Choices, Scenario, State, Action, Event>,
): GameRules<Picks, Choices, Scenario, State, Action, Event> {
  // Only a game whose picks may be undefined can leave parsePicks out (GameParts says so).
  const noPicks = (input: unknown) => parseNoPicks(game.name, input) as Parsed<readonly Picks[]>;
  return {
    id: game.id,
    parsePicks: parts.parsePicks ?? noPicks,
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
