import type { ChildProcess } from 'node:child_process';

const POLL_MS = 50;

/**
 * Resolves once `url` answers 200 (a server's `/ready`): whatever the server logs, at any
 * `LOG_LEVEL`. Rejects as soon as `child` exits or cannot be run, or after `timeoutMs` with the
 * last answer seen.
 */
export async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  let spawnError: Error | undefined;
  const onError = (err: Error) => (spawnError = err);
  child.once('error', onError);
  try {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer';
    for (;;) {
      if (spawnError) throw new Error(`cannot be run: ${spawnError.message}`);
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode}) while starting`);
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
        if (res.status === 200) {
          await res.body?.cancel();
          return;
        }
        last = `${res.status} ${(await res.text()).slice(0, 200)}`;
      } catch (err) {
        last = (err as Error).message; // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${url} did not answer 200 in ${timeoutMs / 1000} s (last: ${last})`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    child.off('error', onError);
  }
}
