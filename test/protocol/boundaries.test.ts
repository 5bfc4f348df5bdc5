import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { ROOT, sourceFiles } from '../support/source-files';

/** Every module a file imports or re-exports, as written. */
function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
}

/** A relative import as a path from the repository's root; undefined for a package. */
function target(file: string, specifier: string): string | undefined {
  return specifier.startsWith('.') ? relative(ROOT, resolve(dirname(file), specifier)) : undefined;
}

describe('the protocol', () => {
  it('imports nothing outside src/protocol: no package, no server module', () => {
    const outside: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'src', 'protocol'))) {
      for (const specifier of importsOf(file)) {
        if (!target(file, specifier)?.startsWith('src/protocol/')) outside.push(`${relative(ROOT, file)} → ${specifier}`);
      }
    }
    assert.deepEqual(outside, []);
  });

  /**
   * What else of src/ the page may bundle: modules with no I/O and no package — the games, money,
   * the random streams, and the unit verifier (« Vérifier », a chunk loaded on its first click)
   * with the proof geometry, leaf bytes and log leaves of the fairness kernel.
   */
  const PAGE_SAFE = ['src/games/', 'src/money', 'src/random/', 'src/audit/verify-unit', 'src/audit/transparency-log', 'src/fairness/page-geometry', 'src/fairness/leaf-domain', 'src/fairness/page-log'];

  it('is, with the pure modules it may bundle, all the page takes from src/: its bundle holds no server code and no package', () => {
    const outside: string[] = [];
    let fromProtocol = 0;
    // Every file of src/ the page reaches, through the files it reaches there too.
    const seen = new Set<string>();
    const visit = (file: string) => {
      for (const specifier of importsOf(file)) {
        const path = target(file, specifier);
        if (path === undefined) {
          if (relative(ROOT, file).startsWith('src/')) outside.push(`${relative(ROOT, file)} → ${specifier}`);
          continue;
        }
        if (!path.startsWith('src/')) continue;
        if (path.startsWith('src/protocol/')) fromProtocol++;
        else if (!PAGE_SAFE.some((safe) => path.startsWith(safe))) outside.push(`${relative(ROOT, file)} → ${specifier}`);
        const resolved = [`${path}.ts`, path, `${path}/index.ts`].map((p) => join(ROOT, p)).find((p) => existsSync(p) && p.endsWith('.ts'));
        if (resolved && !seen.has(resolved)) {
          seen.add(resolved);
          visit(resolved);
        }
      }
    };
    for (const file of sourceFiles(join(ROOT, 'web', 'src'), { tsx: true })) visit(file);
    assert.deepEqual(outside, []);
    assert.ok(fromProtocol > 0, 'the page imports the protocol');
  });
});
