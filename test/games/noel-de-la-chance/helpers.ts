import { createHash } from 'node:crypto';
import { NOEL_TABLES } from '../../../src/games/noel-de-la-chance/prize-table';
import type { Outcome } from '../../../src/games/types';

/** A 32-byte seed made deterministically from a label (node:crypto is fine in tests). */
export function seedOf(label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(label).digest());
}

/** Every outcome the game can deal: each tier of each table, and a loss at each price. */
export function allOutcomes(): Outcome[] {
  const out: Outcome[] = [];
  for (const table of NOEL_TABLES) {
    for (const tier of table.tiers) out.push({ stake: table.stake, prize: tier.prize });
    out.push({ stake: table.stake, prize: 0 });
  }
  return out;
}
