import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { generate } from '../../../src/games/noel-de-la-chance/generator';
import type { GameSymbol } from '../../../src/games/noel-de-la-chance/scenario';
import { seedOf } from './helpers';

/**
 * Pinned scenarios: a change to the generator (even one that keeps every rule) shows here.
 * If the change is intended, regenerate with `GOLDEN_WRITE=1` and review the diff.
 */
interface Golden {
  readonly stake: number;
  readonly prize: number;
  readonly seed: string;
  readonly symbol: GameSymbol;
  /** The 3 rows, cells separated by spaces. */
  readonly rows: readonly string[];
}

const FILE = new URL('./golden.json', import.meta.url);

function rowsOf(cells: readonly string[]): string[] {
  return [0, 1, 2].map((r) => cells.slice(r * 6, r * 6 + 6).join(' '));
}

/** The cases pinned: per table the top prize, a middle one, the smallest, and two losses. */
function cases(): Omit<Golden, 'rows'>[] {
  const out: Omit<Golden, 'rows'>[] = [];
  const symbols: GameSymbol[] = ['star', 'bell', 'gift'];
  for (const [stake, f] of [[50, 1], [100, 2], [200, 4]] as const) {
    const prizes = [250_000 * f, 1_000 * f, 50 * f, 0, 0];
    prizes.forEach((prize, i) => {
      out.push({ stake, prize, seed: `golden ${stake} ${i}`, symbol: symbols[(i + stake / 50) % 3]! });
    });
  }
  return out;
}

describe('noel-de-la-chance golden scenarios', () => {
  it('generates exactly the pinned scenarios of every table', () => {
    const actual: Golden[] = cases().map((c) => ({
      ...c,
      rows: rowsOf(generate({ stake: c.stake, prize: c.prize }, seedOf(c.seed), { symbol: c.symbol }).cells),
    }));
    if (process.env.GOLDEN_WRITE === '1') {
      writeFileSync(FILE, JSON.stringify(actual, null, 2) + '\n');
      return;
    }
    assert.deepEqual(actual, JSON.parse(readFileSync(FILE, 'utf8')));
  });
});
