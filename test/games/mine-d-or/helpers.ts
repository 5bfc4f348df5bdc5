import { createHash } from 'node:crypto';
import { MINE_D_OR_TABLES } from '../../../src/games/mine-d-or/prize-table';
import type { Outcome } from '../../../src/games/types';

/** A 32-byte seed derived from a label, so tests are deterministic and seeds look random. */
export function seedOf(label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(label).digest());
}

/** Every outcome a Mine d'or unit can be dealt: each tier of each table, and a loss per price. */
export function allOutcomes(): Outcome[] {
  return MINE_D_OR_TABLES.flatMap((t) => [
    ...t.tiers.map((tier) => ({ stake: t.stake, prize: tier.prize })),
    { stake: t.stake, prize: 0 },
  ]);
}

export function euros(cents: number): string {
  return `${(cents / 100).toFixed(2)} €`;
}
