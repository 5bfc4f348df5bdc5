import fs from 'node:fs';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config';

export type { Logger };

/** Bytes of log lines gathered per write to stdout, and the longest a line waits for its write. */
const LOG_CHUNK_BYTES = 4096;
const LOG_FLUSH_MS = 1000;

/** What `LineChunks` hands its chunks to: stdout's `OrderedFdSink` is one. */
export interface ChunkSink {
  write(chunk: string): boolean;
  flush(): void;
  flushSync(): void;
}

/**
 * Log lines gathered into chunks of `chunkBytes`, each handed to `out` in one write. Gathered
 * here rather than by sonic-boom (`minLength`): sonic-boom measures its whole pending string
 * again for every line appended to it (`Buffer.byteLength`, which flattens it): ~2 KB copied
 * and thrown away a line, 4 of the ~90 KB of garbage a busy server made a unit
 * (docs/performance.md).
 */
export class LineChunks implements DestinationStream {
  private lines: string[] = [];
  private bytes = 0;

  constructor(
    private readonly out: ChunkSink,
    private readonly chunkBytes = LOG_CHUNK_BYTES,
  ) {}

  write(line: string): void {
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line);
    if (this.bytes >= this.chunkBytes) this.handOver();
  }

  /** Writes what waits, without waiting for it to make a chunk. */
  flush(): void {
    this.handOver();
    this.out.flush();
  }

  /**
   * Writes everything now, synchronously (the process is exiting). `out` is drained before it
   * is given the rest: smaller than a chunk, the rest is then kept until its own synchronous
   * write, and never started as a write that an exiting process would not finish.
   */
  flushSync(): void {
    this.out.flushSync();
    this.handOver();
    this.out.flushSync();
  }

  private handOver(): void {
    if (this.lines.length === 0) return;
    this.out.write(this.lines.join(''));
    this.lines = [];
    this.bytes = 0;
  }
}

/** How long an exiting process waits for its stdout's reader, and what it sleeps on meanwhile. */
const EXIT_WRITE_MS = 5000;
const EXIT_PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * A file descriptor written from this thread only, so that chunks land in the order given, at
 * exit too (sonic-boom's asynchronous writes run on libuv's pool: one still queued when the
 * process exits landed after the lines written synchronously at exit, or never). A pipe whose
 * reader is behind (EAGAIN) is not waited for: what is left is kept and tried again with the
 * next chunk or the next flush, a second later at most; only at exit is it waited for.
 */
export class OrderedFdSink implements ChunkSink {
  private readonly queue: Buffer[] = [];

  constructor(
    private readonly fd: number,
    private readonly writeSync: (fd: number, buffer: Buffer) => number = fs.writeSync,
  ) {}

  write(chunk: string): boolean {
    this.queue.push(Buffer.from(chunk));
    this.drain();
    return true;
  }

  flush(): void {
    this.drain();
  }

  /** Writes everything, waiting for the reader (the process is exiting), for 5 s at most. */
  flushSync(): void {
    const deadline = Date.now() + EXIT_WRITE_MS;
    while (!this.drain() && Date.now() < deadline) Atomics.wait(EXIT_PAUSE, 0, 0, 5);
  }

  /** Writes what it can now; true when nothing is left. */
  private drain(): boolean {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      let written: number;
      try {
        written = this.writeSync(this.fd, head);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return false;
        throw err;
      }
      if (written < head.length) {
        this.queue[0] = head.subarray(written);
        return false;
      }
      this.queue.shift();
    }
    return true;
  }
}

/** The chunked stdout streams of this process, written out when it exits (one listener for all). */
const toFlushOnExit = new Set<LineChunks>();

function flushAllOnExit(): void {
  for (const stream of toFlushOnExit) {
    try {
      stream.flushSync();
    } catch {
      // stdout is gone (closed pipe): there is nothing left to write to.
    }
  }
}

