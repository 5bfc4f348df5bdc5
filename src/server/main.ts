import { loadConfig } from '../config';
import { startServer } from './app';

/** `npm start`: the server on its configuration (embedded default when REDIS_URL is unset). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(`configuration error: ${(err as Error).message}`);
    process.exit(2);
  }
  const server = await startServer(config);
  const shutdown = (signal: string) => {
    console.log(`${signal}: finishing what is in flight, then stopping`);
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('shutdown failed', err);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
