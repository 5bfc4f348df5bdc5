import { strict as assert } from 'node:assert';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SlicedSender } from '../../src/rooms/fan-out';

describe('sliced sender', () => {
  it('sends nothing before flush, then everything in order, at most 100 frames a turn', async () => {
    const sender = new SlicedSender();
    const sent: number[] = [];
    for (let i = 0; i < 250; i++) sender.push(() => sent.push(i));
    await nextTurn();
    assert.deepEqual(sent, [], 'nothing before flush');
    sender.flush();
    sender.flush();
    const perTurn: number[] = [];
    while (sent.length < 250) {
      const before = sent.length;
      await nextTurn();
      perTurn.push(sent.length - before);
    }
    assert.ok(perTurn.every((n) => n <= 100), `frames per turn: ${perTurn.join(', ')}`);
    assert.deepEqual(sent, Array.from({ length: 250 }, (_, i) => i));
  });

  it('sends frames queued while draining after those already queued', async () => {
    const sender = new SlicedSender();
    const sent: string[] = [];
    for (let i = 0; i < 150; i++) sender.push(() => sent.push(`a${i}`));
    sender.flush();
    await nextTurn();
    sender.push(() => sent.push('b'));
    sender.flush();
    while (sent.length < 151) await nextTurn();
    assert.equal(sent.at(-1), 'b');
    assert.equal(sent.filter((s) => s.startsWith('a')).length, 150);
  });
});
