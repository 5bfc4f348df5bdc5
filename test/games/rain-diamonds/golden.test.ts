import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { rainDiamondsRules } from '../../../src/games/rain-diamonds';
import { PRIZES, STAKE, seedOf } from './helpers';

/**
 * Pinned scenarios: two seeds per prize. If the generator changes on purpose, rewrite the file
 * with `UPDATE_GOLDEN=1 npx mocha test/games/rain-diamonds/golden.test.ts` and review the diff.
 */
const FILE = new URL('./golden.json', import.meta.url);

function current() {
  return PRIZES.flatMap((prize) =>
    ['golden a', 'golden b'].map((label) => ({
      label,
      prize,
      scenario: rainDiamondsRules.generate({ stake: STAKE, prize }, seedOf(`${label} ${prize}`), undefined),
    })),
  );
}

describe('rain-diamonds golden scenarios', () => {
  // One scenario per line, so a diff shows which ones moved.
  if (process.env.UPDATE_GOLDEN) writeFileSync(FILE, `[\n${current().map((u) => JSON.stringify(u)).join(',\n')}\n]\n`);

  it('generates the pinned scenario for each prize and seed', () => {
    const pinned = JSON.parse(readFileSync(FILE, 'utf8')) as ReturnType<typeof current>;
    assert.equal(pinned.length, PRIZES.length * 2);
    assert.deepEqual(current(), pinned);
    for (const { prize, scenario } of pinned) assert.equal(rainDiamondsRules.evaluate(scenario), prize);
  });
});
