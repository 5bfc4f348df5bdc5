import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { verifyUnit } from '../../src/audit/verify-unit';
import type { PublicBlockDetail } from '../../src/protocol/fairness';

const DIR = new URL('../../docs/recall-examples/', import.meta.url);
const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, DIR), 'utf8'));

describe('docs/recall-examples', () => {
  const examples = readdirSync(DIR).filter((f) => f.endsWith('.json') && !f.endsWith('.block.json'));

  it('holds a recall of each game, each with its saved published block', () => {
    assert.equal(examples.length, 6);
    for (const file of examples) assert.ok(readdirSync(DIR).includes(file.replace(/\.json$/, '.block.json')), file);
  });

  for (const file of examples) {
    it(`${file} verifies against its saved published block, every check`, async () => {
      const result = await verifyUnit(read(file), { published: read(file.replace(/\.json$/, '.block.json')) as PublicBlockDetail });
      assert.deepEqual(result.checks.filter((c) => !c.ok), []);
      assert.ok(result.checks.some((c) => c.id === 'steps' && c.ok));
    });
  }
});
