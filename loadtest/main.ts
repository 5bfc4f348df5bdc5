import { writeFileSync } from 'node:fs';
import { readCommandLine, UsageError } from '../tools/command-line';
import { checkoutToRunBeside, formatPairs, runBeside } from './beside';
import { runCommand } from './cli';
import { LOADTEST_COMMAND_LINE, type LoadtestOptions } from './options';
import { formatReport, writeReport, type Report } from './report';
import { formatRuns, summarizeRuns } from './runs';
import { defaultReportFile, runLoadtest } from './run';

/**
 * `npm run loadtest -- --players N --spectators M --duration S [...]`: progress on stderr, the
 * report on stdout, written as JSON to a file, and the JSON again as the last stdout line.
 * Exits 0 when the books are exact and nothing failed, 1 otherwise, 2 on bad options, 130 on
 * SIGINT or SIGTERM (the servers it started are killed). With `--runs N`, each run's report in
 * turn, then their summary (loadtest/runs.ts), its JSON as the last stdout line. With
 * `--beside DIR`, pairs of this build's run and DIR's at the same time, compared
 * (loadtest/beside.ts): exit 0 when every run of both was exact.
 */
runCommand('load test', async (bound) => {
  const parsed = readCommandLine(LOADTEST_COMMAND_LINE, process.argv.slice(2));
  if (!('options' in parsed)) return parsed.code;
  const { options } = parsed;
  if (options.beside !== undefined) return beside(options, bound);
  bound(options.runs * runBoundS(options));
  const command = `npm run loadtest -- ${process.argv.slice(2).join(' ')}`;
  const reports: Report[] = [];
  const files: string[] = [];
  for (let i = 1; i <= options.runs; i++) {
    if (options.runs > 1) process.stderr.write(`run ${i} of ${options.runs}\n`);
    const report = await runLoadtest(options, { command });
    // With --runs, --out names the summary's file.
    const file = (options.runs === 1 ? options.out : undefined) ?? defaultReportFile(report.startedAt);
    writeReport(report, file);
    process.stdout.write(`${formatReport(report, file)}\n`);
    reports.push(report);
    files.push(file);
  }
  if (options.runs === 1) {
    process.stdout.write(`${JSON.stringify(reports[0])}\n`);
    return reports[0]!.ok ? 0 : 1;
  }
  const summary = summarizeRuns(reports, files);
  if (options.out) writeFileSync(options.out, `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`\n${formatRuns(summary)}\n${JSON.stringify(summary)}\n`);
  return summary.ok ? 0 : 1;
});

/** Every phase of a run is bounded; this is the bound of them all, should anything still hang. */
function runBoundS(options: LoadtestOptions): number {
  const phases = options.rampTimeoutS + options.warmupS + options.drainS + 180;
  return phases + options.durationS + options.booksTimeoutS + (options.echo ? phases + options.echoDurationS : 0);
}

/** `--beside DIR`: pairs of this build's run and DIR's at the same time, compared (loadtest/beside.ts). */
async function beside(options: LoadtestOptions, bound: (seconds: number) => void): Promise<number> {
  let dir: string;
  try {
    dir = checkoutToRunBeside(options.beside!);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 2;
  }
  // Each side's run, and the builds before the first pair.
  bound(options.runs * runBoundS({ ...options, echo: false }) + 300);
  const summary = await runBeside(dir, process.argv.slice(2), options.runs, (line) => process.stderr.write(`${line}\n`));
  if (options.out) writeFileSync(options.out, `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`${formatPairs(summary)}\n${JSON.stringify(summary)}\n`);
  return summary.ok ? 0 : 1;
}
