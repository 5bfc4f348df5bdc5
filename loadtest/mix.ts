import { stakesOf } from '../src/games/prize-tables';
import { GAME_IDS, type GameId } from '../src/games/types';

/**
 * What synthetic players choose: games, prices, picks, step-by-step or AUTO, and think times,
 * from a small seeded PRNG (mulberry32) per player, so that a run can be repeated.
 */

export class Choices {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A think time around `meanMs`: uniform in [mean/2, 3·mean/2]; 0 stays 0. */
  think(meanMs: number): number {
    return meanMs <= 0 ? 0 : meanMs * (0.5 + this.next());
  }

  game(except?: GameId): GameId {
    const games = except ? GAME_IDS.filter((g) => g !== except) : GAME_IDS;
    return this.pick(games);
  }

  stake(game: GameId): number {
    return this.pick(stakesOf(game));
  }

  /** Purchase-time picks: the lamp takes one pick, or both kinds at once. */
  picks(game: GameId, lampBothShare: number): unknown {
    if (game !== 'mysteres-de-la-lampe') return undefined;
    const colour = { kind: 'colour', choice: this.pick(['red', 'blue', 'green', 'gold']) };
    const symbol = { kind: 'symbol', choice: this.pick(['star', 'moon', 'sun', 'key']) };
    if (this.chance(lampBothShare)) return [colour, symbol];
    return [this.chance(0.5) ? colour : symbol];
  }

  /** The actions of one unit, in order; the player stops at the end of the reveal. */
  script(game: GameId, auto: boolean): unknown[] {
    const noelPick = () => ({ type: 'pick', symbol: this.pick(['star', 'bell', 'gift']) });
    // Noël has no AUTO before the pick: the pick reveals the 18 cells by itself.
    if (game === 'noel-de-la-chance') return [noelPick()];
    if (auto) return [{ type: 'auto' }];
    switch (game) {
      case 'rain-diamonds':
        return shuffle([0, 1, 2, 3, 4], this).map((box) => ({ type: 'open', box }));
      case '500000-carats':
        return [{ type: 'reveal_winning' }, ...shuffle(Array.from({ length: 24 }, (_, i) => i), this).map((index) => ({ type: 'reveal', index }))];
      case 'mine-d-or':
        return [{ type: 'extra' }, { type: 'extra' }, { type: 'extra' }, { type: 'extra' }];
      case 'mysteres-de-la-lampe':
        return [25, 50, 75, 100].map((progress) => ({ type: 'rub', progress }));
    }
  }
}

function shuffle<T>(list: T[], rng: Choices): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}
