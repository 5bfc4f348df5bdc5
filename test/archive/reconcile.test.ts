import { strict as assert } from 'node:assert';
import { bookLines, moneyLines, reconcile, type MoneyLine } from '../../src/archive/reconcile';
import { SealingKey } from '../../src/archive/seal';
import { verifyArchive } from '../../src/archive/verify';
import { ArchiveWriter } from '../../src/archive/writer';
import type { ArchiveOutbox, OutboxEntry } from '../../src/dealer/outbox';
import { playedStore, T0, tempDir } from './support/archive-fixture';

const KEY = SealingKey.generate();

/** An outbox whose reads pass through `change`: a side channel that loses or repeats entries. */
function altered(outbox: ArchiveOutbox, change: (entries: OutboxEntry[]) => OutboxEntry[]): ArchiveOutbox {
  return {
    streams: outbox.streams,
    append: (record) => outbox.append(record),
    read: async (stream, after, count) => (stream === 'money' ? change(await outbox.read(stream, after, count)) : outbox.read(stream, after, count)),
    trim: (stream, through) => outbox.trim(stream, through),
    unrelayed: (playerId) => outbox.unrelayed(playerId),
  };
}

describe('reconcile', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => ({ dir, remove } = await tempDir()));
  afterEach(() => remove());

  async function reconciled(change: (entries: OutboxEntry[]) => OutboxEntry[]) {
    const store = await playedStore(10);
    const writer = await ArchiveWriter.open({ dir, outbox: altered(store.outbox, change), key: KEY, sealRecords: 1000, now: () => T0 });
    await writer.drainAll();
    const verified = await verifyArchive(dir);
    assert.deepEqual(verified.problems, [], 'the archive itself is well chained and sealed');
    return reconcile(moneyLines(verified.records.get('money')!), await bookLines(store));
  }

  it('finds the archive and the books alike when every line was archived', async () => {
    const result = await reconciled((entries) => entries);
    assert.deepEqual(result.differences, []);
    assert.equal(result.archived, result.booked);
  });

  it('finds a stake missing from the archive, per day, game and player and by its line', async () => {
    let dropped: OutboxEntry | undefined;
    const result = await reconciled((entries) => entries.filter((e) => dropped !== undefined || e.kind !== 'stake' || ((dropped = e), false)));
    const ref = String(dropped!.payload['ref']);
    assert.deepEqual(result.differences, [
      `2023-11-14 noel-de-la-chance p1 stake: −4.50 € in the archive, −5.00 € in the books`,
      `line p1 stake ${ref} -50: 0 in the archive, 1 in the books`,
    ]);
  });

  it('finds a prize paid twice', async () => {
    const result = await reconciled((entries) => entries.flatMap((e) => (e.kind === 'prize' && e === entries.find((x) => x.kind === 'prize') ? [e, e] : [e])));
    assert.equal(result.differences.length, 3, result.differences.join('\n'));
    assert.match(result.differences[0]!, /^2023-11-14 noel-de-la-chance p1 prize: /);
    assert.match(result.differences[1]!, /^line p1 prize \S+ \d+: 2 in the archive, 1 in the books$/);
    assert.match(result.differences[2]!, /^prize of unit \S+ to p1 2 times in the archive$/);
  });

  it('finds a prize paid twice in the books, even when the archive has both', () => {
    const prize: MoneyLine = { player: 'p1', kind: 'prize', amount: 500, at: T0, ref: 'e.0:1', game: 'noel-de-la-chance' };
    const result = reconcile([prize, prize], [prize, prize]);
    assert.deepEqual(result.differences, ['prize of unit e.0:1 to p1 2 times in the archive', 'prize of unit e.0:1 to p1 2 times in the books']);
  });
});
