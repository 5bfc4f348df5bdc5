import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { busyShares, summarizeHeapProfile, summarizeProfile } from '../../loadtest/profile-summary';

const frame = (functionName: string) => ({ functionName, url: '', lineNumber: 0 });

describe('profile summary', () => {
  it('counts a function with what it called, as a share of the busy samples', () => {
    // root → handle → encode; root → (idle)
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 4] },
        { id: 2, callFrame: frame('handle'), children: [3] },
        { id: 3, callFrame: frame('encode') },
        { id: 4, callFrame: frame('(idle)') },
      ],
      samples: [2, 3, 3, 1, 4, 4],
      timeDeltas: [10, 10, 10, 10, 100, 100],
    };
    const shares = busyShares(profile, ['handle', 'encode', 'absent']);
    assert.deepEqual(Object.fromEntries(shares), { handle: 0.75, encode: 0.5, absent: 0 });
  });

  it('tells a function of a bundle by its source file and line, through the source map beside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-summary-'));
    try {
      writeFileSync(join(dir, 'other.ts'), 'export const other = (n: number): number => n + 1;\n');
      writeFileSync(join(dir, 'hot.ts'), "import { other } from './other';\n\nexport function hotLoop(n: number): number {\n  return other(n) * 2;\n}\n");
      const bundle = join(dir, 'out.js');
      await build({ entryPoints: [join(dir, 'hot.ts')], outfile: bundle, bundle: true, format: 'esm', sourcemap: true, logLevel: 'silent' });
      const lines = readFileSync(bundle, 'utf8').split('\n');
      const line = lines.findIndex((l) => l.includes('function hotLoop'));
      const column = lines[line]!.indexOf('function hotLoop');
      const at = { functionName: 'hotLoop', url: pathToFileURL(bundle).href, lineNumber: line, columnNumber: column };
      const profile = { nodes: [{ id: 1, callFrame: frame('(root)'), children: [2] }, { id: 2, callFrame: at }], samples: [2], timeDeltas: [10] };
      const summary = summarizeProfile(profile);
      assert.match(summary, /100\.0%  .*hot\.ts$/m, summary);
      assert.match(summary, /hotLoop  .*hot\.ts:3$/m, summary);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tells a heap profile\'s bytes by the function and the file that allocated them', () => {
    const node = (functionName: string, url: string, selfSize: number, children: unknown[] = []) => ({ callFrame: { functionName, url, lineNumber: 9 }, selfSize, children });
    const profile = {
      head: node('(root)', '', 0, [
        node('decode', 'file:///x/node_modules/@colyseus/schema/build/index.mjs', 600, [node('utf8Read', 'file:///x/node_modules/@colyseus/schema/build/index.mjs', 200)]),
        node('buy', `file://${process.cwd()}/src/play/play-service.ts`, 200),
      ]),
    };
    const summary = summarizeHeapProfile(profile as Parameters<typeof summarizeHeapProfile>[0]);
    assert.match(summary, /^0\.0 MB allocated$/m, summary);
    assert.match(summary, /^ 80\.0%  npm:@colyseus\/schema$/m, summary);
    assert.match(summary, /^ 20\.0%  src\/play\/play-service\.ts$/m, summary);
    assert.match(summary, /^ 60\.0%  decode  npm:@colyseus\/schema:10$/m, summary);
    assert.match(summary, /^ 20\.0%  utf8Read  npm:@colyseus\/schema:10$/m, summary);
  });

  it('answers --help with its usage, and a file it cannot read with a sentence and code 2', () => {
    const run = (arg: string) => spawnSync(process.execPath, ['--import', 'tsx', 'loadtest/profile-summary.ts', arg], { encoding: 'utf8' });
    const help = run('--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^usage: /);
    const missing = run('no-such.cpuprofile');
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^no-such.cpuprofile: not a readable profile \(ENOENT/);
  });
});
