import { gameRules } from '../game-rules';
import type { GameRules } from '../types';
import { mineDOrCatalog } from './catalog';
import { evaluate } from './evaluator';
import { generate } from './generator';
import { demoScript } from './demo';
import * as reveal from './reducer';
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

// `choiceSpace` is `[undefined]`: no player choice shapes a Mine d'or scenario.
export const mineDOrRules: MineDOrRules = gameRules(mineDOrCatalog, { ...reveal, choiceSpace: [undefined], generate, evaluate, ruleViolations, demoScript });