/**
 * stdout, written a chunk at a time: a write per line (two lines a unit) cost a busy server ~4 %
 * of its CPU in system calls (docs/performance.md). Lines wait at most `LOG_FLUSH_MS`, and what
 * is left is written synchronously when the process exits, after an uncaught error too; a
 * process killed outright (SIGKILL, the OOM killer) loses the lines of its last second.
 */
function chunkedStdout(): DestinationStream {
  const stdout = new LineChunks(new OrderedFdSink(1));
  if (toFlushOnExit.size === 0) process.on('exit', flushAllOnExit);
  toFlushOnExit.add(stdout);
  setInterval(() => stdout.flush(), LOG_FLUSH_MS).unref();
  return stdout;
}

/**
 * One pino logger per process: JSON lines on stdout, `LOG_LEVEL`. Lines about a unit carry
 * `playerId`, `unitId`, `requestId`: what an auditor joins with the journal (a table's
 * `table opened` line ties its `roomId` to its player and game). No token and no balance is
 * ever logged; the redaction below is the safety net for an object logged whole by mistake
 * (docs/operations.md, "Logs"). Fields come from the call alone: a log context carried across
 * awaits (`AsyncLocalStorage`) cost ~6 % of a busy server's CPU in promise hooks.
 */
export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: isoTime,
      formatters: { level: (label) => ({ level: label }), log: withoutSecrets },
      serializers: { err: pino.stdSerializers.err },
    },
    destination ?? (level === 'silent' ? undefined : chunkedStdout()),
  );
}

let isoSecond = NaN;
let isoSecondText = '';

/**
 * pino's `isoTime` (`,"time":"2026-12-01T03:04:05.678Z"`) at a fraction of its cost (a `Date`
 * and its `toISOString()` a line were ~1 % of a busy server's CPU): the text up to the second
 * is made once for each second.
 */
export function isoTime(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoSecondText = new Date(second * 1000).toISOString().slice(0, 20); // up to the '.'
  }
  const ms = now - second * 1000;
  return `,"time":"${isoSecondText}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}

/** Fields never written, at the top of a line's object or one level down (`wallet.balance`). */
const SECRET_FIELDS = new Set(['token', 'authorization', 'balance', 'balanceBefore', 'balanceAfter']);
const CENSOR = '[redacted]';

/**
 * A line's fields with every secret field's value replaced by `[redacted]`; `fields` itself, not
 * a copy, when there is none (every line the server means to write). What pino's `redact` option
 * did with the paths `token`, `*.token`… at a fraction of its cost (~5 µs a line,
 * docs/performance.md). Child loggers' bindings are not lines: the one child is `colyseus`'s.
 */
export function withoutSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in fields) {
    const value = fields[key];
    if (SECRET_FIELDS.has(key)) (copy ??= { ...fields })[key] = CENSOR;
    else if (typeof value === 'object' && value !== null && hasSecret(value)) {
      // A copy of the same kind (an error stays an error for its serializer, its stack read now).
      const inner = Object.create(Object.getPrototypeOf(value) as object | null, Object.getOwnPropertyDescriptors(value)) as Record<string, unknown>;
      if (value instanceof Error) Object.defineProperty(inner, 'stack', { value: value.stack });
      for (const field of SECRET_FIELDS) if (Object.hasOwn(inner, field)) inner[field] = CENSOR;
      (copy ??= { ...fields })[key] = inner;
    }
  }
  return copy ?? fields;
}

function hasSecret(value: object): boolean {
  for (const field of SECRET_FIELDS) if (Object.hasOwn(value, field)) return true;
  return false;
}

/** Colyseus logs with console-like calls (several arguments): one line each, under `colyseus`. */
export function colyseusLogger(logger: Logger) {
  const child = logger.child({ component: 'colyseus' });
  const line = (level: 'trace' | 'debug' | 'info' | 'warn' | 'error') => (...args: unknown[]) => {
    const err = args.find((a): a is Error => a instanceof Error);
    const text = args.filter((a) => !(a instanceof Error)).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
    if (err) child[level]({ err }, text);
    else child[level](text);
  };
  return { trace: line('trace'), debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}
