import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions } from '../scripts/bundle-options.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * loadtest/echo-server.ts bundled with the server's settings (scripts/bundle-options.mjs), into
 * node_modules/.cache/ (where its npm imports resolve); rebuilt on each run (~0.1 s). The game
 * server runs from its bundle, dist/main.js (tools/built-server.ts): both sides pay the same
 * toolchain, not tsx's on-the-fly TypeScript, which wraps every closure in a `__name` call.
 */
export async function bundledEcho(): Promise<string> {
  const outfile = join('node_modules', '.cache', 'loadtest', 'echo-server.mjs');
  await build({ ...bundleOptions(ROOT), entryPoints: [join(ROOT, 'loadtest', 'echo-server.ts')], outfile: join(ROOT, outfile) });
  return outfile;
}
