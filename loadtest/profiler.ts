import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/**
 * V8 profiles of the measured window only (not start-up, ramp or the books check): of the
 * harness itself through `node:inspector`, and of each server process through its inspector
 * (started with `--inspect=127.0.0.1:<port>`), over the DevTools protocol. CPU profiles
 * (`.cpuprofile`), or sampling heap profiles (`.heapprofile`: every allocation sampled, kept
 * or collected since, so they show where the garbage is made). Open them in Chrome DevTools or
 * speedscope, or summarise them with loadtest/profile-summary.ts.
 */

export type ProfileKind = 'cpu' | 'heap';

/** Every 4 KB allocated on average (V8's default is 32 KB): enough samples in a 30 s window. */
const HEAP_SAMPLING_BYTES = 4096;

/** The DevTools protocol's calls that start and stop a profile of `kind`, and the file's extension. */
const PROTOCOL: Record<ProfileKind, { readonly enable: string; readonly start: readonly [string, object?]; readonly stop: string; readonly extension: string }> = {
  cpu: { enable: 'Profiler.enable', start: ['Profiler.start'], stop: 'Profiler.stop', extension: 'cpuprofile' },
  heap: {
    enable: 'HeapProfiler.enable',
    start: ['HeapProfiler.startSampling', { samplingInterval: HEAP_SAMPLING_BYTES, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }],
    stop: 'HeapProfiler.stopSampling',
    extension: 'heapprofile',
  },
};

export interface WindowProfiler {
  readonly name: string;
  start(): Promise<void>;
  /** Stops and writes `<dir>/<name>.cpuprofile` (or `.heapprofile`); returns the file. */
  stop(dir: string): Promise<string>;
  close(): void;
}

function write(dir: string, name: string, kind: ProfileKind, profile: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.${PROTOCOL[kind].extension}`);
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

/** This process. */
export function selfProfiler(name: string, kind: ProfileKind): WindowProfiler {
  const session = new Session();
  session.connect();
  const calls = PROTOCOL[kind];
  return {
    name,
    async start() {
      await session.post(calls.enable);
      await session.post(...(calls.start as [string, object?]));
    },
    async stop(dir) {
      const { profile } = (await session.post(calls.stop)) as unknown as { profile: unknown };
      return write(dir, name, kind, profile);
    },
    close() {
      session.disconnect();
    },
  };
}

/** A child process started with `--inspect=127.0.0.1:<inspectPort>`. */
export async function childProfiler(name: string, inspectPort: number, kind: ProfileKind): Promise<WindowProfiler> {
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
  const post = (method: string, params?: object) => new Promise<unknown>((resolve, reject) => {
    const id = ++nextId;
    pending.set(id, { resolve, reject });
    socket.send(JSON.stringify({ id, method, params }));
  });
  const calls = PROTOCOL[kind];
  return {
    name,
    async start() {
      await post(calls.enable);
      await post(...calls.start);
    },
    async stop(dir) {
      const { profile } = (await post(calls.stop)) as { profile: unknown };
      return write(dir, name, kind, profile);
    },
    close() {
      socket.close();
    },
  };
}
