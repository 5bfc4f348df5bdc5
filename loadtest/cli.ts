/**
 * How `npm run loadtest` and `npm run chaos` run: a bound on the whole run, signals, and the
 * exit code. Whatever way the process ends, every process it started is killed on the way out
 * (tools/child-processes.ts: on 'exit').
 */

/**
 * Runs `main` and exits with its code (an error thrown: printed, 1). On SIGINT or SIGTERM the
 * process exits at once (130); past the bound `main` sets with `bound(seconds)`, should anything
 * still hang, it exits 1.
 */
export function runCommand(name: string, main: (bound: (seconds: number) => void) => Promise<number>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`${signal}: stopping the ${name} (everything it started is killed)\n`);
      process.exit(130);
    });
  }
  const bound = (seconds: number) => {
    setTimeout(() => {
      process.stderr.write(`the ${name} exceeded its bound of ${Math.round(seconds)} s: stopping (everything it started is killed)\n`);
      process.exit(1);
    }, seconds * 1000).unref();
  };
  main(bound).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
