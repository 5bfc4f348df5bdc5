import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { EXAMPLE_TABLE, fairnessExample, withExample } from '../../src/audit/fairness-example';
import { printBlock } from '../../src/fairness/printing';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';

describe('the worked example of docs/fairness.md', () => {
  it('is what the code computes (npm run fairness-example rewrites it)', () => {
    const doc = readFileSync(new URL('../../docs/fairness.md', import.meta.url), 'utf8');
    assert.equal(withExample(doc, fairnessExample()), doc);
  });

  it('prints the frozen block of the printing tests', () => {
    assert.deepEqual(EXAMPLE_TABLE, TEN_UNIT_TABLE);
    assert.deepEqual([...printBlock(EXAMPLE_TABLE, Uint8Array.from({ length: 32 }, (_, i) => i))], [3, 7, 4, 6, 5, 0, 0, 6, 0, 0]);
  });
});

describe('withExample', () => {
  const START = '<!-- example:start (npm run fairness-example) -->';
  const END = '<!-- example:end -->';

  it('puts the example between the markers, wherever they are, the page starting with one or not', () => {
    assert.equal(withExample(`${START}\nold\n${END}\nafter`, 'new'), `${START}\nnew\n${END}\nafter`);
    assert.equal(withExample(`before\n${START}${END}`, 'new'), `before\n${START}\nnew\n${END}`);
  });

  it('refuses a page without both markers in order', () => {
    for (const doc of ['no markers', `${START} only the start`, `only the end ${END}`, `${END} the end before the start ${START}`]) {
      assert.throws(() => withExample(doc, 'new'), { message: 'docs/fairness.md has no example markers' }, doc);
    }
  });
});
