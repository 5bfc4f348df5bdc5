/**
 * Builds the browser page (web/ → web/dist/) with Vite: `npm run build:web`, which
 * `npm run build` (and so `npm start` on a fresh clone) runs. The browser tests build it only
 * when it is missing or older than its sources (`buildWebIfStale`). Each text file is written
 * compressed beside itself too (`.br` and `.gz`, the strongest levels: it is done once, at
 * build), so that the server sends them without compressing anything per request.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { COMPRESSIBLE } from '../src/server/web-page';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'web');
/** The page imports the protocol's types and refusal table from here, and bundles the verification core (src/audit/verify-unit/ and the games it re-plays). */
const SRC = join(ROOT, 'src');
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
  const sources = Math.max(newestSource(WEB), newestSource(SRC), statSync(join(ROOT, 'package-lock.json')).mtimeMs);
  return statSync(BUILT).mtimeMs < sources;
}

/** Runs Vite in a child process; throws when it fails. */
export function buildWeb(): void {
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const run = spawnSync(process.execPath, [vite, 'build', '--config', join(WEB, 'vite.config.ts'), '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`vite build failed (${run.status ?? run.signal})`);
  compressAll(join(WEB, 'dist'));
}

function compressAll(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) compressAll(path);
    else if (COMPRESSIBLE.test(entry.name)) {
      const bytes = readFileSync(path);
      writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
      writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
    }
  }
}

export function buildWebIfStale(): boolean {
  if (!webBuildIsStale()) return false;
  buildWeb();
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildWeb();
