import { strict as assert } from 'node:assert';
import { parseOptions } from '../../loadtest/options';
import { UsageError } from '../../tools/command-line';
import type { Report } from '../../loadtest/report';
import { formatRuns, spread, summarizeRuns } from '../../loadtest/runs';

/** The figures of one run that the summary reads. */
function report(ok: boolean, game: number, echo: number | null, ratio: number | null, unitsPerSecond = 300, p99 = 15): Report {
  return {
    ok,
    efficiency: {
      game: { cpuMsPerUnit: game },
      echo: echo === null ? null : { cpuMsPerUnit: echo },
      ratio: ratio === null ? null : { cpuMsPerUnit: ratio, cpuMsPerRequest: ratio },
    },
    run: { throughput: { unitsPerSecond }, latency: { actionToPatch: { p99 } } },
  } as unknown as Report;
}

describe('load-test runs, summarized', () => {
  it('gives the median and the range of each figure, the runs in order', () => {
    assert.deepEqual(spread([1.93, 1.6, 1.75]), { values: [1.93, 1.6, 1.75], median: 1.75, min: 1.6, max: 1.93 });
    assert.equal(spread([1.6, 1.7, 1.8, 1.9]).median, 1.75, 'an even count: the mean of the middle two');
  });

  it('summarizes the ratio to the echo over the runs, and passes only when every run did', () => {
    const runs = [report(true, 1.3, 0.68, 1.93), report(true, 1.09, 0.68, 1.6, 310, 14), report(true, 1.12, 0.64, 1.75)];
    const summary = summarizeRuns(runs, ['a.json', 'b.json', 'c.json']);
    assert.equal(summary.ok, true);
    assert.deepEqual(summary.ratioPerRequest, { values: [1.93, 1.6, 1.75], median: 1.75, min: 1.6, max: 1.93 });
    assert.equal(summary.gameCpuMsPerUnit.median, 1.12);
    assert.equal(summary.unitsPerSecond.max, 310);
    assert.match(formatRuns(summary), /game ÷ echo, CPU a request +median 1\.75 +\(1\.6–1\.93; runs: 1\.93, 1\.6, 1\.75\)/);
    assert.equal(summarizeRuns([...runs, report(false, 1, 0.6, 1.6)], []).ok, false, 'a run whose books failed');
    assert.equal(summarizeRuns([report(true, 1, null, null)], []).ok, false, 'a run without its baseline');
  });

  it('takes 1 to 20 runs, each with its echo baseline', () => {
    assert.equal(parseOptions([]).runs, 1);
    assert.equal(parseOptions(['--runs', '4']).runs, 4);
    assert.throws(() => parseOptions(['--runs', '21']), UsageError);
    assert.throws(() => parseOptions(['--runs', '3', '--no-echo']), /--runs compares each run with its echo baseline/);
    assert.throws(() => parseOptions(['--runs', '3', '--profile', '/tmp/p']), /not with --no-echo or --profile/);
  });
});
