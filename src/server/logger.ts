import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config';
import { currentLogFields } from '../log-context';

export type { Logger };

/** Bytes of log lines gathered per write to stdout, and the longest a line waits for its write. */
const LOG_CHUNK_BYTES = 4096;
const LOG_FLUSH_MS = 1000;

/**
 * stdout, written a chunk at a time: a write per line (two lines a unit) cost a busy server ~4 %
 * of its CPU in system calls (docs/performance.md). Lines wait at most `LOG_FLUSH_MS`, and pino
 * writes what is left synchronously when the process exits, after an uncaught error too; a
 * process killed outright (SIGKILL, the OOM killer) loses the lines of its last second.
 */
function chunkedStdout(): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: false, minLength: LOG_CHUNK_BYTES });
  setInterval(() => stdout.flush(), LOG_FLUSH_MS).unref();
  return stdout;
}

/**
 * One pino logger per process: JSON lines on stdout, `LOG_LEVEL`. Lines about a unit carry
 * `playerId`, `unitId`, `requestId`, and `roomId` when a room's message caused it (the log
 * context, src/log-context.ts): what an auditor joins with
 * the journal. No token and no balance is ever logged; the redaction below is the safety net
 * for an object logged whole by mistake (docs/operations.md, "Logs").
 */
export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: currentLogFields,
      redact: {
        paths: ['token', '*.token', 'authorization', '*.authorization', 'headers.authorization', 'balance', '*.balance', 'balanceBefore', 'balanceAfter', '*.balanceBefore', '*.balanceAfter'],
        censor: '[redacted]',
      },
      serializers: { err: pino.stdSerializers.err },
    },
    destination ?? (level === 'silent' ? undefined : chunkedStdout()),
  );
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
