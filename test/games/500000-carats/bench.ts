/**
 * Speed of generate + evaluate + ruleViolations, per unit, on units drawn with the table's
 * frequencies. Not a mocha test: `npx tsx test/games/500000-carats/bench.ts [units]`.
 */
import { Rng } from '../../../src/random/rng';
import { caratsRules, CARATS_TABLE } from '../../../src/games/500000-carats';

const units = Number(process.argv[2] ?? 200_000);
const prizes: number[] = [];
const counts: number[] = [];
let winners = 0;
for (const t of CARATS_TABLE.tiers) {
  prizes.push(t.prize);
  counts.push(t.count);
  winners += t.count;
}
prizes.push(0);
counts.push(CARATS_TABLE.blockSize - winners);

// Outcomes drawn up front (not timed) with the table's frequencies.
const pick = new Rng(new Uint8Array(32).fill(9));
const outcomes = new Int32Array(units);
for (let u = 0; u < units; u++) {
  let r = pick.below(CARATS_TABLE.blockSize);
  let t = 0;
  while (r >= counts[t]!) r -= counts[t++]!;
  outcomes[u] = prizes[t]!;
}

function run(n: number): number {
  const seed = new Uint8Array(32);
  const view = new DataView(seed.buffer);
  let bad = 0;
  for (let u = 0; u < n; u++) {
    view.setUint32(0, u, true);
    const outcome = { stake: CARATS_TABLE.stake, prize: outcomes[u]! };
    const s = caratsRules.generate(outcome, seed, undefined);
    if (caratsRules.evaluate(s) !== outcome.prize || caratsRules.ruleViolations(s).length > 0) bad++;
  }
  return bad;
}

run(Math.min(units, 20_000)); // warm-up
const t0 = process.hrtime.bigint();
const bad = run(units);
const ns = Number(process.hrtime.bigint() - t0);
console.log(`${units} units: ${(ns / 1e6).toFixed(0)} ms, ${(ns / 1e3 / units).toFixed(2)} µs/unit, ${bad} bad`);
