import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { checkoutToRunBeside, formatPairs, runBeside, sideArguments, summarizePairs } from '../../loadtest/beside';
import { parseOptions } from '../../loadtest/options';
import type { Report } from '../../loadtest/report';
import { UsageError } from '../../tools/command-line';

const ROOT = resolve(import.meta.dirname, '../..');

/** The figures of one run that the comparison reads. */
function report(ok: boolean, cpuMsPerUnit: number, bytesReceivedPerUnit: number | null, unitsPerSecond = 150): Report {
  return {
    ok,
    efficiency: { game: { cpuMsPerUnit, systemCpuMsPerUnit: cpuMsPerUnit / 8, bytesReceivedPerUnit } },
    run: { throughput: { unitsPerSecond }, latency: { actionToPatch: { p99: 40 } } },
  } as unknown as Report;
}

/**
 * A stand-in checkout whose "load test" prints `report` once the other stand-in has started
 * too (each leaves a mark, then waits up to 10 s for the other's): run one after the other,
 * neither gives a report. It also records the arguments it was given.
 */
function standIn(base: string, name: string, other: string, figures: { cpu: number; bytes: number }): string {
  const dir = join(base, name);
  mkdirSync(join(dir, 'loadtest'), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  mkdirSync(join(dir, 'scripts'));
  writeFileSync(join(dir, 'scripts', 'ensure-built.mjs'), ''); // built already
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  symlinkSync(join(ROOT, 'node_modules', 'tsx'), join(dir, 'node_modules', 'tsx'));
  const reportText = JSON.stringify(report(true, figures.cpu, figures.bytes));
  writeFileSync(join(dir, 'loadtest', 'main.ts'), `
import { existsSync, writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(join(base, `${name}.started`))}, JSON.stringify(process.argv.slice(2)));
const deadline = Date.now() + 10_000;
while (!existsSync(${JSON.stringify(join(base, `${other}.started`))})) {
  if (Date.now() > deadline) process.exit(1);
  await new Promise((r) => setTimeout(r, 20));
}
console.log('progress and the report before its JSON');
console.log(${JSON.stringify(reportText)});
`);
  return dir;
}

describe('load test beside another build', () => {
  it('is asked with --beside DIR, not with given endpoints or profiles, and with --runs for several pairs', () => {
    assert.equal(parseOptions(['--beside', '../before']).beside, '../before');
    assert.equal(parseOptions(['--beside', '../before', '--runs', '3']).runs, 3, 'pairs have no echo: --runs is allowed without it');
    assert.throws(() => parseOptions(['--beside', '../before', '--endpoint', 'http://127.0.0.1:2567']), /--beside starts both builds' servers/);
    assert.throws(() => parseOptions(['--beside', '../before', '--profile', '/tmp/p']), UsageError);
  });

  it('runs each side with the same options, no echo and no progress, the pair\'s own options left out', () => {
    assert.deepEqual(
      sideArguments(['--players', '250', '--beside', '../before', '--runs', '3', '--out', 'pairs.json', '--spectators', '250', '--quiet']),
      ['--players', '250', '--spectators', '250', '--no-echo', '--quiet'],
    );
    assert.deepEqual(
      sideArguments(['--players=250', '--beside=../before', '--runs=3', '--out=pairs.json', '--think-ms', '500']),
      ['--players=250', '--think-ms', '500', '--no-echo', '--quiet'],
      'the --flag=value forms too',
    );
  });

  it('refuses a directory that is not another installed checkout of the project', () => {
    const base = mkdtempSync(join(tmpdir(), 'beside-'));
    try {
      assert.throws(() => checkoutToRunBeside(base), /no loadtest\/main\.ts in/);
      mkdirSync(join(base, 'loadtest'));
      writeFileSync(join(base, 'loadtest', 'main.ts'), '');
      assert.throws(() => checkoutToRunBeside(base), /too old to stop its servers/);
      writeFileSync(join(base, 'loadtest', 'cli.ts'), '');
      assert.throws(() => checkoutToRunBeside(base), /its packages are not installed/);
      mkdirSync(join(base, 'node_modules', 'tsx'), { recursive: true });
      assert.equal(checkoutToRunBeside(basename(base), tmpdir()), base, 'a relative path, from where the command was typed');
      assert.throws(() => checkoutToRunBeside(ROOT), /this very checkout/);
      symlinkSync(ROOT, join(base, 'this'));
      assert.throws(() => checkoutToRunBeside(join(base, 'this')), /this very checkout/, 'through a link too');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('compares each pair as this ÷ the other, gives the medians, and fails when a side failed', () => {
    const summary = summarizePairs('/here', '/before', [
      [report(true, 1.6, 3500), report(true, 1.5, 7000)],
      [report(true, 1.7, 3600), report(true, 1.6, 7200)],
      [report(true, 1.5, 3400), report(true, 1.5, 6800)],
    ]);
    assert.equal(summary.ok, true);
    assert.deepEqual(summary.ratios.cpuMsPerUnit?.values, [1.067, 1.063, 1]);
    assert.equal(summary.ratios.cpuMsPerUnit?.median, 1.063);
    assert.equal(summary.ratios.bytesReceivedPerUnit?.median, 0.5);
    assert.match(formatPairs(summary), /CPU ms a unit +median ×1\.063 +\(1–1\.067\)/);
    const failed = summarizePairs('/here', '/before', [[report(true, 1.6, 3500), report(false, 1.5, 7000)]]);
    assert.equal(failed.ok, false);
    assert.match(formatPairs(failed), /books or run FAILED beside$/m);
    assert.match(formatPairs(summarizePairs('/here', '/before', [[report(false, 1.6, 3500), report(false, 1.5, 7000)]])), /FAILED here and beside/);
    const uncounted = summarizePairs('/here', '/before', [[report(true, 1.6, 3500), report(true, 1.5, null)]]);
    assert.equal(uncounted.ratios.bytesReceivedPerUnit, null, 'bytes not counted on one side: no ratio, not a ratio of 0');
    assert.match(formatPairs(uncounted), /bytes a unit to clients +not counted/);
  });

  it('starts both sides at the same time, pair after pair, and reads each side\'s report', async function () {
    this.timeout(60_000);
    const base = mkdtempSync(join(tmpdir(), 'beside-'));
    try {
      const here = standIn(base, 'here', 'before', { cpu: 1.6, bytes: 3500 });
      const before = standIn(base, 'before', 'here', { cpu: 1.5, bytes: 7000 });
      const lines: string[] = [];
      const argv = ['--players', '5', '--beside', before];
      const summary = await runBeside(before, argv, 1, (line) => lines.push(line), here);
      assert.equal(summary.ok, true);
      for (const side of ['here', 'before']) {
        assert.deepEqual(JSON.parse(readFileSync(join(base, `${side}.started`), 'utf8')), sideArguments(argv), `${side} ran with the side's arguments`);
      }
      assert.deepEqual(summary.pairs[0]!.cpuMsPerUnit, [1.6, 1.5, 1.067]);
      assert.match(lines[0]!, /pair 1 of 1/);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
