import { UsageError } from './options';

/**
 * What `npm run loadtest` and `npm run chaos` share on their command line: options parsed or
 * the usage told, a bound on the whole run, signals, and the exit code. Whatever way the
 * process ends, every process it started is killed on the way out (processes.ts,
 * redis-server.ts: on 'exit').
 */

/** The options, or the exit code when they are bad (2, the message and the usage on stderr) or `--help` (0). */
export function parseCommandLine<T>(parse: () => T, usage: string): { options: T } | { code: number } {
  try {
    return { options: parse() };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err.message) process.stderr.write(`${err.message}\n\n`);
    process.stderr.write(usage);
    return { code: err.message ? 2 : 0 };
  }
}

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
