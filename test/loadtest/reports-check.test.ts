import { strict as assert } from 'node:assert';
import { checkPhaseBooks, type Collected } from '../../loadtest/collect';
import { parseOptions } from '../../loadtest/options';
import { formatReport, type Report } from '../../loadtest/report';
import { checkReports, type RecalledSale, type ReportsRead } from '../../loadtest/reports-check';
import { runLoadtest } from '../../loadtest/run';

/**
 * The operator's reports against the recalls of the load test's units: the comparison on
 * hand-made figures (equal, then each way of differing caught), then the harness itself on the
 * memory store and on Redis, where its books check reads the server's reports and finds them
 * equal to what it computes from its units' recalls.
 */

const RAIN = { game: 'rain-diamonds', stake: 50 } as const;
/** Four units: three on 28 March in Paris (one of them at 23:30, 22:30 UTC), one on the 29th; two blocks. */
const RECALLS: RecalledSale[] = [
  { ...RAIN, blockId: 'rain.0', status: 'finished', prize: 0, soldAt: '2026-03-28T10:00:00.000Z' },
  { ...RAIN, blockId: 'rain.0', status: 'finished', prize: 200, soldAt: '2026-03-28T12:00:00.000Z' },
  { ...RAIN, blockId: 'rain.1', status: 'finished', prize: 100, soldAt: '2026-03-28T22:30:00.000Z' },
  { ...RAIN, blockId: 'rain.1', status: 'finished', prize: 0, soldAt: '2026-03-28T23:30:00.000Z' },
];

/** The reports of those four units on a server that sold nothing else. */
function reports(): ReportsRead {
  return {
    days: [
      { ...RAIN, day: '2026-03-29', units: 1, stakes: 50, prizes: 0, ggr: 50 },
      { ...RAIN, day: '2026-03-28', units: 3, stakes: 150, prizes: 300, ggr: -150 },
    ],
    blocks: [
      { ...RAIN, blockId: 'rain.0', size: 10, sold: 2, left: 8, prizesWon: 200 },
      { ...RAIN, blockId: 'rain.1', size: 10, sold: 2, left: 8, prizesWon: 100 },
      { ...RAIN, blockId: 'rain.2', size: 10, sold: 0, left: 10, prizesWon: 0 },
    ],
  };
}

