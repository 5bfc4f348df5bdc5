import { unitSeed } from '../fairness/printing';
import { prizeOfTier } from '../games/prize-tables';
import { rulesOf } from '../games/registry';
import type { PrizeTable } from '../games/types';

/** What checking a range of a printed block's units found. */
export interface UnitsCheck {
  units: number;
  /** Per tier id (0 = losing): units whose scenario was generated and scored. */
  perTier: number[];
  /** Units whose evaluated prize differs from the dealt prize. */
  mismatches: number;
  /** Units whose scenario breaks a rule of the game. */
  violations: number;
  /** The first few problems, for the report. */
  examples: string[];
}

const MAX_EXAMPLES = 10;

/** One unit as generated and checked: what `verify-block --out` writes, one JSON line each. */
export interface CheckedUnit {
  readonly position: number;
  readonly tierId: number;
  readonly prize: number;
  /** The player's choice the scenario was drawn for (null for games without one). */
  readonly choice: unknown;
  readonly scenario: unknown;
}

/**
 * Generates the scenario of every unit in [from, to) of a printed block exactly as the server
 * would (unit seed from the block seed, the player's choice cycling over the game's choice
 * space), then scores it with the independent evaluator and checks every rule. `onUnit` sees
 * each unit, in order of position.
 */
export function checkUnits(
  table: PrizeTable,
  blockSeed: Uint8Array,
  units: Uint8Array,
  from: number,
  to: number,
  onProgress: (done: number) => void = () => undefined,
  onUnit?: (unit: CheckedUnit) => void,
): UnitsCheck {
  const rules = rulesOf(table.game);
  const choices = rules.choiceSpace;
  const result: UnitsCheck = { units: 0, perTier: new Array<number>(table.tiers.length + 1).fill(0), mismatches: 0, violations: 0, examples: [] };
  for (let p = from; p < to; p++) {
    const tierId = units[p]!;
    const prize = prizeOfTier(table, tierId);
    const choice = choices[p % choices.length];
    const scenario = rules.generate({ stake: table.stake, prize }, unitSeed(blockSeed, p), choice);
    onUnit?.({ position: p, tierId, prize, choice: choice ?? null, scenario });
    const scored = rules.evaluate(scenario);
    result.units++;
    result.perTier[tierId]!++;
    if (scored !== prize) {
      result.mismatches++;
      if (result.examples.length < MAX_EXAMPLES) result.examples.push(`position ${p}: dealt ${prize}, scenario scores ${scored}`);
    }
    const broken = rules.ruleViolations(scenario);
    if (broken.length > 0) {
      result.violations++;
      if (result.examples.length < MAX_EXAMPLES) result.examples.push(`position ${p}: ${broken.join('; ')}`);
    }
    if ((p - from) % 100_000 === 99_999) onProgress(p - from + 1);
  }
  return result;
}
