import { shuffled } from '../demo';
import type { Choose } from '../types';
import { BOXES, type RainDiamondsAction } from './scenario';

/** A person opens the five boxes in an order of their own, or presses AUTO. */
export function demoScript(choose: Choose, { auto }: { readonly auto: boolean }): RainDiamondsAction[] {
  if (auto) return [{ type: 'auto' }];
  const boxes = Array.from({ length: BOXES }, (_, box) => box);
  return shuffled(boxes, choose).map((box) => ({ type: 'open', box }));
}
