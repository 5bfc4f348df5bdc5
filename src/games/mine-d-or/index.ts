import type { GameRules } from '../types';
import { evaluate } from './evaluator';
import { generate } from './generator';
import { demoScript } from './demo';
import { complete, isFinished, parseAction, parsePicks, reduce, scenarioOf, start } from './reducer';
import { ruleViolations } from './rules-check';
import type {
  MineDOrAction,
  MineDOrChoices,
  MineDOrEvent,
  MineDOrPicks,
  MineDOrScenario,
  MineDOrState,
} from './scenario';

export * from './scenario';
export { MINE_D_OR_TABLES } from './prize-table';

export type MineDOrRules = GameRules<MineDOrPicks, MineDOrChoices, MineDOrScenario, MineDOrState, MineDOrAction, MineDOrEvent>;

export const mineDOrRules: MineDOrRules = {
  id: 'mine-d-or',
  parsePicks,
  // No player choice shapes a Mine d'or scenario.
  choiceSpace: [undefined],
  generate,
  evaluate,
  ruleViolations,
  start,
  parseAction,
  reduce,
  complete,
  isFinished,
  scenarioOf,
  demoPicks: () => undefined,
  demoScript,
};
