// `npm start`: runs the built server (dist/main.js), building it first when dist/ is missing or
// older than the sources, so that `npm ci && npm start` works on a fresh clone. A production
// install (`npm ci --omit=dev`) has no esbuild: there dist/ must be built and shipped.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'BUILT');

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry !== 'node_modules') newest = Math.max(newest, newestChange(join(path, entry)));
  }
  return newest;
}

const sources = ['src', 'web', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs'];
const stale = !existsSync(built) || sources.some((s) => newestChange(join(root, s)) > statSync(built).mtimeMs);
if (stale) {
  if (!existsSync(join(root, 'node_modules', 'esbuild'))) {
    console.error('dist/ is missing or older than src/, and this install has no esbuild: run `npm run build` where the dev dependencies are installed, then ship dist/');
    process.exit(1);
  }
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import(pathToFileURL(join(root, 'dist', 'main.js')).href);
