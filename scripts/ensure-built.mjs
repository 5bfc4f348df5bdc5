// Builds dist/ (`npm run build`) when it is missing or older than the sources, and does nothing
// otherwise: `npm start` (scripts/start.mjs) runs it before starting the built server, and the
// load test before starting the servers it measures. Exits 1 when dist/ is stale and this
// install cannot build it (a production install has no esbuild: there dist/ must be shipped).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

const sources = ['src', 'web', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs', 'scripts/bundle-options.mjs'];
const stale = !existsSync(built) || sources.some((s) => newestChange(join(root, s)) > statSync(built).mtimeMs);
if (stale) {
  if (!existsSync(join(root, 'node_modules', 'esbuild'))) {
    console.error('dist/ is missing or older than src/, and this install has no esbuild: run `npm run build` where the dev dependencies are installed, then ship dist/');
    process.exit(1);
  }
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
