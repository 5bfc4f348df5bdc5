import { strict as assert } from 'node:assert';
import type { DealerStore } from '../../../src/dealer/types';
import { TEN_UNIT_TABLE } from './test-tables';

export const T0 = 1_700_000_000_000;

/** An emission `noel` of 3 ten-unit blocks with the first sold out and 4 units of the second sold (to p1). */
export async function dealFourteen(store: DealerStore): Promise<void> {
  await store.emissions.openEmission({ emissionId: 'noel', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
  await store.wallets.deposit('p1', 10_000, 'd1', T0);
  for (let i = 0; i < 14; i++) {
    const result = await store.sales.purchase({ playerId: 'p1', requestId: `r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + i });
    assert.ok(result.ok);
  }
}
