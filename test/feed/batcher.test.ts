import { strict as assert } from 'node:assert';
import { Batcher } from '../../src/feed/batcher';
import { eventually, sleep } from '../rooms/helpers';

/**
 * Timings only from below: "within the interval" is items added in one turn of the event loop
 * (microseconds), "after a quiet interval" is a sleep longer than the interval.
 */
const INTERVAL_MS = 300;

function batcher(intervalMs = INTERVAL_MS, then?: (batch: string[], b: Batcher<string>) => void) {
  const sent: string[][] = [];
  const b: Batcher<string> = new Batcher<string>(intervalMs, (batch) => {
    sent.push(batch);
    then?.(batch, b);
  });
  return { b, sent };
}

describe('feed batches', () => {
  it('sends a lone item at once', () => {
    const { b, sent } = batcher();
    b.add('a');
    assert.deepEqual(sent, [['a']], 'sent before add() returned');
    b.stop();
  });

  it('gathers the items of one interval into one batch, in order, sent when it ends', async () => {
    const { b, sent } = batcher();
    b.add('a');
    b.add('b');
    b.add('c');
    assert.deepEqual(sent, [['a']], 'b and c wait for the end of the interval');
    await eventually(() => sent.length, (n) => n === 2, 'the second batch');
    assert.deepEqual(sent, [['a'], ['b', 'c']]);
  });

  it('sends an item arriving after a quiet interval at once', async () => {
    const { b, sent } = batcher();
    b.add('a');
    await sleep(INTERVAL_MS + 50);
    b.add('b');
    assert.deepEqual(sent, [['a'], ['b']]);
    b.stop();
  });

  it('makes an item arriving right after a batch went out wait for the next interval', async () => {
    let added = false;
    const { b, sent } = batcher(INTERVAL_MS, (batch, self) => {
      if (batch[0] !== 'b') return;
      self.add('c');
      added = true;
    });
    b.add('a');
    b.add('b');
    await eventually(() => added, Boolean, 'c added as the batch of b went out');
    assert.deepEqual(sent, [['a'], ['b']], 'c did not go at once');
    await eventually(() => sent.length, (n) => n === 3, 'the batch of c');
    assert.deepEqual(sent, [['a'], ['b'], ['c']]);
  });

  it('sends every item at once, alone, with an interval of 0', () => {
    const { b, sent } = batcher(0);
    b.add('a');
    b.add('b');
    b.add('c');
    assert.deepEqual(sent, [['a'], ['b'], ['c']]);
  });

  it('sends nothing more once stopped', async () => {
    const { b, sent } = batcher();
    b.add('a');
    b.add('b');
    b.stop();
    await sleep(INTERVAL_MS + 50);
    assert.deepEqual(sent, [['a']]);
  });
});
