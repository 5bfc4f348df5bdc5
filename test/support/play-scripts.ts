import type { GameId } from '../../src/games/types';

/**
 * Step-by-step play of each game as a player would click through it: the actions, in order,
 * until the reveal is over (the driver stops at the first `finished`).
 */
export function stepByStep(game: GameId): unknown[] {
  switch (game) {
    case 'rain-diamonds':
      return [3, 1, 4, 0, 2].map((box) => ({ type: 'open', box }));
    case '500000-carats':
      return [{ type: 'reveal_winning' }, ...Array.from({ length: 24 }, (_, index) => ({ type: 'reveal', index }))];
    case 'noel-de-la-chance':
      return [{ type: 'pick', symbol: 'bell' }];
    case 'mine-d-or':
      return [{ type: 'extra' }, { type: 'extra' }, { type: 'extra' }, { type: 'extra' }];
    case 'mysteres-de-la-lampe':
      return [25, 50, 75, 100].map((progress) => ({ type: 'rub', progress }));
  }
}

/**
 * Play with AUTO: one click that reveals everything left. Noël has no AUTO before the pick (the
 * rules make the player choose), and its pick reveals the 18 cells by itself.
 */
export function withAuto(game: GameId): unknown[] {
  return game === 'noel-de-la-chance' ? stepByStep(game) : [{ type: 'auto' }];
}

/** Purchase-time picks of each game (the lamp: a list of one or two). */
export function picksFor(game: GameId): unknown {
  return game === 'mysteres-de-la-lampe' ? [{ kind: 'colour', choice: 'gold' }] : undefined;
}
