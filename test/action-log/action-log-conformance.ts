import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOffloadedBlock } from '../../src/offload/unit-files';
import type { Sale } from '../../src/dealer/types';
import type { ActionLog, LoggedAction } from '../../src/action-log/action-log';

/** One suite for every ActionLog implementation. */
export function actionLogConformance(name: string, make: () => Promise<{ log: ActionLog; done: () => Promise<void> }>): void {
  describe(`action log (${name})`, () => {
    let log: ActionLog;
    let done: () => Promise<void>;
    let n = 0;
    const unit = () => `unit-${name}-${++n}`;

    beforeEach(async () => {
      ({ log, done } = await make());
    });
    afterEach(async () => {
      await log.close();
      await done();
    });

    it('reads back what was appended, in order', async () => {
      const id = unit();
      assert.equal(await log.append(id, 0, { action: { type: 'a' }, at: 1, by: 'player' }), true);
      assert.equal(await log.append(id, 1, { action: { type: 'b', n: 2 }, at: 2, by: 'server' }), true);
      assert.deepEqual(await log.read(id), [
        { action: { type: 'a' }, at: 1, by: 'player' },
        { action: { type: 'b', n: 2 }, at: 2, by: 'server' },
      ]);
    });

    it('refuses an append when the log does not have the expected length', async () => {
      const id = unit();
      await log.append(id, 0, { action: { type: 'a' }, at: 1, by: 'player' });
      assert.equal(await log.append(id, 0, { action: { type: 'late' }, at: 2, by: 'player' }), false);
      assert.equal(await log.append(id, 2, { action: { type: 'ahead' }, at: 2, by: 'player' }), false);
      assert.equal((await log.read(id)).length, 1);
    });

    it('lets exactly one of many concurrent appends at one length win', async () => {
      const id = unit();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => log.append(id, 0, { action: { type: 'race', i }, at: i, by: 'player' })),
      );
      assert.equal(results.filter(Boolean).length, 1);
      assert.equal((await log.read(id)).length, 1);
    });

    it('reads offloaded units from their block\'s files once their logs are dropped', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'units-offload-'));
      try {
        const blockId = `${name}-offloaded-${++n}.0`;
        const logs: LoggedAction[][] = [[{ action: { type: 'reveal', index: 1 }, at: 1, by: 'player' }], []];
        for (const [p, entries] of logs.entries()) {
          for (const [i, entry] of entries.entries()) assert.ok(await log.append(`${blockId}:${p}`, i, entry));
        }
        const sale = (position: number) => ({ unitId: `${blockId}:${position}`, position, tierId: 0 }) as Sale;
        const path = await writeOffloadedBlock(dir, blockId, 2, (async function* () {
          for (const [p, entries] of logs.entries()) yield { sale: sale(p), actions: entries };
        })());
        await log.offload(blockId, path, [`${blockId}:0`, `${blockId}:1`]);
        assert.deepEqual(await log.read(`${blockId}:0`), logs[0]);
        assert.deepEqual(await log.read(`${blockId}:1`), []);
        rmSync(dir, { recursive: true, force: true });
        await assert.rejects(() => log.read(`${blockId}:0`), new RegExp(`offloaded in ${path}`), 'the logs are gone from the store');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('reads an unknown unit as an empty log', async () => {
      assert.deepEqual(await log.read(unit()), []);
    });
  });
}
