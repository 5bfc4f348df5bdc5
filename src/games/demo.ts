import type { Choose } from './types';

/** A copy of `list` in an order drawn with `choose` (Fisher–Yates). */
export function shuffled<T>(list: readonly T[], choose: Choose): T[] {
  const out = list.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = choose(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
