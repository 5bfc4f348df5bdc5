import type { Choose } from '../types';
import { COLOURS, MAX_UNITS_PER_PURCHASE, RUB_DONE, SYMBOLS, type LampAction, type LampChoice } from './scenario';

/** One unit: a colour or a symbol; two: a colour and a symbol (the raw list `parsePicks` takes). */
export function demoPicks(choose: Choose, units: number): LampChoice[] {
  const colour: LampChoice = { kind: 'colour', choice: COLOURS[choose(COLOURS.length)]! };
  const symbol: LampChoice = { kind: 'symbol', choice: SYMBOLS[choose(SYMBOLS.length)]! };
  if (units >= MAX_UNITS_PER_PURCHASE) return [colour, symbol];
  return [choose(2) === 0 ? colour : symbol];
}

/** A person rubs the lamp open in four strokes (a quarter each), or presses AUTO. */
export function demoScript(_choose: Choose, { auto }: { readonly auto: boolean }): LampAction[] {
  if (auto) return [{ type: 'auto' }];
  return [1, 2, 3, 4].map((quarter) => ({ type: 'rub', progress: (RUB_DONE * quarter) / 4 }));
}
