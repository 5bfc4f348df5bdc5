/**
 * `npm run test:mutation [-- --group <name>… [--mutate <file[:lines]>…]] [--incremental] [--force] [--concurrency <n>] [--typecheck]`:
 * StrykerJS over the money, law and proof code (docs/mutation-testing.md), one group at a time,
 * each group's mutants against the tests of that group. A survivor listed in
 * stryker-equivalents.json (a change no behaviour can show, with its reason) is not counted;
 * any other survivor, or a score under 85 %, fails the run. Writes reports/mutation/summary.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Stryker } from '@stryker-mutator/core';

/**
 * Each group: the code mutated and the test files run against it. Stryker reloads the tests
 * for a static mutant (one evaluated when its module loads, such as a RegExp constant) and runs
 * them all: so a group runs only the tests that cover its code.
 */
const GROUPS: Record<string, { mutate: string[]; tests: string[] }> = {
  ids: {
    mutate: ['src/ids.ts', 'src/dealer/identifiers.ts'],
    // The dealer's conformance suite on the memory store checks what the stores refuse as malformed.
    tests: ['test/ids.test.ts', 'test/dealer/identifiers.test.ts', 'test/dealer/request-checks.test.ts', 'test/dealer/memory-store.test.ts'],
  },
  dealer: {
    mutate: ['src/dealer/memory/**/*.ts', 'src/protection/rules.ts', 'src/protection/memory.ts'],
    tests: ['test/protection/rules.test.ts', 'test/protection/memory.test.ts', 'test/dealer/memory-store.test.ts', 'test/play/protection-service.test.ts'],
  },
  fairness: {
    mutate: ['src/fairness/**/*.ts'],
    tests: ['test/fairness/*.test.ts', 'test/audit/transparency-log.test.ts', 'test/games/vectors.test.ts'],
  },
  archive: {
    mutate: ['src/archive/**/*.ts'],
    tests: [
      'test/archive/records.test.ts',
      'test/archive/verify.test.ts',
      'test/archive/reconcile.test.ts',
      'test/archive/writer.test.ts',
      'test/archive/embedded-server.test.ts',
      'test/archive/export.test.ts',
      'test/archive/retention.test.ts',
      'test/archive/lag.test.ts',
      'test/archive/seal.test.ts',
      'test/archive/in-process-keys.test.ts',
      'test/archive/files.test.ts',
    ],
  },
  audit: {
    mutate: ['src/audit/**/*.ts'],
    tests: ['test/audit/**/*.test.ts'],
  },
  seats: {
    // The seat a player owns, and the two checks that read it: at matchmaking and when a socket joins.
    mutate: ['src/rooms/seats.ts', 'src/rooms/room-types.ts', 'src/rooms/table-room.ts:124-130'],
    tests: ['test/rooms/seats.test.ts', 'test/server/seat-ownership.test.ts'],
  },
  codec: {
    mutate: ['src/games/step-codec.ts'],
    tests: ['test/games/step-codec.test.ts', 'test/games/vectors.test.ts'],
  },
};

const REPORTS = 'reports/mutation';
const MIN_SCORE = 85;

/** A survivor that cannot be killed: the mutated code, its replacement and why no test can tell them apart. */
interface Equivalent {
  readonly file: string;
  readonly mutator: string;
  readonly original: string;
  readonly replacement: string;
  readonly reason: string;
}

const { values } = parseArgs({
  options: {
    group: { type: 'string', multiple: true },
    incremental: { type: 'boolean', default: false },
    force: { type: 'boolean', default: false },
    concurrency: { type: 'string' },
    mutate: { type: 'string', multiple: true },
    typecheck: { type: 'boolean', default: false },
  },
});
const groups = values.group ?? Object.keys(GROUPS);
for (const g of groups) if (!GROUPS[g]) throw new Error(`unknown group ${g}: one of ${Object.keys(GROUPS).join(', ')}`);
// `--mutate <file[:lines]>` narrows one group to some of its code, as Stryker's --mutate does.
if (values.mutate && groups.length !== 1) throw new Error('--mutate narrows one --group');

const equivalents = JSON.parse(readFileSync('stryker-equivalents.json', 'utf8')) as Equivalent[];

/** A mutant as Stryker's JSON report gives it (mutation-testing-report-schema: lines and columns 1-based). */
interface ReportedMutant {
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface Report { files: Record<string, { source: string; mutants: ReportedMutant[] }> }

/** The text the mutant replaced, read from the file's source by its location. */
function originalOf(m: ReportedMutant, source: string): string {
  const lines = source.split('\n');
  const { start, end } = m.location;
  if (start.line === end.line) return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
  return [lines[start.line - 1]!.slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1]!.slice(0, end.column - 1)].join('\n');
}

const equivalentOf = (m: ReportedMutant, file: string, original: string) =>
  equivalents.find((e) => e.file === file && e.mutator === m.mutatorName && e.replacement === m.replacement && e.original === original);

