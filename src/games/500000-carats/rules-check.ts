import { evaluate } from './evaluator';
import { ALLOWED_NUMBER, NUMBERS_COUNT, WINNING_COUNT, isCaratsAmount, isCaratsPrize } from './rules';
import type { CaratsScenario } from './scenario';

/**
 * Every rule of the règlement (and of docs/games/500000-carats.md) a scenario breaks; empty when it is valid:
 * zone sizes (4.2), the list of numbers (4.3), no number twice in one zone (4.3), an amount
 * under each of "Vos numéros" that is one of the table's amounts (settled), and a total that is
 * 0 or a prize of the table (article 3: the prize is the unit's whole lot).
 */

// `seen[n] === stamp` means n was met in the zone being checked; bumping the stamp clears it.
const seen = new Uint32Array(50);
let stamp = 0;

function checkZone(zone: string, list: readonly number[], expected: number, out: string[]): void {
  if (!Array.isArray(list)) {
    out.push(`${zone}: not a list`);
    return;
  }
  if (list.length !== expected) out.push(`${zone}: ${list.length} numbers instead of ${expected}`);
  stamp = (stamp + 1) >>> 0;
  if (stamp === 0) {
    seen.fill(0);
    stamp = 1;
  }
  for (let i = 0; i < list.length; i++) {
    const n = list[i]!;
    // `(n | 0) === n`: a 32-bit integer (not a string, not 3.5); out of 0..49 the table gives
    // undefined.
    if ((n | 0) !== n || ALLOWED_NUMBER[n] !== 1) {
      out.push(`${zone}[${i}]: ${String(n)} is not an allowed number`);
    } else if (seen[n] === stamp) {
      out.push(`${zone}[${i}]: ${n} appears twice`);
    } else {
      seen[n] = stamp;
    }
  }
}

export function ruleViolations(scenario: CaratsScenario): string[] {
  const out: string[] = [];
  checkZone('winning', scenario.winning, WINNING_COUNT, out);
  checkZone('numbers', scenario.numbers, NUMBERS_COUNT, out);
  const amounts = scenario.amounts;
  if (!Array.isArray(amounts)) {
    out.push('amounts: not a list');
    return out;
  }
  if (amounts.length !== NUMBERS_COUNT) out.push(`amounts: ${amounts.length} amounts instead of ${NUMBERS_COUNT}`);
  for (let i = 0; i < amounts.length; i++) {
    const a = amounts[i]!;
    if (!isCaratsAmount(a)) out.push(`amounts[${i}]: ${String(a)} cents is not an amount of the table`);
  }
  if (out.length === 0) {
    const prize = evaluate(scenario);
    if (!isCaratsPrize(prize)) out.push(`the matches add up to ${prize} cents, not a prize of the table`);
  }
  return out;
}
