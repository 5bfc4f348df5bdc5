/**
 * A mocha root hook for Stryker's runs (scripts/mutation.ts): Stryker counts the code a test runs
 * from that test's beforeEach on, and never stops counting; a `before` hook that follows (another
 * file's server started) would be counted as that earlier test's, whose run then misses its
 * mutants. Ending each test's count makes such code static: every test of the group runs it.
 */
const stryker = (globalThis as { __stryker__?: { currentTestId?: string } }).__stryker__;

export const mochaHooks = {
  afterEach(): void {
    if (stryker) stryker.currentTestId = undefined;
  },
};
