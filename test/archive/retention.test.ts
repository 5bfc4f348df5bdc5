import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { moveCold } from '../../src/archive/retention';

describe("the archive's on-line window and retention", () => {
  let root: string;
  let dir: string;
  let cold: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'retention-'));
    dir = join(root, 'archive');
    cold = join(root, 'cold');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  async function files(at: string, stream: string, names: string[]): Promise<void> {
    await mkdir(join(at, stream), { recursive: true });
    for (const name of names) await writeFile(join(at, stream, name), name);
  }
  const list = async (at: string, stream: string) => (await readdir(join(at, stream))).sort();
  /** 2024-06-15T12:00:00Z. */
  const NOW = Date.UTC(2024, 5, 15, 12);

  it('moves the day files older than the window to the cold directory, keeping the day it starts and the newest', async () => {
    await files(dir, 'money', ['2024-03-14.jsonl.gz', '2024-03-15.jsonl.gz.aes', '2024-03-16.jsonl.gz', 'state.json']);
    const { moved } = await moveCold(dir, cold, ['money'], NOW, 3, 6);
    assert.deepEqual(moved, ['money/2024-03-14.jsonl.gz']);
    assert.deepEqual(await list(cold, 'money'), ['2024-03-14.jsonl.gz']);
    assert.deepEqual(await list(dir, 'money'), ['2024-03-15.jsonl.gz.aes', '2024-03-16.jsonl.gz', 'state.json']);
  });

  it('never moves the newest day file, which the writer appends to, however old, whatever order the directory lists them in', async () => {
    const days = Array.from({ length: 12 }, (_, i) => `2020-01-${String(i + 1).padStart(2, '0')}.jsonl.gz`);
    await files(dir, 'money', [...days, 'state.json']);
    await files(dir, 'play', ['2020-01-01.jsonl.gz', 'state.json']);
    const { moved } = await moveCold(dir, cold, ['money', 'play'], NOW, 3, 6);
    assert.deepEqual(moved, days.slice(0, -1).map((d) => `money/${d}`));
    assert.deepEqual(await list(dir, 'money'), [days.at(-1), 'state.json']);
    assert.deepEqual(await list(dir, 'play'), ['2020-01-01.jsonl.gz', 'state.json']);
  });

  it('lists the cold files past the retention and deletes nothing', async () => {
    await files(cold, 'money', ['2018-06-14.jsonl.gz', '2018-06-15.jsonl.gz', 'notes.txt']);
    await files(dir, 'money', ['2024-06-15.jsonl.gz']);
    const { moved, pastRetention } = await moveCold(dir, cold, ['money'], NOW, 3, 6);
    assert.deepEqual(moved, []);
    assert.deepEqual(pastRetention, ['money/2018-06-14.jsonl.gz']);
    assert.deepEqual(await list(cold, 'money'), ['2018-06-14.jsonl.gz', '2018-06-15.jsonl.gz', 'notes.txt']);
  });

  it('moves a file to a cold directory on another file system: a copy, then the original removed', async function () {
    // /dev/shm is a tmpfs where it exists: a rename from the temporary directory fails there with EXDEV.
    const other = await stat('/dev/shm').then((s) => s.dev, () => undefined);
    if (other === undefined || other === (await stat(root)).dev) this.skip();
    const farCold = await mkdtemp('/dev/shm/retention-cold-');
    try {
      await files(dir, 'money', ['2020-01-01.jsonl.gz', '2024-06-15.jsonl.gz']);
      assert.deepEqual((await moveCold(dir, farCold, ['money'], NOW, 3, 6)).moved, ['money/2020-01-01.jsonl.gz']);
      assert.deepEqual(await list(farCold, 'money'), ['2020-01-01.jsonl.gz']);
      assert.deepEqual(await list(dir, 'money'), ['2024-06-15.jsonl.gz']);
    } finally {
      await rm(farCold, { recursive: true, force: true });
    }
  });

  it('takes a stream with no directory yet as one with no files', async () => {
    assert.deepEqual(await moveCold(dir, cold, ['money'], NOW, 3, 6), { moved: [], pastRetention: [] });
    assert.deepEqual(await list(cold, 'money'), []);
  });
});
