import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every source file `file` reaches through relative imports, itself included. */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const [, spec] of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
    if (!spec!.startsWith('.')) continue;
    const path = join(dirname(file), spec!);
    reachable(existsSync(`${path}.ts`) ? `${path}.ts` : join(path, 'index.ts'), seen);
  }
  return seen;
}

/** The text without its comments. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

describe('src/audit/verify-unit (bundled into the page)', () => {
  it('reaches no node: module, no package and no Buffer: WebCrypto and the pure games only', () => {
    const files = [...reachable(join(ROOT, 'src/audit/verify-unit/index.ts'))];
    const problems = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const bare = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^'.][^']*)'/gms)].map((m) => m[1]);
      return [...bare.map((spec) => `${relative(ROOT, file)} imports ${spec}`), ...(/\bBuffer\b/.test(code(text)) ? [`${relative(ROOT, file)} uses Buffer`] : [])];
    });
    assert.deepEqual(problems, []);
    assert.ok(files.some((f) => f.includes('src/games/')) && files.some((f) => f.includes('src/random/')), 'the games and the generator are reached');
  });
});
