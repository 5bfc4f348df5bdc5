import { strict as assert } from 'node:assert';
import { countByKind, FAULT_KINDS, planFaults, type PlanSettings } from '../../../loadtest/chaos/plan';

const SETTINGS: PlanSettings = {
  seed: 42,
  spanMs: 120_000,
  meanGapMs: 5000,
  servers: 3,
  players: 24,
  freezeMinMs: 4000,
  freezeMaxMs: 8000,
  weights: { 'kill-server': 1, 'kill-redis': 1, 'freeze-redis': 1, 'cut-clients': 1, 'kill-writer': 1 },
};

describe('chaos plan', () => {
  it('draws the same schedule from the same seed, and another from another seed', () => {
    assert.deepEqual(planFaults(SETTINGS), planFaults(SETTINGS));
    assert.notDeepEqual(planFaults(SETTINGS), planFaults({ ...SETTINGS, seed: 43 }));
  });

  it('keeps every fault inside the span, in order, gaps within [mean/2, 3·mean/2]', () => {
    const faults = planFaults(SETTINGS);
    // 120 s at one fault per 5 s on average: about 24.
    assert.ok(faults.length >= 18 && faults.length <= 32, `${faults.length} faults`);
    let last = 0;
    for (const f of faults) {
      assert.ok(f.atMs < SETTINGS.spanMs);
      assert.ok(f.atMs - last >= 2500 && f.atMs - last <= 7500, `gap ${f.atMs - last}`);
      last = f.atMs;
    }
  });

  it('draws targets and durations within their bounds', () => {
    for (const f of planFaults({ ...SETTINGS, spanMs: 3_600_000 })) {
      if (f.kind === 'kill-server') assert.ok(f.target >= 0 && f.target < SETTINGS.servers);
      if (f.kind === 'cut-clients') assert.ok(f.target >= 1 && f.target <= 5);
      if (f.kind === 'freeze-redis') assert.ok(f.downMs >= 4000 && f.downMs <= 8000);
      if (f.kind === 'kill-server' || f.kind === 'kill-redis' || f.kind === 'kill-writer') assert.ok(f.downMs >= 300 && f.downMs <= 2500);
    }
  });

  it('draws every kind with a weight, and never a kind of weight 0', () => {
    const all = countByKind(planFaults({ ...SETTINGS, spanMs: 3_600_000 }));
    for (const kind of FAULT_KINDS) assert.ok(all[kind] > 100, `${kind}: ${all[kind]}`);
    const noCuts = countByKind(planFaults({ ...SETTINGS, spanMs: 3_600_000, weights: { ...SETTINGS.weights, 'cut-clients': 0 } }));
    assert.equal(noCuts['cut-clients'], 0);
  });

  it('refuses a plan with no kind to draw', () => {
    assert.throws(() => planFaults({ ...SETTINGS, weights: { 'kill-server': 0, 'kill-redis': 0, 'freeze-redis': 0, 'cut-clients': 0, 'kill-writer': 0 } }), /weight/);
  });
});
