import type { Cents } from '../../money';
import { CARATS_AMOUNTS, WINNING_COUNT } from './rules';
import { CARATS_TABLE } from './prize-table';

/**
 * How a prize may be shown as a sum of matches (article 4.4: the amounts of several matched
 * numbers add up to one prize). Settled in docs/games/500000-carats.md: the amounts are the table's amounts,
 * and there are at most 6 matches since there are 6 winning numbers. Computed once at module
 * load so that the generator only indexes typed arrays.
 */
export interface SplitGroup {
  /** Number of matches. */
  readonly size: number;
  /** Number of distinct splits (multisets) of this size. */
  readonly count: number;
  /** `count` splits, `size` amounts each, each split largest amount first. */
  readonly parts: Int32Array;
}

function splitsOf(prize: Cents): SplitGroup[] {
  const bySize: number[][] = Array.from({ length: WINNING_COUNT + 1 }, () => []);
  const desc = [...CARATS_AMOUNTS].sort((a, b) => b - a);
  const current: number[] = [];
  // Multisets as non-increasing sequences, so each appears once.
  const walk = (rest: Cents, from: number): void => {
    if (rest === 0) {
      bySize[current.length]!.push(...current);
      return;
    }
    if (current.length === WINNING_COUNT) return;
    for (let i = from; i < desc.length; i++) {
      const a = desc[i]!;
      if (a > rest) continue;
      current.push(a);
      walk(rest - a, i);
      current.pop();
    }
  };
  walk(prize, 0);
  const groups: SplitGroup[] = [];
  for (let size = 1; size <= WINNING_COUNT; size++) {
    const flat = bySize[size]!;
    if (flat.length > 0) groups.push({ size, count: flat.length / size, parts: Int32Array.from(flat) });
  }
  return groups;
}

/** Every prize of the table -> its splits, grouped by number of matches (fewest first). */
export const CARATS_SPLITS: ReadonlyMap<Cents, readonly SplitGroup[]> = new Map(
  CARATS_TABLE.tiers.map((t) => [t.prize, splitsOf(t.prize)] as const),
);
