// `npm start`: runs the built server (dist/main.js), building it first when dist/ is missing or
// older than the sources (scripts/ensure-built.mjs), so that `npm ci && npm start` works on a
// fresh clone. A production install (`npm ci --omit=dev`) has no esbuild: there dist/ must be
// built and shipped.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await import('./ensure-built.mjs');
await import(pathToFileURL(join(root, 'dist', 'main.js')).href);
