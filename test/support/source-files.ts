import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root directory. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every TypeScript file under `dir` (`.ts`, and `.tsx` with `tsx`), at any depth. */
export function sourceFiles(dir: string, { tsx = false } = {}): string[] {
  const name = tsx ? /\.tsx?$/ : /\.ts$/;
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && name.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}
