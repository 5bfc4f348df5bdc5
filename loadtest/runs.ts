import { median } from '../tools/median';
import type { Report } from './report';

/**
 * `--runs N`: the same run several times in a row, summarized. On a shared machine one run's
 * ratio to the echo moves by ±15 % with the machine's state (docs/lab/performance.md, "Fifth
 * round"); the median of several runs, with their range, is the figure to quote.
 */

export interface Spread {
  /** Each run's value, in the order of the runs. */
  readonly values: readonly number[];
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export interface RunsSummary {
  readonly format: 'loadtest-runs/v1';
  /** Every run's books exact and nothing failed. */
  readonly ok: boolean;
  readonly runs: number;
  /** Game server ÷ echo, CPU a request, per run. */
  readonly ratioPerRequest: Spread;
  readonly gameCpuMsPerUnit: Spread;
  readonly echoCpuMsPerUnit: Spread;
  readonly unitsPerSecond: Spread;
  readonly p99Ms: Spread;
  /** Each run's report file. */
  readonly reports: readonly string[];
}

export function spread(values: readonly number[]): Spread {
  return { values, median: Math.round(median(values) * 1000) / 1000, min: Math.min(...values), max: Math.max(...values) };
}

/** The runs' figures side by side; a run without its echo baseline counts as a ratio of 0 and fails the summary. */
export function summarizeRuns(reports: readonly Report[], files: readonly string[]): RunsSummary {
  const e = reports.map((r) => r.efficiency);
  return {
    format: 'loadtest-runs/v1',
    ok: reports.every((r) => r.ok && r.efficiency.ratio !== null),
    runs: reports.length,
    ratioPerRequest: spread(e.map((x) => x.ratio?.cpuMsPerRequest ?? 0)),
    gameCpuMsPerUnit: spread(e.map((x) => x.game.cpuMsPerUnit)),
    echoCpuMsPerUnit: spread(e.map((x) => x.echo?.cpuMsPerUnit ?? 0)),
    unitsPerSecond: spread(reports.map((r) => r.run.throughput.unitsPerSecond)),
    p99Ms: spread(reports.map((r) => r.run.latency.actionToPatch.p99)),
    reports: files,
  };
}

export function formatRuns(s: RunsSummary): string {
  const line = (name: string, x: Spread) => `  ${name.padEnd(26)} median ${x.median}  (${x.min}–${x.max}; runs: ${x.values.join(', ')})`;
  return [
    `${s.runs} runs ${s.ok ? 'PASSED' : 'FAILED'}`,
    line('game ÷ echo, CPU a request', s.ratioPerRequest),
    line('game CPU ms a unit', s.gameCpuMsPerUnit),
    line('echo CPU ms a unit', s.echoCpuMsPerUnit),
    line('units/s', s.unitsPerSecond),
    line('p99 action→patch ms', s.p99Ms),
    ...s.reports.map((file, i) => `  run ${i + 1}: ${file}`),
  ].join('\n');
}
