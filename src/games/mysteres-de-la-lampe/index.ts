import { gameRules } from '../game-rules';
import type { FinishedEvent, GameRules } from '../types';
import { lampeCatalog } from './catalog';
import { evaluate } from './evaluator';
import { generate } from './generator';
import * as demo from './demo';
import * as reveal from './reducer';
import { ruleViolations } from './rules-check';
import { COLOURS, SYMBOLS, type LampAction, type LampChoice, type LampEvent, type LampScenario, type LampState } from './scenario';

export * from './scenario';
export { LAMPE_TABLE } from './prize-table';

/** The 8 picks: 4 colours ("Votre couleur") then 4 symbols ("Votre symbole"). */
const CHOICE_SPACE: readonly LampChoice[] = [
  ...COLOURS.map((choice) => ({ kind: 'colour' as const, choice })),
  ...SYMBOLS.map((choice) => ({ kind: 'symbol' as const, choice })),
];

export type LampRules = GameRules<LampChoice, LampChoice, LampScenario, LampState, LampAction, LampEvent>;
export type LampStreamEvent = LampEvent | FinishedEvent;

export const lampeRules: LampRules = gameRules(lampeCatalog, { ...reveal, ...demo, choiceSpace: CHOICE_SPACE, generate, evaluate, ruleViolations });
