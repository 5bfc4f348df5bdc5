import type { ChildProcess } from 'node:child_process';

/**
 * The one list of the child processes a harness started (game servers, redis-server nodes,
 * helpers of a benchmark) that still run: each is SIGKILLed if this process exits first,
 * however it exits (an error, the time bound, SIGINT or SIGTERM turned into an exit).
 */

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Keeps `child` on the list until it exits; returns it. */
export function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Resolves once `child` has exited (at once if it has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
