/**
 * The feed's prizes left as changes (docs/server.md, "The feed room"): a spectator gets the whole
 * list on joining (`prizes_left`), then only the counts that moved (`prizes_changed`), a flat
 * list of `[block index, tier index, left]` triples into the list it holds. The whole list was
 * ~2.8 KB to every feed spectator every second under play; the counts that move in a second
 * are a few dozen bytes. Pure and framework-free: the feed room writes the changes, the page
 * applies them.
 */

import type { PrizesLeft, TierLeft } from './feed';

/** What the changes need to know of the prizes left. */
type BlockLeft = Pick<PrizesLeft, 'blockId'> & { readonly tiers: readonly Pick<TierLeft, 'tierId' | 'left'>[] };

/** The counts that moved from `before` to `after`, or undefined when the blocks or tiers differ (send the whole list). */
export function prizeChanges(before: readonly BlockLeft[], after: readonly BlockLeft[]): number[] | undefined {
  if (before.length !== after.length) return undefined;
  const changes: number[] = [];
  for (const [i, block] of after.entries()) {
    const old = before[i]!;
    if (old.blockId !== block.blockId || old.tiers.length !== block.tiers.length) return undefined;
    for (const [j, tier] of block.tiers.entries()) {
      const was = old.tiers[j]!;
      if (was.tierId !== tier.tierId) return undefined;
      if (was.left !== tier.left) changes.push(i, j, tier.left);
    }
  }
  return changes;
}

/** `list` with `changes` applied (a new list; blocks and tiers not named are kept as they were). */
export function applyPrizeChanges<B extends BlockLeft>(list: readonly B[], changes: readonly number[]): B[] {
  const next = list.slice();
  for (let k = 0; k + 2 < changes.length; k += 3) {
    const [i, j, left] = [changes[k]!, changes[k + 1]!, changes[k + 2]!];
    const block = next[i];
    const tier = block?.tiers[j];
    if (!block || !tier) continue;
    const tiers = block.tiers.slice();
    tiers[j] = { ...tier, left };
    next[i] = { ...block, tiers };
  }
  return next;
}
