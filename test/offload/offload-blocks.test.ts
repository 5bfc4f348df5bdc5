import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '../../src/dealer/memory/store';
import type { Sale } from '../../src/dealer/types';
import { MemoryActionLog } from '../../src/action-log/action-log';
import { offloadClosedBlocks } from '../../src/offload/offload-blocks';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';

const T0 = 1_700_000_000_000;
const DAY = 24 * 60 * 60 * 1000;

describe('offloading closed blocks', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'offload-blocks-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('offloads a settled block once its retention has passed, and every record reads the same after', async () => {
    const dealer = new MemoryStore();
    const log = new MemoryActionLog();
    await dealer.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 2, now: T0 });
    await dealer.wallets.deposit('p1', 1_000, 'd1', T0);
    const sales: Sale[] = [];
    for (let i = 0; i < 10; i++) {
      const result = await dealer.sales.purchase({ playerId: 'p1', requestId: `r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + i });
      assert.ok(result.ok);
      sales.push(result.sale);
      assert.ok(await log.append(result.sale.unitId, 0, { action: { type: 'auto', i }, at: T0 + i, by: 'player' }));
      await dealer.sales.settle(result.sale.unitId, T0 + i);
    }
    const before = await Promise.all(sales.map(async (s) => [await dealer.sales.getSale(s.unitId), await log.read(s.unitId)]));
    const closedAt = T0 + 9;
    const options = { dir, retentionMs: 30 * DAY };

    assert.deepEqual(await offloadClosedBlocks(dealer, log, { ...options, now: closedAt + 30 * DAY - 1 }), [], 'kept during its retention');
    const offloaded = await offloadClosedBlocks(dealer, log, { ...options, now: closedAt + 30 * DAY });
    assert.deepEqual(offloaded, [{ blockId: 'e.0', path: join(dir, 'e.0.units.ndjson'), units: 10 }]);
    assert.ok(existsSync(join(dir, 'e.0.units.index')));
    assert.deepEqual(await dealer.offloading.blockSales('e.0', 0, 10), [], 'the store dropped its records');
    const after = await Promise.all(sales.map(async (s) => [await dealer.sales.getSale(s.unitId), await log.read(s.unitId)]));
    assert.deepEqual(after, before);
    assert.deepEqual(await offloadClosedBlocks(dealer, log, { ...options, now: closedAt + 60 * DAY }), [], 'once');
  });
});
