import { strict as assert } from 'node:assert';
import { lampeRules, type LampChoice, type LampStreamEvent } from '../../../src/games/mysteres-de-la-lampe';
import { PRIZES, STAKE, seedOf } from './helpers';

/**
 * Pinned scenarios: a change to the generator (the nonce, the order of draws, the decoy
 * weights, the colour or symbol names) shows here. Regenerate only on purpose.
 * Losing units: [i, kind, pick, decoy gain, lamp result] for seed `lampe/golden/loss/<i>`.
 */
const LOSSES: readonly [number, LampChoice['kind'], string, number, string][] = [
  [0, 'colour', 'red', 50, 'green'],
  [1, 'colour', 'gold', 50, 'green'],
  [2, 'symbol', 'sun', 100, 'moon'],
  [3, 'colour', 'blue', 50, 'gold'],
  [4, 'symbol', 'star', 100, 'moon'],
  [5, 'symbol', 'key', 100, 'star'],
  [6, 'colour', 'green', 5000, 'gold'],
  [7, 'symbol', 'moon', 100, 'sun'],
  [8, 'colour', 'red', 100, 'blue'],
  [9, 'colour', 'gold', 100, 'blue'],
  [10, 'symbol', 'sun', 100, 'key'],
  [11, 'colour', 'blue', 700, 'gold'],
  [12, 'symbol', 'star', 50, 'sun'],
  [13, 'symbol', 'key', 700, 'star'],
  [14, 'colour', 'green', 100, 'blue'],
  [15, 'symbol', 'moon', 50, 'key'],
];

describe('mysteres-de-la-lampe golden scenarios', () => {
  it('still deals the pinned losing units', () => {
    for (const [i, kind, pick, potentialGain, result] of LOSSES) {
      const choice = { kind, choice: pick } as LampChoice;
      const s = lampeRules.generate({ stake: STAKE, prize: 0 }, seedOf(`lampe/golden/loss/${i}`), choice);
      assert.deepEqual(s, { kind, pick, potentialGain, result }, `loss ${i}`);
    }
  });

  it('still deals every winning tier as the prize shown and the pick revealed', () => {
    for (const prize of PRIZES.filter((p) => p > 0)) {
      const s = lampeRules.generate({ stake: STAKE, prize }, seedOf(`lampe/golden/win/${prize}`), { kind: 'symbol', choice: 'sun' });
      assert.deepEqual(s, { kind: 'symbol', pick: 'sun', potentialGain: prize, result: 'sun' });
    }
  });

  it('still streams the pinned events of a losing unit played step by step', () => {
    const seed = seedOf('lampe/golden/loss/6');
    const start = lampeRules.start({ stake: STAKE, prize: 0 }, seed, { kind: 'colour', choice: 'green' });
    const events: LampStreamEvent[] = [...start.events];
    let state = start.state;
    for (const progress of [25, 60, 100]) {
      const step = lampeRules.reduce(state, { type: 'rub', progress });
      assert.ok(step.ok);
      events.push(...step.events);
      state = step.state;
    }
    assert.deepEqual(events, [
      { type: 'potential_gain_shown', pick: { kind: 'colour', choice: 'green' }, amount: 5000 },
      { type: 'rub_progress', progress: 25 },
      { type: 'rub_progress', progress: 60 },
      { type: 'rub_progress', progress: 100 },
      { type: 'lamp_opened', result: 'gold' },
      { type: 'finished', prize: 0 },
    ]);
  });
});
