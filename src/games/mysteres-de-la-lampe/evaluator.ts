import type { Cents } from '../types';
import type { LampScenario } from './scenario';

/**
 * Règlement art. 4.2.2 / 4.3.2: if the colour (symbol) revealed by the lamp is the one the
 * player selected, the unit wins the gain associated with it, the potential gain shown;
 * 4.2.3 / 4.3.3: it loses in every other case.
 */
export function evaluate(scenario: LampScenario): Cents {
  return scenario.result === scenario.pick ? scenario.potentialGain : 0;
}
