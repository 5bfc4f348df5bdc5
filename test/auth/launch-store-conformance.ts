import { strict as assert } from 'node:assert';
import type { LaunchStore } from '../../src/auth/launch-store';

/** A launch store under test, and its clock: the memory store's is the test's, Redis's its own. */
export interface LaunchStoreHandle {
  readonly store: LaunchStore;
  /** Waits until `ms` have passed for the store. */
  readonly pass: (ms: number) => Promise<void>;
  readonly done: () => Promise<void>;
}

/** One suite for every launch store: what the launch routes count on. */
export function launchStoreConformance(name: string, open: () => Promise<LaunchStoreHandle>): void {
  describe(`launch store (${name})`, () => {
    let handle: LaunchStoreHandle;
    beforeEach(async () => {
      handle = await open();
    });
    afterEach(async () => {
      await handle.done();
    });

    it('sees a key first once, and again only after its time', async () => {
      const { store, pass } = handle;
      assert.equal(await store.firstSight('sig:a', 200), true);
      assert.equal(await store.firstSight('sig:a', 200), false);
      assert.equal(await store.firstSight('sig:b', 200), true, 'another key is its own');
      await pass(300);
      assert.equal(await store.firstSight('sig:a', 200), true);
    });

    it('gives a value kept for one take to the first take only', async () => {
      const { store } = handle;
      await store.put('code:x', '{"player":"p1"}', 10_000);
      const takes = await Promise.all([store.take('code:x'), store.take('code:x'), store.take('code:x')]);
      assert.deepEqual(takes.filter((t) => t !== undefined), ['{"player":"p1"}']);
      assert.equal(await store.take('code:never'), undefined);
    });

    it('reads a value kept without taking it', async () => {
      const { store } = handle;
      await store.put('back:x', 'https://casino.example/lobby', 10_000);
      assert.equal(await store.get('back:x'), 'https://casino.example/lobby');
      assert.equal(await store.get('back:x'), 'https://casino.example/lobby');
      assert.equal(await store.get('back:never'), undefined);
    });

    it('gives nothing for a value whose time ran out', async () => {
      const { store, pass } = handle;
      await store.put('code:y', 'v', 200);
      await pass(300);
      assert.equal(await store.take('code:y'), undefined);
    });

    it("keeps when the player's sessions were last ended, for as long as asked", async () => {
      const { store, pass } = handle;
      assert.equal(await store.sessionsEndedAt('p1'), undefined);
      await store.endSessions('p1', 1000, 200);
      await store.endSessions('p1', 2000, 200);
      assert.equal(await store.sessionsEndedAt('p1'), 2000);
      assert.equal(await store.sessionsEndedAt('p2'), undefined);
      await pass(300);
      assert.equal(await store.sessionsEndedAt('p1'), undefined);
    });
  });
}
