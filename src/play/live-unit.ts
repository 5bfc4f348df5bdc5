import type { Sale } from '../dealer/types';
import type { AnyGameRules } from '../games/registry';
import type { PlayedStep } from '../games/replay';

/** A unit being played: its sale and its reveal as rebuilt from the store. */
export interface LiveUnit {
  readonly sale: Sale;
  readonly rules: AnyGameRules;
  readonly state: unknown;
  readonly steps: readonly PlayedStep[];
  readonly finished: boolean;
}

/**
 * A reveal that ended and whose prize this call credited: told once per unit, by the call that
 * credited it. `by` says who ended it: the purchase itself (a reveal that ends at purchase), the
 * player's last action, or the server (an abandoned unit completed, or a credit a crash left
 * undone). Whoever showed the last step to the player publishes it (docs/spectators.md).
 */
export interface EndedReveal {
  readonly unit: LiveUnit;
  readonly by: 'purchase' | 'player' | 'server';
}
