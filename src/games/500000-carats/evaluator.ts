import type { Cents } from '../../money';
import type { CaratsScenario } from './scenario';

/**
 * Article 4.4: every number of "Vos numéros" identical to a number of "Numéros gagnants" wins
 * the sum printed under it; several such numbers add up to one prize. Article 4.5: otherwise
 * the unit loses (0). Written from the rules alone: it knows nothing of how scenarios are drawn.
 */
export function evaluate(scenario: CaratsScenario): Cents {
  const { winning, numbers, amounts } = scenario;
  let prize = 0;
  for (let i = 0; i < numbers.length; i++) {
    const n = numbers[i];
    // 6 × 24 comparisons: cheaper than building a set for each unit.
    for (let w = 0; w < winning.length; w++) {
      if (winning[w] === n) {
        prize += amounts[i] ?? 0;
        break;
      }
    }
  }
  return prize;
}
