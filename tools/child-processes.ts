import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * The one list of the child processes a harness started (game servers, redis-server nodes,
 * helpers of a benchmark) that still run: each is killed (SIGKILL unless told otherwise) if
 * this process exits first, however it exits (an error, the time bound, SIGINT or SIGTERM
 * turned into an exit). Each runs in its own process group, so that a Ctrl-C in the terminal
 * reaches the harness alone, which stops them in its order (the servers before the Redis they
 * finish their work on).
 */

const running = new Map<ChildProcess, NodeJS.Signals>();
process.once('exit', () => {
  for (const [child, signal] of running) child.kill(signal);
});

/**
 * Starts `command` in a process group of its own, on the list until it exits. `onExit`: the
 * signal it gets if this process exits first; SIGTERM for a harness of its own (a load test run
 * beside), which then stops what it started, where SIGKILL would leave that running.
 */
export function spawnChild(command: string, args: readonly string[], options: SpawnOptions, onExit: NodeJS.Signals = 'SIGKILL'): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  running.set(child, onExit);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Resolves once `child` has exited (at once if it has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
