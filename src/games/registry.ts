import { caratsRules } from './500000-carats';
import { mineDOrRules } from './mine-d-or';
import { lampeRules } from './mysteres-de-la-lampe';
import { noelRules } from './noel-de-la-chance';
import { rainDiamondsRules } from './rain-diamonds';
import type { GameId, GameRules } from './types';

/** Any game's rules, seen from code that serves all five (rooms, recall, verification). */
// Method syntax in GameRules makes its parameters bivariant, so every game fits this type.
export type AnyGameRules = GameRules<unknown, unknown, unknown, unknown, unknown, { type: string }>;

const RULES: Record<GameId, AnyGameRules> = {
  'rain-diamonds': rainDiamondsRules,
  '500000-carats': caratsRules,
  'noel-de-la-chance': noelRules,
  'mine-d-or': mineDOrRules,
  'mysteres-de-la-lampe': lampeRules,
};

export function rulesOf(game: GameId): AnyGameRules {
  return RULES[game];
}
