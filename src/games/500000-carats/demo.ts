import { shuffled } from '../demo';
import type { Choose } from '../types';
import { NUMBERS_COUNT } from './rules';
import type { CaratsAction } from './scenario';

/** A person uncovers the winning numbers, then the 24 numbers in an order of their own; or AUTO. */
export function demoScript(choose: Choose, { auto }: { readonly auto: boolean }): CaratsAction[] {
  if (auto) return [{ type: 'auto' }];
  const indexes = Array.from({ length: NUMBERS_COUNT }, (_, index) => index);
  return [{ type: 'reveal_winning' }, ...shuffled(indexes, choose).map((index) => ({ type: 'reveal' as const, index }))];
}
