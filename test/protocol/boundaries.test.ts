import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
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

  it('is all the page takes from src/, so its bundle holds no server code', () => {
    const server: string[] = [];
    let fromProtocol = 0;
    for (const file of sourceFiles(join(ROOT, 'web', 'src'), { tsx: true })) {
      for (const specifier of importsOf(file)) {
        const path = target(file, specifier);
        if (path?.startsWith('src/protocol/')) fromProtocol++;
        else if (path?.startsWith('src/')) server.push(`${relative(ROOT, file)} → ${specifier}`);
      }
    }
    assert.deepEqual(server, []);
    assert.ok(fromProtocol > 0, 'the page imports the protocol');
  });
});