interface Tally { killed: number; survived: number; equivalent: number; other: number }
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const score = (t: Tally) => (t.killed + t.survived === 0 ? 100 : (100 * t.killed) / (t.killed + t.survived));

const byFolder = new Map<string, Tally>();
const byGroup: { group: string; seconds: number; tally: Tally }[] = [];
const survivors: string[] = [];
const used = new Set<Equivalent>();
mkdirSync(REPORTS, { recursive: true });

for (const group of groups) {
  const { tests } = GROUPS[group]!;
  const mutate = values.mutate ?? GROUPS[group]!.mutate;
  const started = Date.now();
  await new Stryker({
    mutate,
    // tsx registered once the worker is in its sandbox, so that it reads the sandbox's tsconfig.json
    // (decorators): loaded at the process's start, it would read the project's, whose `include`
    // does not match the sandbox's files.
    // scripts/mutation-hooks.ts: code run by a `before` hook is counted for every test, not the last one.
    mochaOptions: { spec: tests, config: '.mocharc.json', require: ['tsx/esm', './scripts/mutation-hooks.ts'] },
    incremental: values.incremental,
    force: values.force,
    incrementalFile: `${REPORTS}/${group}/stryker-incremental.json`,
    // A sandbox directory per group: two groups can run at once (two shells).
    tempDirName: `.stryker-tmp/${group}`,
    jsonReporter: { fileName: `${REPORTS}/${group}/mutation.json` },
    htmlReporter: { fileName: `${REPORTS}/${group}/mutation.html` },
    ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
    ...(values.typecheck ? { checkers: ['typescript'] } : {}),
  }).runMutationTest();
  const report = JSON.parse(readFileSync(`${REPORTS}/${group}/mutation.json`, 'utf8')) as Report;
  const tally: Tally = { killed: 0, survived: 0, equivalent: 0, other: 0 };
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const folder = file.split('/').slice(0, -1).join('/');
    const f = byFolder.get(folder) ?? byFolder.set(folder, { killed: 0, survived: 0, equivalent: 0, other: 0 }).get(folder)!;
    for (const m of mutants) {
      const original = originalOf(m, source);
      const equivalent = UNDETECTED.has(m.status) ? equivalentOf(m, file, original) : undefined;
      if (equivalent) used.add(equivalent);
      const kind = DETECTED.has(m.status) ? 'killed' : equivalent ? 'equivalent' : UNDETECTED.has(m.status) ? 'survived' : 'other';
      tally[kind]++;
      f[kind]++;
      if (kind === 'survived') {
        survivors.push(`- ${file}:${m.location.start.line} ${m.status} ${m.mutatorName}: \`${original.split('\n')[0]}\` → \`${(m.replacement ?? '').split('\n')[0]}\``);
      }
    }
  }
  byGroup.push({ group, seconds: Math.round((Date.now() - started) / 1000), tally });
}

const total = byGroup.reduce<Tally>((t, g) => ({ killed: t.killed + g.tally.killed, survived: t.survived + g.tally.survived, equivalent: t.equivalent + g.tally.equivalent, other: t.other + g.tally.other }), { killed: 0, survived: 0, equivalent: 0, other: 0 });
const row = (name: string, t: Tally, extra = '') => `| ${name} | ${score(t).toFixed(1)} % | ${t.killed} | ${t.survived} | ${t.equivalent} | ${t.other} |${extra}`;
const unused = values.group || values.mutate ? [] : equivalents.filter((e) => !used.has(e));
const summary = [
  `# Mutation testing: ${groups.join(', ')}`,
  '',
  `Score: killed (or timed out) over killed and survived; equivalents (stryker-equivalents.json) and mutants that do not compile or are ignored ("other") are not counted. Concurrency ${values.concurrency ?? 'of stryker.config.mjs'}.`,
  '',
  '| group | score | killed | survived | equivalent | other | seconds |',
  '|---|---|---|---|---|---|---|',
  ...byGroup.map((g) => row(g.group, g.tally, ` ${g.seconds} |`)),
  row('**all**', total, ` ${byGroup.reduce((s, g) => s + g.seconds, 0)} |`),
  '',
  '| folder | score | killed | survived | equivalent | other |',
  '|---|---|---|---|---|---|',
  ...[...byFolder].sort(([a], [b]) => a.localeCompare(b)).map(([folder, t]) => row(folder, t)),
  '',
  `## Survivors (${survivors.length})`,
  '',
  ...survivors,
  ...(unused.length ? ['', `## Equivalents no longer met (${unused.length}): remove them from stryker-equivalents.json`, '', ...unused.map((e) => `- ${e.file} ${e.mutator}: \`${e.original}\``)] : []),
  '',
].join('\n');
// A full run's summary is summary.md; a run of some groups writes its own beside it.
writeFileSync(`${REPORTS}/${values.group ? `summary-${groups.join('-')}` : 'summary'}.md`, summary);
console.log(`\n${summary}`);
if (survivors.length > 0 || score(total) < MIN_SCORE) process.exitCode = 1;
