import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../examples/operator/journal';

describe("the reference operator's journal", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'journal-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const failed = (err: Error) => assert.fail(err);

  it('reads back what it wrote, appends made together written in order', async () => {
    const path = join(dir, 'sub', 'ledger.ndjson');
    const { journal } = await Journal.open<{ n: number }>(path, failed);
    await Promise.all([1, 2, 3].map((n) => journal.append({ n })));
    await journal.append({ n: 4 });
    await journal.close();
    assert.deepEqual((await Journal.open<{ n: number }>(path, failed)).records, [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });

  it('drops a last line cut short by a crash, and appends after the last whole line', async () => {
    const path = join(dir, 'ledger.ndjson');
    writeFileSync(path, '{"n":1}\n{"n":');
    const { journal, records } = await Journal.open<{ n: number }>(path, failed);
    assert.deepEqual(records, [{ n: 1 }]);
    await journal.append({ n: 2 });
    await journal.close();
    assert.equal(readFileSync(path, 'utf8'), '{"n":1}\n{"n":2}\n');
  });

  it('refuses to start on a damaged line before the last', async () => {
    const path = join(dir, 'ledger.ndjson');
    writeFileSync(path, '{"n":1}\nnot json\n{"n":3}\n');
    await assert.rejects(Journal.open(path, failed), /line 2 is not JSON: the ledger is damaged/);
  });
});
