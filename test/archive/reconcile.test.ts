import { strict as assert } from 'node:assert';
import { bookLines, moneyLines, moneyOnItsWay, moneyRecords, reconcile, type MoneyLine } from '../../src/archive/reconcile';
import type { ArchiveRecord } from '../../src/archive/records';
import { SealingKey } from '../../src/archive/seal';
import { verifyArchive } from '../../src/archive/verify';
import { ArchiveWriter } from '../../src/archive/writer';
import { MemoryStore } from '../../src/dealer/memory/store';
import { MemoryOutbox, type ArchiveOutbox, type OutboxEntry } from '../../src/dealer/outbox';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';
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

describe('reconcile, line by line', () => {
  const DAY = 86_400_000;
  const line = (more: Partial<MoneyLine>): MoneyLine => ({ player: 'p1', kind: 'deposit', amount: 500, at: T0, ref: 'd1', game: '', ...more });

  it('shows a deposit missing under no game, in euros, with nothing on the side that lacks it', () => {
    assert.deepEqual(reconcile([], [line({})]).differences, ['2023-11-14 - p1 deposit: 0.00 € in the archive, 5.00 € in the books', 'line p1 deposit d1 500: 0 in the archive, 1 in the books']);
  });

  it('lists the differences by day, game, player and kind, then by line, whichever side holds them', () => {
    const result = reconcile([line({ player: 'p2', at: T0 + DAY })], [line({ player: 'p1' })]);
    assert.deepEqual(result.differences, [
      '2023-11-14 - p1 deposit: 0.00 € in the archive, 5.00 € in the books',
      '2023-11-15 - p2 deposit: 5.00 € in the archive, 0.00 € in the books',
      'line p1 deposit d1 500: 0 in the archive, 1 in the books',
      'line p2 deposit d1 500: 1 in the archive, 0 in the books',
    ]);
  });

  it('finds a stake twice on both sides, and a deposit archived twice by its sum and its line only', () => {
    const stake = line({ kind: 'stake', amount: -50, ref: 'e.0:1', game: 'noel-de-la-chance' });
    assert.deepEqual(reconcile([stake, stake], [stake, stake]).differences, ['stake of unit e.0:1 to p1 2 times in the archive', 'stake of unit e.0:1 to p1 2 times in the books']);
    const deposit = line({});
    assert.deepEqual(reconcile([deposit, deposit], [deposit]).differences, [
      '2023-11-14 - p1 deposit: 10.00 € in the archive, 5.00 € in the books',
      'line p1 deposit d1 500: 2 in the archive, 1 in the books',
    ]);
  });

  it('reads the money lines of records, leaving out the protection changes the money stream also holds', () => {
    const entry = (kind: string, payload: Record<string, unknown>) => ({ at: T0, kind, player: 'p1', payload });
    assert.deepEqual(moneyLines([entry('protection', { what: 'limit' }), entry('deposit', { amount: 500, balance: 500, ref: 'd1' }), entry('stake', { amount: -50, balance: 450, ref: 'e.0:1', game: 'noel-de-la-chance' })]), [
      line({}),
      line({ kind: 'stake', amount: -50, ref: 'e.0:1', game: 'noel-de-la-chance' }),
    ]);
  });

  it('takes the records of every money stream, a shard’s too, stream after stream, and no play record', () => {
    const record = (stream: string, seq: number) => ({ stream, seq }) as unknown as ArchiveRecord;
    const records = new Map([
      ['money', [record('money', 1), record('money', 2)]],
      ['play', [record('play', 1)]],
      ['money-1', [record('money-1', 1)]],
    ]);
    assert.deepEqual(moneyRecords(records).map((r) => `${r.stream}:${r.seq}`), ['money:1', 'money:2', 'money-1:1']);
  });

  it('counts as on its way the money entries after the last archived, and those a relay left in players’ streams', async () => {
    const outbox = new MemoryOutbox();
    outbox.money('p1', 'deposit', 500, 500, 'd1', T0, '');
    outbox.money('p1', 'deposit', 300, 800, 'd2', T0, '');
    await outbox.append({ at: T0, kind: 'sign_in', player: 'p1', session: 's', table: '', process: 'x', payload: {} });
    const [first] = await outbox.read('money', undefined, 1);
    const left: OutboxEntry = { ...first!, id: '9-9', payload: { amount: 100, balance: 900, ref: 'd3' } };
    const withRelay: ArchiveOutbox = Object.assign(outbox, { unrelayed: async (player: string) => (player === 'p1' ? [left] : []) });
    const archived = new Map([['money', [{ src: first!.id } as unknown as ArchiveRecord]]]);
    assert.deepEqual((await moneyOnItsWay(withRelay, archived, ['p1', 'p2'])).map((e) => e.payload['ref']), ['d2', 'd3']);
    assert.deepEqual((await moneyOnItsWay(withRelay, new Map(), [])).map((e) => e.payload['ref']), ['d1', 'd2'], 'nothing archived yet: all of it');
    assert.deepEqual((await moneyOnItsWay(withRelay, new Map([['money', []]]), [])).map((e) => e.payload['ref']), ['d1', 'd2'], 'a stream with no record yet: all of it');
  });

  it("books a deposit under no game, even when its reference reads as a unit's id", async () => {
    const store = new MemoryStore();
    await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 1, now: T0 });
    await store.wallets.deposit('p1', 500, 'e.0:1', T0);
    const bought = await store.sales.purchase({ playerId: 'p1', requestId: 'r1', game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 });
    assert.ok(bought.ok);
    assert.deepEqual((await bookLines(store)).map((l) => [l.kind, l.ref, l.game]), [
      ['deposit', 'e.0:1', ''],
      ['stake', bought.sale.unitId, TEN_UNIT_TABLE.game],
    ]);
  });
});
