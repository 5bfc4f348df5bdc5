import type { Choose } from '../types';
import { MAX_EXTRA_STAGES, type MineDOrAction } from './scenario';

/**
 * A person presses EXTRA while stages are left (at most MAX_EXTRA_STAGES; the reveal ends
 * after the last one earned), or AUTO. Nothing to choose.
 */
export function demoScript(_choose: Choose, { auto }: { readonly auto: boolean }): MineDOrAction[] {
  if (auto) return [{ type: 'auto' }];
  return Array.from({ length: MAX_EXTRA_STAGES }, () => ({ type: 'extra' }));
}
