import type { Cents } from '../types';
import { PRIZE_AT_50_BY_COUNT, stakeFactor, type NoelScenario } from './scenario';

/**
 * The prize the rules give a scenario (article 4.4), written from the rules alone: count the
 * cells showing the selected symbol and read the prize column of the stake. Throws on a stake
 * the game is not sold at (ruleViolations reports it; no prize exists for it).
 */
export function evaluate(scenario: NoelScenario): Cents {
  const factor = stakeFactor(scenario.stake);
  if (factor === undefined) throw new RangeError(`noel-de-la-chance: no prize column for stake ${scenario.stake}`);
  let count = 0;
  for (const cell of scenario.cells) if (cell === scenario.symbol) count++;
  // Article 4.5: every case the table does not list (3 or fewer, or more than 10) loses.
  return (PRIZE_AT_50_BY_COUNT[count] ?? 0) * factor;
}
