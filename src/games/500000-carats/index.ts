import type { GameRules } from '../types';
import { evaluateCarats } from './evaluator';
import { generateCarats } from './generator';
import {
  caratsPublicView,
  completeCarats,
  isCaratsFinished,
  parseCaratsAction,
  parseCaratsPicks,
  reduceCarats,
  startCarats,
  type CaratsState,
} from './reducer';
import { caratsRuleViolations } from './rules-check';
import type { CaratsAction, CaratsChoices, CaratsEvent, CaratsPicks, CaratsScenario } from './scenario';

export type { CaratsPublicView, CaratsState } from './reducer';
export type * from './scenario';
export { CARATS_TABLE } from './prize-table';

/** 500 000 CARATS: 6 winning numbers, 24 numbers with amounts; 5 €, blocks of 8,016,000. */
export const caratsRules: GameRules<CaratsPicks, CaratsChoices, CaratsScenario, CaratsState, CaratsAction, CaratsEvent> = {
  id: '500000-carats',
  parsePicks: parseCaratsPicks,
  choiceSpace: [undefined],
  generate: (outcome, seed) => generateCarats(outcome, seed),
  evaluate: evaluateCarats,
  ruleViolations: caratsRuleViolations,
  start: startCarats,
  parseAction: parseCaratsAction,
  reduce: reduceCarats,
  complete: completeCarats,
  isFinished: isCaratsFinished,
  scenarioOf: (state) => state.scenario,
  publicView: caratsPublicView,
};
