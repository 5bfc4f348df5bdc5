import { createHash } from 'node:crypto';
import { CARATS_TABLE } from '../../../src/games/500000-carats';
import type { CaratsScenario } from '../../../src/games/500000-carats';
import type { Outcome } from '../../../src/games/types';

/** A 32-byte seed made from a label, so tests are deterministic and readable. */
export function seedOf(label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(label).digest());
}

/** Every prize the game can deal, from the largest down, then 0 (a losing unit). */
export const PRIZES: readonly number[] = [...CARATS_TABLE.tiers.map((t) => t.prize), 0];

export function outcomeOf(prize: number): Outcome {
  return { stake: CARATS_TABLE.stake, prize };
}

/** A valid losing scenario to break by hand: 1 2 3 4 6 7 win, 8..33 (no 10, 15) play, 5 € each. */
export function handScenario(): { winning: number[]; numbers: number[]; amounts: number[] } {
  const numbers = [8, 9, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33];
  return { winning: [1, 2, 3, 4, 6, 7], numbers, amounts: numbers.map(() => 500) };
}

/** How many of "Vos numéros" match a winning number. */
export function matchCount(s: CaratsScenario): number {
  return s.numbers.filter((n) => s.winning.includes(n)).length;
}
