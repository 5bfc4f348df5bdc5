import { strict as assert } from 'node:assert';
import { ReplyError } from 'ioredis';
import { isStoreOutage } from '../../src/dealer/outage';

describe('store outage', () => {
  it('counts a redirection ioredis gave up following (MOVED, ASK) as an outage: the command did not run', () => {
    assert.equal(isStoreOutage(new ReplyError('MOVED 7786 127.0.0.1:21987')), true);
    assert.equal(isStoreOutage(new ReplyError('ASK 7786 127.0.0.1:21987')), true);
  });

  it('counts a failover\'s errors as outages', () => {
    for (const message of ['CLUSTERDOWN The cluster is down', 'TRYAGAIN Multiple keys request during rehashing of slot', 'READONLY You can\'t write against a read only replica.', 'Connection is closed.', 'Command timed out']) {
      assert.equal(isStoreOutage(new Error(message)), true, message);
    }
  });

  it('does not count a refusal of the request itself, or what is not an error, as an outage', () => {
    assert.equal(isStoreOutage(new ReplyError('ERR wrong number of arguments for \'hget\' command')), false);
    assert.equal(isStoreOutage(new Error('request r1 names unit e.0:3, which has no sale')), false);
    assert.equal(isStoreOutage('MOVED 1 a:1'), false);
  });
});
