import { strict as assert } from 'node:assert';
import { dailySummary, selectRecords } from '../../src/archive/export';
import type { ArchiveRecord } from '../../src/archive/records';

const DAY = 86_400_000;
/** 2023-11-14T00:00:00Z. */
const NOV_14 = Date.UTC(2023, 10, 14);

let seq = 0;
function record(kind: string, at: number, player: string, payload: ArchiveRecord['payload']): ArchiveRecord {
  seq++;
  return { t: 'r', stream: 'money', seq, src: `0-${seq}`, prev: '', hash: '', at, kind, player, session: '', table: '', process: '', payload };
}

describe('the export to the regulator', () => {
  // Two days, two players, two games; the last instant of the 14th and the first of the 15th.
  const records = [
    record('deposit', NOV_14, 'p1', { amount: 1_000, balance: 1_000, ref: 'd1' }),
    record('stake', NOV_14 + 1, 'p1', { amount: -50, balance: 950, ref: 'u1', game: 'noel' }),
    record('prize', NOV_14 + 2, 'p1', { amount: 200, balance: 1_150, ref: 'u1', game: 'noel' }),
    record('stake', NOV_14 + DAY - 1, 'p2', { amount: -100, balance: 900, ref: 'u2', game: 'lamp' }),
    record('stake', NOV_14 + DAY, 'p2', { amount: -50, balance: 850, ref: 'u3', game: 'noel' }),
    record('prize', NOV_14 + DAY + 1, 'p2', { amount: 20, balance: 870, ref: 'u3', game: 'noel' }),
    record('stake', NOV_14 + DAY + 2, 'p1', { amount: -50, balance: 1_100, ref: 'u4', game: 'noel' }),
  ];
  const refs = (selected: ArchiveRecord[]) => selected.map((r) => r.payload['ref']);

  it("selects a player's records, in stream order", () => {
    assert.deepEqual(refs(selectRecords(records, { player: 'p1' })), ['d1', 'u1', 'u1', 'u4']);
  });

  it("selects a game's records, and only records of that game", () => {
    assert.deepEqual(refs(selectRecords(records, { game: 'lamp' })), ['u2']);
  });

  it('selects whole UTC days from the first to the last included', () => {
    assert.deepEqual(refs(selectRecords(records, { from: '2023-11-14', to: '2023-11-14' })), ['d1', 'u1', 'u1', 'u2']);
    assert.deepEqual(refs(selectRecords(records, { from: '2023-11-15' })), ['u3', 'u3', 'u4']);
    assert.deepEqual(refs(selectRecords(records, { to: '2023-11-14' })), ['d1', 'u1', 'u1', 'u2']);
    assert.deepEqual(refs(selectRecords(records, { from: '2023-11-16' })), []);
  });

  it('selects everything with no filter, and what meets every part of one', () => {
    assert.equal(selectRecords(records, {}).length, records.length);
    assert.deepEqual(refs(selectRecords(records, { player: 'p2', game: 'noel', from: '2023-11-15', to: '2023-11-15' })), ['u3', 'u3']);
  });

  it('sums units, stakes, prizes and gross gaming revenue per UTC day and game, deposits left out, sorted by day then game', () => {
    assert.deepEqual(dailySummary(records), [
      { day: '2023-11-14', game: 'lamp', units: 1, stakes: 100, prizes: 0, ggr: 100 },
      { day: '2023-11-14', game: 'noel', units: 1, stakes: 50, prizes: 200, ggr: -150 },
      { day: '2023-11-15', game: 'noel', units: 2, stakes: 100, prizes: 20, ggr: 80 },
    ]);
  });

  it('sums only the days of its period', () => {
    assert.deepEqual(dailySummary(records, { from: '2023-11-15' }).map((row) => `${row.day} ${row.game}`), ['2023-11-15 noel']);
    assert.deepEqual(dailySummary(records, { to: '2023-11-14' }).map((row) => `${row.day} ${row.game}`), ['2023-11-14 lamp', '2023-11-14 noel']);
  });
});
