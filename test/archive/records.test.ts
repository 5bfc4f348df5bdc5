import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import type { OutboxEntry } from '../../src/dealer/outbox';
import { canonicalJson, chainRecord, GENESIS, MONEY_KINDS, recordBytes } from '../../src/archive/records';

/**
 * The record format pinned (docs/archive.md, "Record format"): a regulator's own verifier hashes
 * these bytes, so any change to them, however consistent within the code, breaks every archive.
 */
describe('archive records: the bytes a record hash covers', () => {
  const entry: OutboxEntry = {
    id: '1700000000000-0', at: 1_700_000_000_000, kind: 'stake', player: 'p1', session: 's1', table: 't1', process: 'proc-1',
    payload: { unitId: 'noel.0:3', amount: 500, picks: [3, 1, { z: null, a: 'é' }] },
  };
  const bytes =
    '["instant-games-archive-record/1","money",1,1700000000000,"stake","p1","s1","t1","proc-1",' +
    '{"amount":500,"picks":[3,1,{"a":"é","z":null}],"unitId":"noel.0:3"},"1700000000000-0",' +
    `"${'0'.repeat(64)}"]`;

  it('writes a value as JSON with the keys of every object sorted, arrays and null as they are', () => {
    assert.equal(canonicalJson(entry.payload), '{"amount":500,"picks":[3,1,{"a":"é","z":null}],"unitId":"noel.0:3"}');
    assert.equal(canonicalJson(null), 'null');
    assert.equal(canonicalJson('x'), '"x"');
    assert.equal(canonicalJson([]), '[]');
  });

  it("hashes a stream's first record over its tag, stream, fields, source and a prev of 64 zeros, as UTF-8", () => {
    assert.equal(GENESIS, '0'.repeat(64));
    const record = chainRecord('money', entry, 1, GENESIS);
    assert.deepEqual(recordBytes(record), Buffer.from(bytes, 'utf8'));
    assert.equal(record.hash, createHash('sha256').update(Buffer.from(bytes, 'utf8')).digest('hex'));
    assert.equal(record.hash, '285695b8b4e7f194dc4bd4313419d4f45fbe45b64491561013789709604ef4c2');
    assert.notEqual(chainRecord('money', entry, 1, record.hash).hash, record.hash, 'prev is hashed');
  });

  it('takes the records of deposits, withdrawals, stakes and prizes from the wallet journal', () => {
    assert.deepEqual([...MONEY_KINDS].sort(), ['deposit', 'prize', 'stake', 'withdrawal']);
  });
});
