import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { unimportedValues } from './support/exported-values';
import { functionLengths } from './support/function-lengths';
import { circles, importGraph } from './support/import-graph';
import { sourceFiles } from './support/source-files';

/**
 * docs/architecture.md's layer list is the rule, and this test holds the code to it: each part
 * imports only from the parts listed under it, and no files import each other in a circle.
 */

const ROOT = process.cwd();
const SOURCES = ['src', 'web/src', 'web/console', 'loadtest', 'scripts', 'tools', 'examples'];
/** The dealer's Redis implementation and its one entry point for the code outside it. */
const REDIS_FOLDER = 'src/dealer/redis/';
const REDIS_FACE = 'src/dealer/redis/store.ts';
/** A function longer than this does more than one thing: split it by concern. */
const MAX_FUNCTION_LINES = 80;

/** The parts named by docs/architecture.md's layer list, top floor first: floor 0 is the top. */
function documentedLayers(markdown: string): Map<string, number> {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('The layers'));
  const block = section?.match(/```\n([\s\S]*?)```/)?.[1];
  if (!block) throw new Error('docs/architecture.md has no code block under "## The layers"');
  const floors = new Map<string, number>();
  let floor = 0;
  for (const line of block.split('\n')) {
    if (line.trim() === '' || /^[\s│]/.test(line)) continue;
    const names = line.split(/\s{2,}/)[0]!.split(/\s+/);
    for (const name of names) {
      if (!/^[\w.-]+(\/[\w.-]+)*(\/|\.ts)$/.test(name)) throw new Error(`layer line "${line}": "${name}" is not a folder/ or a file.ts`);
      floors.set(name, floor);
    }
    floor++;
  }
  return floors;
}

/** docs/architecture.md's list of exported values kept for use outside the repository, as `file#name`. */
function documentedPublicValues(markdown: string): Set<string> {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Exported for outside use'));
  if (!section) throw new Error('docs/architecture.md has no section "## Exported for outside use"');
  return new Set([...section.matchAll(/^- `([\w./-]+\.tsx?)`: ([^\n]+)$/gm)].flatMap(([, file, names]) =>
    [...names!.matchAll(/`(\w+)`/g)].map(([, name]) => `${file}#${name}`)));
}

/** The listed part a file belongs to: the longest listed path it lies in. */
function partOf(file: string, parts: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const part of parts) {
    const inside = part.endsWith('/') ? file.startsWith(part) : file === part;
    if (inside && (best === undefined || part.length > best.length)) best = part;
  }
  return best;
}

describe('architecture', () => {
  const layers = documentedLayers(readFileSync('docs/architecture.md', 'utf8'));
  const { files, edges } = importGraph(ROOT, SOURCES);

  it('reads the import graph', () => {
    assert.ok(files.length > 100, `only ${files.length} source files found`);
    assert.ok(edges.length > files.length, `only ${edges.length} imports found`);
  });

  it('lists every part of the code in docs/architecture.md', () => {
    const unlisted = files.filter((f) => partOf(f, layers.keys()) === undefined);
    assert.deepEqual(unlisted, [], 'files in no part of the layer list');
  });

  it('has no import against the layer order: each part imports only from parts listed under it', () => {
    const against = edges.flatMap(({ from, to }) => {
      const a = partOf(from, layers.keys())!;
      const b = partOf(to, layers.keys())!;
      return a === b || layers.get(a)! < layers.get(b)! ? [] : [`${from} → ${to} (${a} is not above ${b})`];
    });
    assert.deepEqual(against, []);
  });

  it('has no circle of imports', () => {
    assert.deepEqual(circles(files, edges), []);
  });

  it('lists only parts that exist', () => {
    assert.deepEqual([...layers.keys()].filter((part) => !existsSync(part)), []);
  });

  it('keeps src/ free of tools/ (the helpers of tests and scripts)', () => {
    assert.deepEqual(edges.filter(({ from, to }) => from.startsWith('src/') && to.startsWith('tools/')).map(({ from, to }) => `${from} → ${to}`), []);
  });

  it(`reaches the dealer's Redis folder from outside only through its face, ${REDIS_FACE}`, () => {
    const past = edges.filter(({ from, to }) => !from.startsWith(REDIS_FOLDER) && to.startsWith(REDIS_FOLDER) && to !== REDIS_FACE);
    assert.deepEqual(past.map(({ from, to }) => `${from} → ${to}`), []);
  });

  it('exports from src/ only values that something imports, or that the page lists for outside use', () => {
    const listed = documentedPublicValues(readFileSync('docs/architecture.md', 'utf8'));
    const unimported = unimportedValues(ROOT, [...SOURCES, 'test', 'test-long'], 'src/');
    assert.deepEqual(unimported.filter((v) => !listed.has(v)), [], 'exported, imported by nothing, not listed');
    assert.deepEqual([...listed].filter((v) => !unimported.includes(v)), [], 'listed for outside use, but imported here or gone: drop it from the list');
  });
});

