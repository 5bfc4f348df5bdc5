import { strict as assert } from 'node:assert';
import { LocalPresence } from '@colyseus/core';
import { TableStreams } from '../../src/feed/table-stream';

describe('a table stream’s count of watchers', () => {
  it('sums the watchers of every live relay, up to the table’s most', async () => {
    const streams = new TableStreams(new LocalPresence(), 'count');
    await Promise.all([streams.relayAlive('t1', 'relay-a'), streams.relayAlive('t1', 'relay-b')]);
    assert.equal(await streams.admit('t1', 'relay-a', 3), true);
    assert.equal(await streams.admit('t1', 'relay-a', 3), true);
    assert.equal(await streams.admit('t1', 'relay-b', 3), true);
    assert.equal(await streams.admit('t1', 'relay-b', 3), false, 'a fourth watcher is one too many');
    assert.equal(await streams.total('t1'), 3);
    await Promise.all([streams.forget('t1', 'relay-a'), streams.forget('t1', 'relay-b')]);
  });

  it('stops counting the watchers of a relay whose key expired (its process died), and frees their places', async () => {
    const presence = new LocalPresence();
    const streams = new TableStreams(presence, 'count');
    await Promise.all([streams.relayAlive('t1', 'relay-a'), streams.relayAlive('t1', 'relay-b')]);
    for (const relay of ['relay-a', 'relay-a', 'relay-b']) assert.equal(await streams.admit('t1', relay, 3), true);
    // What Redis does when relay-a's process no longer keeps its key alive.
    await presence.del('count:watch:t1:relay:relay-a');
    assert.equal(await streams.total('t1'), 1);
    assert.deepEqual(Object.keys(await presence.hgetall('count:watch:t1:watchers')), ['relay-b'], 'the dead relay’s entry dropped');
    assert.equal(await streams.admit('t1', 'relay-b', 3), true);
    assert.equal(await streams.admit('t1', 'relay-b', 3), true);
    assert.equal(await streams.total('t1'), 3);
    await streams.forget('t1', 'relay-b');
  });

  it('keeps no count or key of a relay that went away', async () => {
    const presence = new LocalPresence();
    const streams = new TableStreams(presence, 'count');
    await streams.relayAlive('t1', 'relay-a');
    await streams.admit('t1', 'relay-a', 3);
    await streams.forget('t1', 'relay-a');
    assert.equal(await presence.exists('count:watch:t1:relay:relay-a'), false);
    assert.equal(await streams.total('t1'), 0);
  });
});
