import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The server as operators run it (`npm start`): dist/main.js, built first when missing or older
 * than the sources (scripts/ensure-built.mjs). Benchmarks and the load test start this one, not
 * the sources through tsx. Returns its path from the project root.
 */
export function builtServer(): string {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`the server could not be built (npm run build: ${run.status ?? run.signal})`);
  return 'dist/main.js';
}
