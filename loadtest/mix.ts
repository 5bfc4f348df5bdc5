import { stakesOf } from '../src/games/prize-tables';
import { rulesOf } from '../src/games/registry';
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

  /** An integer in [0, n): the games' demo players choose with it. */
  readonly choose = (n: number): number => Math.floor(this.next() * n);

  /** Purchase-time picks: the lamp takes one pick, or both kinds at once (`lampBothShare`). */
  picks(game: GameId, lampBothShare: number): unknown {
    const units = game === 'mysteres-de-la-lampe' && this.chance(lampBothShare) ? 2 : 1;
    return rulesOf(game).demoPicks(this.choose, units);
  }

  /** The actions of one unit, in order (the game's demo player); the player stops at the end of the reveal. */
  script(game: GameId, auto: boolean): unknown[] {
    return rulesOf(game).demoScript(this.choose, { auto });
  }
}
