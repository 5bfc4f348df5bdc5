import { createHash } from 'node:crypto';
import { RAIN_DIAMONDS_TABLE } from '../../../src/games/rain-diamonds/prize-table';
import type { Colour, RainDiamondsScenario } from '../../../src/games/rain-diamonds';

/** A 32-byte seed made from a label (tests only). */
export function seedOf(label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(label).digest());
}

/** Every prize the game can deal, losses first. */
export const PRIZES: readonly number[] = [0, ...RAIN_DIAMONDS_TABLE.tiers.map((t) => t.prize)];
export const STAKE = RAIN_DIAMONDS_TABLE.stake;

/** A scenario from columns written top to bottom as space-separated colours. */
export function scenarioOf(grid: string[], queues: string[], boxes: string): RainDiamondsScenario {
  const words = (s: string) => s.split(' ').filter((w) => w !== '') as Colour[];
  return { grid: grid.map(words), queues: queues.map(words), boxes: words(boxes) };
}
