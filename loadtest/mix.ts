import { findPrizeTable, stakesOf } from '../src/games/prize-tables';
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

/**
 * The echo baseline's stand-in for the game's rules. The echo cannot know when a reveal ends, so
 * its players would send every action of a script where the game server's stop at the reveal's
 * end (a unit a quarter longer: cheap requests the game never gets). Instead, each unit is drawn
 * from the game's prize table as a block deals it and played with the game's own reducer, on a
 * PRNG of its own (the player's choices stay those of the game run), and the player sends the
 * actions up to the end of that reveal: as many requests a unit as against the game server.
 */
export class RevealLengths {
  private readonly random: Choices;

  constructor(seed: number) {
    this.random = new Choices(seed);
  }

  /** The actions of `script` up to the end of the reveal of the units bought with `picks` (none: it ended at purchase). */
  untilEnd(game: GameId, stake: number, picks: unknown, script: readonly unknown[]): unknown[] {
    const rules = rulesOf(game);
    const parsed = rules.parsePicks(picks);
    if (!parsed.ok) throw new Error(`${game}: the demo picks were refused (${parsed.code})`);
    let actions = 0;
    for (const pick of parsed.value) {
      const seed = Uint8Array.from({ length: 32 }, () => this.random.choose(256));
      let { state } = rules.start({ stake, prize: this.prize(game, stake) }, seed, pick);
      let taken = 0;
      while (!rules.isFinished(state) && taken < script.length) {
        const action = rules.parseAction(script[taken++]);
        const step = action.ok ? rules.reduce(state, action.value) : action;
        if (step.ok) state = step.state;
      }
      actions = Math.max(actions, rules.isFinished(state) ? taken : script.length);
    }
    return script.slice(0, actions);
  }

  /** A unit's prize as a block deals it: each unit of the printed table equally likely. */
  private prize(game: GameId, stake: number): number {
    const table = findPrizeTable(game, stake);
    if (!table) throw new Error(`${game} is not sold at ${stake}`);
    let position = this.random.choose(table.blockSize);
    for (const tier of table.tiers) {
      if (position < tier.count) return tier.prize;
      position -= tier.count;
    }
    return 0;
  }
}
