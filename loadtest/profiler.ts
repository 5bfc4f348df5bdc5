import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/**
 * V8 CPU profiles of the measured window only (not start-up, ramp or the books check): of the
 * harness itself through `node:inspector`, and of each server process through its inspector
 * (started with `--inspect=127.0.0.1:<port>`), over the DevTools protocol. Open the
 * `.cpuprofile` files in Chrome DevTools or speedscope.
 */

export interface WindowProfiler {
  readonly name: string;
  start(): Promise<void>;
  /** Stops and writes `<dir>/<name>.cpuprofile`; returns the file. */
  stop(dir: string): Promise<string>;
  close(): void;
}

function write(dir: string, name: string, profile: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

/** This process. */
export function selfProfiler(name: string): WindowProfiler {
  const session = new Session();
  session.connect();
  return {
    name,
    async start() {
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    },
    async stop(dir) {
      const { profile } = await session.post('Profiler.stop');
      return write(dir, name, profile);
    },
    close() {
      session.disconnect();
    },
  };
}

/** A child process started with `--inspect=127.0.0.1:<inspectPort>`. */
export async function childProfiler(name: string, inspectPort: number): Promise<WindowProfiler> {
  const list = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`, { signal: AbortSignal.timeout(10_000) })).json()) as { webSocketDebuggerUrl: string }[];
  const url = list[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`${name}: no inspector target on port ${inspectPort}`);
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`${name}: cannot reach its inspector`)), { once: true });
  });
  let nextId = 0;
  const pending = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const p = message.id !== undefined ? pending.get(message.id) : undefined;
    if (!p) return;
    pending.delete(message.id!);
    if (message.error) p.reject(new Error(`${name}: ${message.error.message}`));
    else p.resolve(message.result);
  });
  const post = (method: string) => new Promise<unknown>((resolve, reject) => {
    const id = ++nextId;
    pending.set(id, { resolve, reject });
    socket.send(JSON.stringify({ id, method }));
  });
  return {
    name,
    async start() {
      await post('Profiler.enable');
      await post('Profiler.start');
    },
    async stop(dir) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      return write(dir, name, profile);
    },
    close() {
      socket.close();
    },
  };
}
