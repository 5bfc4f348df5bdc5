import { parseOptions, USAGE, UsageError } from './options';
import { formatReport, writeReport } from './report';
import { defaultReportFile, runLoadtest } from './run';

/**
 * `npm run loadtest -- --players N --spectators M --duration S [...]`: progress on stderr, the
 * report on stdout, written as JSON to a file, and the JSON again as the last stdout line.
 * Exits 0 when the books are exact and nothing failed, 1 otherwise, 2 on bad options.
 */
async function main(): Promise<number> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err.message) process.stderr.write(`${err.message}\n\n`);
    process.stderr.write(USAGE);
    return err.message ? 2 : 0;
  }
  // Every phase is bounded; this is the bound of them all, should anything still hang.
  const phases = options.rampTimeoutS + options.warmupS + options.drainS + 180;
  const boundS = phases + options.durationS + options.booksTimeoutS + (options.echo ? phases + options.echoDurationS : 0);
  setTimeout(() => {
    process.stderr.write(`the run exceeded its bound of ${boundS} s: stopping (the servers it started are killed)\n`);
    process.exit(1);
  }, boundS * 1000).unref();
  const report = await runLoadtest(options, { command: `npm run loadtest -- ${process.argv.slice(2).join(' ')}` });
  const file = options.out ?? defaultReportFile(report.startedAt);
  writeReport(report, file);
  process.stdout.write(`${formatReport(report, file)}\n`);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
