import { createHash } from 'node:crypto';
import { LAMPE_TABLE } from '../../../src/games/mysteres-de-la-lampe/prize-table';

/** A 32-byte seed made from a label, so every test run uses the same seeds. */
export function seedOf(label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(label).digest());
}

export const STAKE = LAMPE_TABLE.stake;

/** Every prize a unit can be dealt: 0 (losing) then every tier, largest first. */
export const PRIZES: readonly number[] = [0, ...LAMPE_TABLE.tiers.map((t) => t.prize)];
