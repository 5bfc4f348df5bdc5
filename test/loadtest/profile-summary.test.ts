import { strict as assert } from 'node:assert';
import { busyShares } from '../../loadtest/profile-summary';

const frame = (functionName: string) => ({ functionName, url: '', lineNumber: 0 });

describe('profile summary', () => {
  it('counts a function with what it called, as a share of the busy samples', () => {
    // root → handle → encode; root → (idle)
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 4] },
        { id: 2, callFrame: frame('handle'), children: [3] },
        { id: 3, callFrame: frame('encode') },
        { id: 4, callFrame: frame('(idle)') },
      ],
      samples: [2, 3, 3, 1, 4, 4],
      timeDeltas: [10, 10, 10, 10, 100, 100],
    };
    const shares = busyShares(profile, ['handle', 'encode', 'absent']);
    assert.deepEqual(Object.fromEntries(shares), { handle: 0.75, encode: 0.5, absent: 0 });
  });
});
