import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root directory. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Every TypeScript file under `dir` (`.ts`, and `.tsx` with `tsx`; also `.mts` and `.mjs` with
 * `modules`), at any depth, outside node_modules and dist.
 */
export function sourceFiles(dir: string, { tsx = false, modules = false } = {}): string[] {
  const extensions = ['ts', ...(tsx ? ['tsx'] : []), ...(modules ? ['mts', 'mjs'] : [])];
  const name = new RegExp(`\\.(${extensions.join('|')})$`);
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && name.test(entry.name) && !/(^|\/)(node_modules|dist)(\/|$)/.test(entry.parentPath))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The code files (not declarations) under `folders` of `root`, as repository-relative `/`-separated paths. */
export function codeFiles(root: string, folders: readonly string[]): string[] {
  return folders
    .flatMap((folder) => sourceFiles(join(root, folder), { tsx: true, modules: true }))
    .filter((file) => !/\.d\.m?ts$/.test(file))
    .map((file) => relative(root, file).split('\\').join('/'));
}
