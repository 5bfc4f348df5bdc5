import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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
 * loadtest/echo-server.ts bundled with the settings scripts/build.mjs builds the server with,
 * into node_modules/.cache/ (where its npm imports resolve); rebuilt on each run (~0.1 s).
 */
export async function builtEcho(): Promise<string> {
  const outfile = join('node_modules', '.cache', 'loadtest', 'echo-server.mjs');
  await build({
    entryPoints: [join(ROOT, 'loadtest', 'echo-server.ts')],
    outfile: join(ROOT, outfile),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  return outfile;
}
