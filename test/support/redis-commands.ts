/** Calls of an ioredis client that are not Redis commands: what a test wrapping its commands (failing or metering them) leaves alone. */
export const NOT_COMMANDS: ReadonlySet<string> = new Set(['defineCommand', 'pipeline', 'multi', 'duplicate', 'on', 'once', 'off', 'emit', 'quit', 'disconnect', 'connect']);
