/**
 * Builds the browser page (web/ → web/dist/) with Vite: `npm run build:web`, which
 * `npm run build` (and so `npm start` on a fresh clone) runs. The browser tests build it only
 * when it is missing or older than its sources (`buildWebIfStale`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'web');
/** The page imports the protocol's types and refusal table from here. */
const PROTOCOL = join(ROOT, 'src', 'protocol');
const BUILT = join(WEB, 'dist', 'index.html');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function webBuildIsStale(): boolean {
  if (!existsSync(BUILT)) return true;
  const sources = Math.max(newestSource(WEB), newestSource(PROTOCOL), statSync(join(ROOT, 'package-lock.json')).mtimeMs);
  return statSync(BUILT).mtimeMs < sources;
}

/** Runs Vite in a child process; throws when it fails. */
export function buildWeb(): void {
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const run = spawnSync(process.execPath, [vite, 'build', '--config', join(WEB, 'vite.config.ts'), '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`vite build failed (${run.status ?? run.signal})`);
}

export function buildWebIfStale(): boolean {
  if (!webBuildIsStale()) return false;
  buildWeb();
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildWeb();
