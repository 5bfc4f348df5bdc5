import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * The one list of the child processes a harness started (game servers, redis-server nodes,
 * helpers of a benchmark) that still run: each is SIGKILLed if this process exits first,
 * however it exits (an error, the time bound, SIGINT or SIGTERM turned into an exit). Each runs
 * in its own process group, so that a Ctrl-C in the terminal reaches the harness alone, which
 * stops them in its order (the servers before the Redis they finish their work on).
 */

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `command` in a process group of its own, on the list until it exits. */
export function spawnChild(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Resolves once `child` has exited (at once if it has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
