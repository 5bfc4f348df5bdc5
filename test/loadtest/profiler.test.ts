import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfProfiler } from '../../loadtest/profiler';
import { summarizeHeapProfile } from '../../loadtest/profile-summary';

describe('window profiler', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'profiler-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Makes garbage: strings built a character at a time, all dropped. */
  function makeGarbage(): number {
    let kept = 0;
    for (let i = 0; i < 2_000; i++) {
      let text = '';
      for (let c = 0; c < 200; c++) text += String.fromCharCode(97 + (c % 26));
      kept += text.length;
    }
    return kept;
  }

  /** The profile of a window in which garbage was made, written by `selfProfiler`. */
  async function profileGarbage(kind: 'cpu' | 'heap'): Promise<string> {
    const profiler = selfProfiler('self', kind);
    try {
      await profiler.start();
      makeGarbage();
      return await profiler.stop(dir);
    } finally {
      profiler.close();
    }
  }

  it('writes a sampling heap profile of the window that counts the garbage made in it', async () => {
    const file = await profileGarbage('heap');
    assert.equal(file, join(dir, 'self.heapprofile'));
    const summary = summarizeHeapProfile(JSON.parse(readFileSync(file, 'utf8')));
    // 2,000 × 200 strings of ~20–40 bytes each, all collected: several MB, all sampled.
    const megabytes = Number(/^([\d.]+) MB allocated$/m.exec(summary)?.[1]);
    assert.ok(megabytes >= 1, summary);
    assert.match(summary, /makeGarbage  test\/loadtest\/profiler\.test\.ts/, summary);
  });

  it('writes a CPU profile of the window', async () => {
    const file = await profileGarbage('cpu');
    assert.equal(file, join(dir, 'self.cpuprofile'));
    const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: unknown[]; samples: unknown[] };
    assert.ok(profile.nodes.length > 0 && Array.isArray(profile.samples));
  });
});
