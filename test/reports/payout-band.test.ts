import { strict as assert } from 'node:assert';
import { BAND_TAIL, payoutBand } from '../../src/reports/payout-band';
import { RAIN_DIAMONDS_TABLE } from '../../src/games/rain-diamonds/prize-table';
import type { PrizeTable } from '../../src/games/types';

/** A 40-unit block of four winning tiers: small enough to list every way a draw can fall. */
const SMALL: PrizeTable = { game: 'rain-diamonds', stake: 100, blockSize: 40, tiers: [{ prize: 5_000, count: 1 }, { prize: 500, count: 4 }, { prize: 200, count: 7 }, { prize: 100, count: 12 }] };

function choose(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

/**
 * The law of the sum by the multivariate hypergeometric formula itself, in exact integers:
 * every count per tier, weighted by the product of binomials, over C(N, n).
 */
function exactLaw(table: PrizeTable, units: number): Map<number, bigint> {
  const tiers = [{ prize: 0, count: table.blockSize - table.tiers.reduce((n, t) => n + t.count, 0) }, ...table.tiers];
  const law = new Map<number, bigint>();
  const walk = (i: number, left: number, sum: number, weight: bigint): void => {
    if (i === tiers.length) {
      if (left === 0) law.set(sum, (law.get(sum) ?? 0n) + weight);
      return;
    }
    for (let k = 0; k <= Math.min(left, tiers[i]!.count); k++) walk(i + 1, left - k, sum + k * tiers[i]!.prize, weight * choose(tiers[i]!.count, k));
  };
  walk(0, units, 0, 1n);
  return law;
}

/** The least sum whose cumulative probability reaches level (a fraction in millionths). */
function exactQuantile(law: Map<number, bigint>, total: bigint, millionths: bigint): number {
  let cumulative = 0n;
  for (const sum of [...law.keys()].sort((a, b) => a - b)) {
    cumulative += law.get(sum)!;
    if (cumulative * 1_000_000n >= total * millionths) return sum;
  }
  throw new Error('unreachable');
}

describe('payout band', async () => {
  it('is the exact quantiles of the hypergeometric law of the prizes drawn from a block', async () => {
    const tail = BigInt(Math.round(BAND_TAIL * 1_000_000));
    for (const units of [1, 5, 10, 20, 33]) {
      const law = exactLaw(SMALL, units);
      const total = choose(SMALL.blockSize, units);
      assert.equal([...law.values()].reduce((a, b) => a + b, 0n), total);
      const band = await payoutBand([{ table: SMALL, units }]);
      assert.equal(band.method, 'exact');
      assert.deepEqual([band.low, band.high], [exactQuantile(law, total, tail), exactQuantile(law, total, 1_000_000n - tail)], `${units} units`);
      assert.equal(band.expected, Math.round((units * 9_600) / 40));
    }
  });

  it('is one value when the whole block is drawn, and nothing when none is', async () => {
    assert.deepEqual(await payoutBand([{ table: SMALL, units: 40 }]), { expected: 9_600, low: 9_600, high: 9_600, method: 'exact' });
    assert.deepEqual(await payoutBand([{ table: SMALL, units: 0 }]), { expected: 0, low: 0, high: 0, method: 'exact' });
  });

  it('adds the draws of several blocks: a sold-out block adds its whole table, exactly', async () => {
    const one = await payoutBand([{ table: SMALL, units: 10 }]);
    const two = await payoutBand([{ table: SMALL, units: 40 }, { table: SMALL, units: 10 }]);
    assert.deepEqual([two.low, two.high, two.expected], [one.low + 9_600, one.high + 9_600, one.expected + 9_600]);
  });

  it('is exact for hundreds of units of a real table, and takes the top prize in once it is likelier than the tail', async () => {
    const few = await payoutBand([{ table: RAIN_DIAMONDS_TABLE, units: 300 }]);
    assert.equal(few.method, 'exact');
    assert.ok(few.low < few.expected && few.expected < few.high, JSON.stringify(few));
    // 300 units at 0.50 € pay 68.5 % of 150 € on average; the 5,000 € prize (1 in 1.5 million) is outside.
    assert.equal(few.expected, 10_275);
    assert.ok(few.high < 500_000);
    // A thousand units draw it with probability 1/1,500, more than BAND_TAIL: it is inside.
    const more = await payoutBand([{ table: RAIN_DIAMONDS_TABLE, units: 1_000 }]);
    assert.equal(more.method, 'exact');
    assert.ok(more.high >= 500_000, JSON.stringify(more));
  });

  it('falls back past the work allowed to Cantelli’s bound, wider, within the sums possible', async () => {
    const band = await payoutBand([{ table: RAIN_DIAMONDS_TABLE, units: 1_000_000 }]);
    assert.equal(band.method, 'cantelli');
    assert.ok(band.low < band.expected && band.expected < band.high);
    assert.ok(band.low >= 0 && band.high <= 51_375_000, JSON.stringify(band));
  });

  it('lets the event loop run while it computes a large band', async () => {
    let turns = 0;
    const ticking = setInterval(() => turns++, 1);
    try {
      await payoutBand([{ table: RAIN_DIAMONDS_TABLE, units: 900 }]);
    } finally {
      clearInterval(ticking);
    }
    assert.ok(turns >= 5, `${turns} turns of the event loop`);
  });
});
