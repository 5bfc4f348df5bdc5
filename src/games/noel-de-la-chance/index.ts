import { gameRules } from '../game-rules';
import type { GameRules } from '../types';
import { noelCatalog } from './catalog';
import { evaluate } from './evaluator';
import { generate } from './generator';
import { demoScript } from './demo';
import * as reveal from './reducer';
import { ruleViolations } from './rules-check';
import { GAME_SYMBOLS, type NoelAction, type NoelChoices, type NoelEvent, type NoelScenario, type NoelState } from './scenario';

export * from './scenario';
export { NOEL_TABLES } from './prize-table';

/**
 * Le Noël de la chance: no picks at purchase; after paying the player chooses one of three
 * game symbols (an action), the scenario is generated for that choice, and the 18 cells reveal
 * themselves in the same step.
 */
export const noelRules: GameRules<undefined, NoelChoices, NoelScenario, NoelState, NoelAction, NoelEvent> = gameRules(noelCatalog, {
  ...reveal,
  choiceSpace: GAME_SYMBOLS.map((symbol) => ({ symbol })),
  generate,
  evaluate,
  ruleViolations,
  demoScript,
});