describe('the operator’s reports against the recalls of the load test’s units', () => {
  it('finds equal figures equal: per game, price and Paris day, and per block', () => {
    const { checked, differences } = checkReports(RECALLS, reports());
    assert.deepEqual(differences, []);
    assert.deepEqual(checked, { mode: 'exact', days: 2, blocks: 2, units: 4, prizesUnknown: 0, differences: 0 });
  });

  it('finds a prize the recalls do not show: in its day’s prizes and GGR and in its block', () => {
    const altered = RECALLS.map((r, i) => (i === 1 ? { ...r, prize: 201 } : r));
    assert.deepEqual(checkReports(altered, reports()).differences, [
      'rain-diamonds at 0.50 € on 2026-03-28: the reports say prizes 3.00 €, the recalls 3.01 €',
      'rain-diamonds at 0.50 € on 2026-03-28: the reports say GGR -1.50 €, the recalls stakes − prizes = -1.51 €',
      'block rain.0 (rain-diamonds at 0.50 €): the reports say prizes won 2.00 €, the recalls 2.01 €',
    ]);
  });

  it('finds a unit the run did not buy, and stock that does not add up', () => {
    const read = reports();
    const more: ReportsRead = {
      days: [{ ...read.days[0]!, units: 2, stakes: 100, ggr: 100 }, read.days[1]!],
      blocks: [read.blocks[0]!, { ...read.blocks[1]!, sold: 3, left: 7 }, { ...read.blocks[2]!, left: 9 }],
    };
    assert.deepEqual(checkReports(RECALLS, more).differences, [
      'rain-diamonds at 0.50 € on 2026-03-29: the reports say 2 units, stakes 1.00 €; the recalls 1 units, stakes 0.50 €',
      'rain-diamonds at 0.50 € on 2026-03-29: the reports say GGR 1.00 €, the recalls stakes − prizes = 0.50 €',
      'block rain.1 (rain-diamonds at 0.50 €): the reports say 3 units sold and 3 fewer left (7 of 10), the recalls 2 units',
      'block rain.2 (rain-diamonds at 0.50 €): the reports say 0 units sold and 1 fewer left (9 of 10), the recalls 0 units',
    ]);
  });

  it('compares after − before on given servers', () => {
    const before: ReportsRead = { days: [{ ...RAIN, day: '2026-03-28', units: 5, stakes: 250, prizes: 100, ggr: 150 }], blocks: [{ ...RAIN, blockId: 'rain.0', size: 10, sold: 5, left: 5, prizesWon: 100 }] };
    const after: ReportsRead = {
      days: [reports().days[0]!, { ...RAIN, day: '2026-03-28', units: 8, stakes: 400, prizes: 400, ggr: 0 }],
      blocks: [{ ...RAIN, blockId: 'rain.0', size: 10, sold: 7, left: 3, prizesWon: 300 }, ...reports().blocks.slice(1)],
    };
    const { checked, differences } = checkReports(RECALLS, after, before);
    assert.deepEqual([checked.mode, differences], ['delta', []]);
    assert.equal(checkReports(RECALLS, after).differences.length, 4, 'compared whole, the units sold before the run differ');
  });

  it('leaves the prizes of a day and a block with an unfinished unit uncompared, and says so', () => {
    const unfinished = RECALLS.map((r, i) => (i === 3 ? { ...r, status: 'in_progress' as const, prize: null } : r));
    const read = reports();
    const { checked, differences } = checkReports(unfinished, { ...read, blocks: read.blocks.map((b) => ({ ...b, prizesWon: b.prizesWon + 5 })) });
    assert.deepEqual(differences, ['block rain.0 (rain-diamonds at 0.50 €): the reports say prizes won 2.05 €, the recalls 2.00 €']);
    assert.equal(checked.prizesUnknown, 1);
  });

  it('fails the books with each difference', async () => {
    const collected: Collected = { players: [], recalls: new Map() };
    const read = reports();
    const { books } = await checkPhaseBooks({ collect: async () => collected }, {
      endpoints: ['http://127.0.0.1:1'], reader: async () => ({ emissions: [] }), before: { counts: [] }, timeoutS: 10, requestTimeoutMs: 1_000,
      reports: { reader: async () => read, notBefore: 0 },
    });
    assert.equal(books.ok, false);
    assert.equal(books.problems.filter((p) => p.startsWith('reports: ')).length, 7, JSON.stringify(books.problems));
    assert.equal(books.checked.reports?.differences, 7);
  });
});

/** Three players at think 0 for 3 s, no echo: enough units to cross blocks of the small tables. */
const RUN = ['--players', '3', '--duration', '3', '--warmup', '0', '--no-echo', '--drain', '10', '--quiet', '--server-env', 'EMBEDDED_KEEP_UNITS_PER_PLAYER=1000000'];

for (const [store, extra] of [['the memory store', []], ['Redis', ['--redis']]] as const) {
  describe(`the load test’s books on ${store}`, function () {
    this.timeout(120_000);

    it('read the operator’s reports of the server it started and find them equal to its units’ recalls', async () => {
      const lines: string[] = [];
      const report: Report = await runLoadtest(parseOptions([...RUN, ...extra]), { log: (line) => lines.push(line) });
      if (!report.ok) console.error(formatReport(report, undefined), '\n', lines.join('\n'));
      assert.equal(report.ok, true, JSON.stringify({ failures: report.failures, books: report.books.problems }));
      assert.ok('checked' in report.books);
      const { units, reports } = report.books.checked;
      assert.ok(reports, 'the reports were compared');
      assert.deepEqual([reports.mode, reports.units, reports.prizesUnknown, reports.differences], ['exact', units, 0, 0]);
      assert.ok(units > 0 && reports.days >= 1 && reports.blocks >= 1, JSON.stringify(reports));
      assert.match(formatReport(report, undefined), /operator's reports EQUAL to the recalls \(whole, the servers\)/);
    });
  });
}
