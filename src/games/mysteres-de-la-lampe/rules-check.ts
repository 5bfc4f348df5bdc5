import { LAMPE_TABLE } from './prize-table';
import { VALUES_OF_KIND, type LampScenario } from './scenario';

const AMOUNTS: ReadonlySet<number> = new Set(LAMPE_TABLE.tiers.map((t) => t.prize));

/**
 * Every rule a scenario breaks: the kind is one of the two units, the pick and the lamp's
 * result are values of that kind (4 colours or 4 symbols), the potential gain is one of the
 * table's amounts (a winning unit pays it; a losing unit's decoy is drawn among them).
 */
export function ruleViolations(scenario: LampScenario): string[] {
  const out: string[] = [];
  const values: readonly string[] | undefined =
    scenario.kind === 'colour' || scenario.kind === 'symbol' ? VALUES_OF_KIND[scenario.kind] : undefined;
  if (!values) {
    out.push(`kind ${JSON.stringify(scenario.kind)} is neither colour nor symbol`);
  } else {
    if (!values.includes(scenario.pick)) out.push(`pick ${JSON.stringify(scenario.pick)} is not a ${scenario.kind}`);
    if (!values.includes(scenario.result)) {
      out.push(`lamp result ${JSON.stringify(scenario.result)} is not a ${scenario.kind}`);
    }
  }
  if (!AMOUNTS.has(scenario.potentialGain)) {
    out.push(`potential gain ${JSON.stringify(scenario.potentialGain)} is not an amount of the prize table`);
  }
  return out;
}
