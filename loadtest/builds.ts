import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions } from '../scripts/bundle-options.mjs';

/**
 * What the load test runs: JavaScript bundled by esbuild on both sides, so that the game server
 * measured is the one operators run (`npm start`: dist/main.js) and the echo baseline pays the
 * same toolchain (not tsx's on-the-fly TypeScript, which wraps every closure in a `__name` call).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** dist/main.js, built first when missing or older than the sources (scripts/ensure-built.mjs). */
export function builtServer(): string {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`the server could not be built (npm run build: ${run.status ?? run.signal})`);
  return 'dist/main.js';
}

/**
 * loadtest/echo-server.ts bundled with the server's settings (scripts/bundle-options.mjs), into
 * node_modules/.cache/ (where its npm imports resolve); rebuilt on each run (~0.1 s).
 */
export async function builtEcho(): Promise<string> {
  const outfile = join('node_modules', '.cache', 'loadtest', 'echo-server.mjs');
  await build({ ...bundleOptions(ROOT), entryPoints: [join(ROOT, 'loadtest', 'echo-server.ts')], outfile: join(ROOT, outfile) });
  return outfile;
}
