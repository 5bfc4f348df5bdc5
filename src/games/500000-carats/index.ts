import { gameRules } from '../game-rules';
import type { GameRules } from '../types';
import { caratsCatalog } from './catalog';
import { demoScript } from './demo';
import { evaluate } from './evaluator';
import { generate } from './generator';
import * as reveal from './reducer';
import { ruleViolations } from './rules-check';
import type { CaratsState } from './reducer';
import type { CaratsAction, CaratsChoices, CaratsEvent, CaratsPicks, CaratsScenario } from './scenario';

export type { CaratsState } from './reducer';
export type * from './scenario';
export { CARATS_TABLE } from './prize-table';

/** 500 000 CARATS: 6 winning numbers, 24 numbers with amounts; 5 €, blocks of 8,016,000. */
export const caratsRules: GameRules<CaratsPicks, CaratsChoices, CaratsScenario, CaratsState, CaratsAction, CaratsEvent> =
  gameRules(caratsCatalog, { ...reveal, choiceSpace: [undefined], generate, evaluate, ruleViolations, demoScript });
