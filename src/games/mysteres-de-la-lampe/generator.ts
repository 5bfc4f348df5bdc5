import { Rng, nonceFor } from '../../random/rng';
import type { Cents, Outcome } from '../types';
import { LAMPE_TABLE } from './prize-table';
import { VALUES_OF_KIND, type LampChoice, type LampScenario } from './scenario';

/** Built once: the nonce of the generator's keystream. */
const GEN_NONCE = nonceFor('lampe-gen');

const AMOUNTS: ReadonlySet<Cents> = new Set(LAMPE_TABLE.tiers.map((t) => t.prize));

/**
 * Decoy gains of losing units are drawn with the table's own weights (count of each tier), so
 * a shown gain says nothing about winning: P(win | gain shown) is the same for every amount,
 * and the 10,000 € decoy is as rare on losing units as the 10,000 € prize is on winning ones.
 * Cumulative bounds, built once.
 */
const DECOY_AMOUNTS: readonly Cents[] = LAMPE_TABLE.tiers.map((t) => t.prize);
const DECOY_BOUNDS: readonly number[] = (() => {
  let sum = 0;
  return LAMPE_TABLE.tiers.map((t) => (sum += t.count));
})();
const DECOY_TOTAL = DECOY_BOUNDS[DECOY_BOUNDS.length - 1]!;

function checkChoice(choices: LampChoice): readonly string[] {
  const kind: unknown = choices?.kind;
  const values: readonly string[] | undefined =
    kind === 'colour' || kind === 'symbol' ? VALUES_OF_KIND[kind] : undefined;
  if (!values || !values.includes(choices.choice)) {
    throw new Error(`lampe: not a pick: ${JSON.stringify(choices)}`);
  }
  return values;
}

/**
 * The scenario of one unit. A winning unit shows its prize as the potential gain and the pick
 * as the lamp's result: the rules leave nothing else to vary. A losing unit shows a decoy gain
 * (weighted draw above) and a result drawn uniformly among the 3 values that differ from the
 * pick, both from the seed; nothing is chosen to tease.
 */
export function generate(outcome: Outcome, seed: Uint8Array, choices: LampChoice): LampScenario {
  if (outcome.stake !== LAMPE_TABLE.stake) {
    throw new Error(`lampe: sold at ${LAMPE_TABLE.stake} cents only, not ${outcome.stake}`);
  }
  const values = checkChoice(choices);
  const { kind, choice } = choices;
  if (outcome.prize !== 0) {
    if (!AMOUNTS.has(outcome.prize)) throw new Error(`lampe: no tier pays ${outcome.prize} cents`);
    return { kind, pick: choice, potentialGain: outcome.prize, result: choice };
  }
  const rng = new Rng(seed, GEN_NONCE);
  const r = rng.below(DECOY_TOTAL);
  let tier = 0;
  while (r >= DECOY_BOUNDS[tier]!) tier++;
  // Index among the 3 other values: skip over the pick's own slot.
  const own = values.indexOf(choice);
  let other = rng.below(values.length - 1);
  if (other >= own) other++;
  return {
    kind,
    pick: choice,
    potentialGain: DECOY_AMOUNTS[tier]!,
    result: values[other]! as LampScenario['result'],
  };
}