describe('architecture test', () => {
  const doc = (block: string) => `# x\n\n## The layers\n\n\`\`\`\n${block}\`\`\`\n\n## Next\n`;

  it('reads the floors from the top down, with folders sharing a floor', () => {
    const floors = documentedLayers(doc('server/  top\n  │ more words\nrooms/ feed/  middle\nmoney.ts  bottom\n'));
    assert.deepEqual([...floors], [['server/', 0], ['rooms/', 1], ['feed/', 1], ['money.ts', 2]]);
  });

  it('finds a circle of imports, and none in a chain', () => {
    assert.deepEqual(circles(['a', 'b', 'c'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }]), [['a', 'b', 'c']]);
    assert.deepEqual(circles(['a', 'b', 'c'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }]), []);
  });

  it('reads the values kept for outside use', () => {
    const listed = documentedPublicValues('# x\n\n## Exported for outside use\n\n- `src/a.ts`: `one`, `two` (why)\n- `src/b.ts`: `three`\n\n## Next\n- `src/c.ts`: `no`\n');
    assert.deepEqual([...listed], ['src/a.ts#one', 'src/a.ts#two', 'src/b.ts#three']);
  });

  it('finds the exported values nothing imports, types left out', () => {
    const root = mkdtempSync(join(tmpdir(), 'exports-'));
    try {
      mkdirSync(join(root, 'src'));
      mkdirSync(join(root, 'test'));
      writeFileSync(join(root, 'src/a.ts'), 'export const used = 1;\nexport function unused() {}\nexport type T = number;\nconst local = 2;\nexport { local };\n');
      writeFileSync(join(root, 'src/b.ts'), "export class Whole {}\n");
      writeFileSync(join(root, 'test/a.test.ts'), "import { used } from '../src/a';\nimport * as b from '../src/b';\n");
      assert.deepEqual(unimportedValues(root, ['src', 'test'], 'src/'), ['src/a.ts#unused', 'src/a.ts#local']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a layer line that names no folder', () => {
    assert.throws(() => documentedLayers(doc('the server  top\n')), /not a folder/);
  });
});

describe('functions of src/', () => {
  it('are at most 80 lines each, from their first line to their last', () => {
    const long = sourceFiles(join(ROOT, 'src'))
      .flatMap((file) => functionLengths(file, readFileSync(file, 'utf8')).map((f) => ({ ...f, file: relative(ROOT, file) })))
      .filter((f) => f.lines > MAX_FUNCTION_LINES)
      .map((f) => `${f.file}:${f.line} ${f.name} ${f.lines} lines`);
    assert.deepEqual(long, []);
  });
});

describe('function lengths', () => {
  it('measures declarations, methods and arrows from their first line to their last, named as assigned', () => {
    const text = '/** doc */\nfunction a() {\n  return 1;\n}\nclass B {\n  m() {}\n}\nconst c = () => {\n  const d = function () {};\n};\n';
    assert.deepEqual(functionLengths('x.ts', text), [
      { line: 2, name: 'a', lines: 3 },
      { line: 6, name: 'm', lines: 1 },
      { line: 8, name: 'c', lines: 3 },
      { line: 9, name: 'd', lines: 1 },
    ]);
  });
});
