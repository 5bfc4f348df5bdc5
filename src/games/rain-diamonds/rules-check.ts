import { colourCode, playThrough } from './evaluator';
import * as S from './scenario';
import type { RainDiamondsScenario } from './scenario';

const { COLOURS, COLUMNS, TO_WIN } = S;

/**
 * Every rule the scenario breaks: the shape (5 columns of 4 gems, 5 boxes, known colours), queues
 * exactly as long as the reveal uses, and the settled limits (docs/games/rain-diamonds.md): no colour collected
 * more than 6 times, and at most one colour reaching 6 (a winning unit wins one colour's prize).
 */
export function ruleViolations(s: RainDiamondsScenario): string[] {
  const out: string[] = [];
  const { totals, used, error } = playThrough(s);
  if (error !== undefined) return [error];
  for (let col = 0; col < COLUMNS; col++) {
    const queue = s.queues[col]!;
    if (queue.length !== used[col]) {
      out.push(`queue ${col} holds ${queue.length} gems but the reveal uses ${used[col]}`);
    }
    for (let i = used[col]!; i < queue.length; i++) {
      if (colourCode(queue[i]) < 0) out.push(`queue ${col} gem ${i + 1} is not a colour`);
    }
  }
  let atSix = 0;
  for (let i = 0; i < COLOURS.length; i++) {
    const n = totals[i]!;
    if (n > TO_WIN) out.push(`${n} ${COLOURS[i]} gems collected, more than ${TO_WIN}`);
    if (n === TO_WIN) atSix++;
  }
  if (atSix > 1) out.push(`${atSix} colours reach ${TO_WIN}; a unit wins at most one`);
  return out;
}
