import { loadConfig } from '../config';
import { startServer, type RunningServer } from './app';
import { createLogger } from './logger';

/** `npm start`: the server on its configuration (embedded default when REDIS_URL is unset). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    createLogger('info').fatal(`configuration error: ${(err as Error).message}`);
    process.exit(2);
  }
  const logger = createLogger(config.logLevel);
  // Signals are handled from the first moment: a SIGTERM during start-up stops once started, or
  // within a second while it still waits for Redis.
  let stopping = false;
  let started: Promise<RunningServer> | undefined;
  const aborting = new AbortController();
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'finishing what is in flight, then stopping');
    aborting.abort(); // a start-up still waiting for Redis gives up; any other part is finished
    started!.then(
      (server) => server.stop(),
      (err: unknown) => {
        // Stopped while it waited for Redis; any other failure is the start-up's own.
        if ((err as Error)?.name !== 'AbortError') {
          logger.fatal({ err }, 'the server could not start');
          process.exit(1);
        }
        logger.info('stopped before it had started');
      },
    ).then(
      () => process.exit(0),
      (err: unknown) => {
        logger.fatal({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // A promise nobody handled is a bug to fix, but money never rides on one (every purchase and
  // credit is one atomic store operation): log it and go on serving. An exception thrown out of
  // a callback may have left memory half-updated: log it and exit, for the supervisor to restart
  // (Redis mode loses nothing; docs/server.md, "Faults").
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection (serving on)'));
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception (exiting)');
    process.exit(1);
  });
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  started = startServer(config, { logger, signal: aborting.signal });
  // A start-up that a signal ended is the shutdown's to finish (exit 0).
  await started.catch((err: unknown) => {
    if (!stopping) throw err;
  });
}

main().catch((err: unknown) => {
  createLogger('info').fatal({ err }, 'the server could not start');
  process.exit(1);
});
