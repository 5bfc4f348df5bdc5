import { gameRules } from '../game-rules';
import type { GameRules } from '../types';
import { rainDiamondsCatalog } from './catalog';
import { evaluate } from './evaluator';
import { generate } from './generator';
import { demoScript } from './demo';
import * as reveal from './reducer';
import { ruleViolations } from './rules-check';
import type {
  RainDiamondsAction,
  RainDiamondsChoices,
  RainDiamondsEvent,
  RainDiamondsPicks,
  RainDiamondsScenario,
  RainDiamondsState,
} from './scenario';

export * from './scenario';
export { RAIN_DIAMONDS_TABLE } from './prize-table';

/** RAIN DIAMONDS (règlement: docs/reglements/rain-diamonds.txt; settled points: docs/games/rain-diamonds.md). */
export const rainDiamondsRules: GameRules<
  RainDiamondsPicks,
  RainDiamondsChoices,
  RainDiamondsScenario,
  RainDiamondsState,
  RainDiamondsAction,
  RainDiamondsEvent
> = gameRules(rainDiamondsCatalog, { ...reveal, choiceSpace: [undefined], generate, evaluate, ruleViolations, demoScript });
