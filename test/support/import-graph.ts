import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { codeFiles } from './source-files';

/**
 * The project's import graph: every relative import and re-export of the source files under the
 * given folders (declarations left out), file to file, as TypeScript's pre-processor reads them.
 */

export interface ImportEdge {
  /** Repository-relative paths, `/`-separated. */
  readonly from: string;
  readonly to: string;
}

/** The file an import names: as written, or with a source extension, or its folder's index. */
function resolveImport(root: string, fromFile: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const base = relative(root, resolve(dirname(join(root, fromFile)), specifier)).split('\\').join('/');
  const stem = base.replace(/\.(js|mjs)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.mjs`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((c) => known.has(c));
}

export function importGraph(root: string, folders: readonly string[]): { files: string[]; edges: ImportEdge[] } {
  const files = codeFiles(root, folders);
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const from of files) {
    for (const { fileName } of ts.preProcessFile(readFileSync(join(root, from), 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = resolveImport(root, from, fileName, known);
      if (to !== undefined) edges.push({ from, to });
    }
  }
  return { files, edges };
}

/** Every circle of imports (strongly connected components of more than one file, or a file importing itself). */
export function circles(files: readonly string[], edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  // Tarjan's algorithm, iterative so that a long chain of imports cannot overflow the stack.
  for (const start of files) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter); low.set(start, counter); counter++;
    stack.push(start); onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = next.get(frame.node) ?? [];
      if (frame.i < targets.length) {
        const to = targets[frame.i++]!;
        if (!index.has(to)) {
          index.set(to, counter); low.set(to, counter); counter++;
          stack.push(to); onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfImport = edges.some((e) => e.from === frame.node && e.to === frame.node);
        if (component.length > 1 || selfImport) found.push(component.sort());
      }
    }
  }
  return found;
}
