import { strict as assert } from 'node:assert';
import { applyPrizeChanges, prizeChanges } from '../../src/protocol/prize-changes';

const block = (blockId: string, left: number[]) => ({ game: 'mine-d-or', stake: 50, blockId, tiers: left.map((n, i) => ({ tierId: i + 1, prize: 100 * (i + 1), left: n })) });

describe('prize changes', () => {
  const before = [block('mine-d-or-50.0', [2, 40, 900]), block('mine-d-or-100.0', [1, 20, 300])];

  it('names only the counts that moved, and rebuilds the new list from the old one with them', () => {
    const after = [block('mine-d-or-50.0', [2, 39, 900]), block('mine-d-or-100.0', [0, 20, 297])];
    const changes = prizeChanges(before, after);
    assert.deepEqual(changes, [0, 1, 39, 1, 0, 0, 1, 2, 297]);
    assert.deepEqual(applyPrizeChanges(before, changes!), after);
    assert.deepEqual(before[0]!.tiers[1]!.left, 40, 'the old list is left as it was');
  });

  it('finds nothing to send when no count moved', () => {
    assert.deepEqual(prizeChanges(before, structuredClone(before)), []);
  });

  it('asks for the whole list when a block opened or closed, or its tiers differ', () => {
    assert.equal(prizeChanges(before, before.slice(0, 1)), undefined);
    assert.equal(prizeChanges(before, [block('mine-d-or-50.1', [2, 40, 900]), before[1]!]), undefined);
    assert.equal(prizeChanges(before, [block('mine-d-or-50.0', [2, 40]), before[1]!]), undefined);
  });
});
