import { strict as assert } from 'node:assert';
import { checkUnits, type CheckedUnit } from '../../src/audit/verify-units';
import { unitSeed } from '../../src/fairness/printing';
import { PRIZE_TABLES, prizeOfTier } from '../../src/games/prize-tables';
import { rulesOf } from '../../src/games/registry';
import type { GameId } from '../../src/games/types';
import { withBrokenRules } from '../games/support';

const tableOf = (game: GameId) => PRIZE_TABLES.find((t) => t.game === game)!;
const SEED = new Uint8Array(32).fill(3);

describe('checkUnits (npm run verify-block, in-process)', () => {
  it('generates each unit of the range as the server would, the choice cycling over the game\'s, and counts them per tier', () => {
    const table = tableOf('noel-de-la-chance');
    const rules = rulesOf('noel-de-la-chance');
    // Positions 2 to 9 of a block whose tiers are written by hand: 0 (losing) and the first tiers.
    const units = Uint8Array.from([9, 9, 0, 1, 2, 0, 3, 1, 0, 0, 9]);
    const seen: CheckedUnit[] = [];
    const result = checkUnits(table, SEED, units, 2, 10, undefined, (u) => seen.push(u));
    const perTier = new Array(table.tiers.length + 1).fill(0);
    for (const tier of units.subarray(2, 10)) perTier[tier]++;
    assert.deepEqual(result, { units: 8, perTier, mismatches: 0, violations: 0, examples: [] });
    assert.equal(perTier.length, table.tiers.length + 1, 'a count for losing and one per tier');
    assert.deepEqual(seen.map((u) => u.position), [2, 3, 4, 5, 6, 7, 8, 9]);
    for (const u of seen) {
      const choice = rules.choiceSpace[u.position % rules.choiceSpace.length];
      const prize = prizeOfTier(table, units[u.position]!);
      assert.deepEqual(u, { position: u.position, tierId: units[u.position], prize, choice, scenario: rules.generate({ stake: table.stake, prize }, unitSeed(SEED, u.position), choice) });
    }
    assert.ok(seen.some((u) => u.choice !== seen[0]!.choice), 'the choice changes with the position');
  });

  it('gives a null choice for a game without one, and runs without a callback', () => {
    const seen: CheckedUnit[] = [];
    checkUnits(tableOf('mine-d-or'), SEED, Uint8Array.from([0, 1]), 0, 2, undefined, (u) => seen.push(u));
    assert.deepEqual(seen.map((u) => u.choice), [null, null]);
    assert.equal(checkUnits(tableOf('mine-d-or'), SEED, Uint8Array.from([0, 1]), 0, 2).units, 2);
  });

  it('counts each unit whose scenario scores another prize, or breaks rules, giving the first ten of them', () => {
    const table = tableOf('mine-d-or');
    const units = new Uint8Array(12).fill(1);
    const prize = prizeOfTier(table, 1);
    const misscored = withBrokenRules('mine-d-or', { evaluate: () => prize + 1 }, () => checkUnits(table, SEED, units, 0, 12));
    assert.deepEqual([misscored.mismatches, misscored.violations], [12, 0]);
    assert.deepEqual(misscored.examples, Array.from({ length: 10 }, (_, p) => `position ${p}: dealt ${prize}, scenario scores ${prize + 1}`));
    const broken = withBrokenRules('mine-d-or', { ruleViolations: () => ['a cactus aligned', 'a stage too many'] }, () => checkUnits(table, SEED, units, 0, 12));
    assert.deepEqual([broken.mismatches, broken.violations], [0, 12]);
    assert.deepEqual(broken.examples, Array.from({ length: 10 }, (_, p) => `position ${p}: a cactus aligned; a stage too many`));
    const both = withBrokenRules('mine-d-or', { evaluate: () => prize + 1, ruleViolations: () => ['a stage too many'] }, () => checkUnits(table, SEED, units, 0, 12));
    assert.deepEqual([both.mismatches, both.violations, both.examples.length], [12, 12, 10]);
    assert.deepEqual(both.examples.slice(0, 2), [`position 0: dealt ${prize}, scenario scores ${prize + 1}`, 'position 0: a stage too many']);
  });

  it('reports its progress at each 100,000th unit of the range, counted from its start', () => {
    const table = tableOf('mine-d-or');
    const done: number[] = [];
    // The game's own generation is left out: only the count matters here.
    withBrokenRules('mine-d-or', { generate: () => ({}), evaluate: () => 0, ruleViolations: () => [] }, () => checkUnits(table, SEED, new Uint8Array(100_010), 7, 100_008, (n) => done.push(n)));
    assert.deepEqual(done, [100_000]);
  });
});
