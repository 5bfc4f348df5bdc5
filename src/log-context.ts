import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Ids that every log line written during a piece of work carries (a room's message: `roomId`),
 * without passing a logger down: the server's logger reads them (src/server/logger.ts).
 */
export type LogFields = Readonly<Record<string, string>>;

const context = new AsyncLocalStorage<LogFields>();

export function withLogFields<T>(fields: LogFields, work: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, work);
}

export function currentLogFields(): LogFields {
  return context.getStore() ?? {};
}
