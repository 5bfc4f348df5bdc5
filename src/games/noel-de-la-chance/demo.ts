import type { Choose } from '../types';
import { GAME_SYMBOLS, type NoelAction } from './scenario';

/**
 * A person chooses a symbol, which reveals the 18 cells: the only action, with or without
 * AUTO (the rules give no AUTO before the choice).
 */
export function demoScript(choose: Choose, _options: { readonly auto: boolean }): NoelAction[] {
  return [{ type: 'pick', symbol: GAME_SYMBOLS[choose(GAME_SYMBOLS.length)]! }];
}
