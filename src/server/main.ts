import { loadConfig } from '../config';
import { startServer, type RunningServer } from './app';

/** `npm start`: the server on its configuration (embedded default when REDIS_URL is unset). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(`configuration error: ${(err as Error).message}`);
    process.exit(2);
  }
  // Signals are handled from the first moment: a SIGTERM during start-up stops once started.
  let stopping = false;
  let started: Promise<RunningServer> | undefined;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing what is in flight, then stopping`);
    started!.then((server) => server.stop()).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('shutdown failed', err);
        process.exit(1);
      },
    );
  };
  // A promise nobody handled is a bug to fix, but money never rides on one (every purchase and
  // credit is one atomic store operation): log it and go on serving. An exception thrown out of
  // a callback may have left memory half-updated: log it and exit, for the supervisor to restart
  // (Redis mode loses nothing; docs/server.md, "Faults").
  process.on('unhandledRejection', (reason) => console.error('unhandled rejection (serving on):', reason));
  process.on('uncaughtException', (err) => {
    console.error('uncaught exception (exiting):', err);
    process.exit(1);
  });
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  started = startServer(config);
  await started;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
