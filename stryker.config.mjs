// StrykerJS options shared by the groups of `npm run test:mutation` (scripts/mutation.ts names, per
// group, the code mutated and the tests run against it; docs/mutation-testing.md).

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'mocha',
  // The TypeScript checker drops a mutant that does not compile before any test runs it; it costs
  // more CPU than the tests here, so it is on only with `npm run test:mutation -- --typecheck`.
  checkers: [],
  // What the checker compiles: the mutated code's folder, src/ (the tests run under tsx, which does not type-check).
  tsconfigFile: 'tsconfig.mutation.json',
  // Each mutant runs only the tests that executed its code in the first, instrumented run.
  coverageAnalysis: 'perTest',
  // Two cores shared with other work: one test runner (--concurrency 2 on an idle machine).
  concurrency: 1,
  timeoutMS: 10_000,
  dryRunTimeoutMinutes: 20,
  reporters: ['json', 'html', 'progress-append-only'],
  // .stryker-tmp: the other groups' sandboxes, when two groups run at once.
  ignorePatterns: ['dist', 'test-output', 'tmp', 'docs/screenshots', '/.stryker-tmp'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
