import { Rng, nonceFor } from '../../random/rng';
import type { Cents, Outcome } from '../types';
import {
  CELL_COUNT,
  DECOR_SYMBOLS,
  GAME_SYMBOLS,
  MAX_COUNT,
  MAX_OTHER_GAME_SYMBOL,
  MIN_WINNING_COUNT,
  PRIZE_AT_50_BY_COUNT,
  STAKES,
  isGameSymbol,
  stakeFactor,
  type CellSymbol,
  type GameSymbol,
  type NoelChoices,
  type NoelScenario,
} from './scenario';

/**
 * How a scenario is drawn. The model is the plainest one: each of the 18 cells shows one of the
 * 8 symbols (3 game, 5 decor) uniformly at random, conditioned on what the outcome requires:
 * - a win of k: the selected symbol exactly k times, each other game symbol at most 3 times;
 * - a loss: every game symbol, the selected one included, at most 3 times.
 * So a loss shows 0, 1, 2 or 3 of the selected symbol exactly as often as a neutral draw does
 * (GLI-19 4.5.2: near misses are never chosen), and its count has the same law as the two
 * other symbols' counts: nothing in a losing grid points at the player's choice.
 *
 * Drawing: first the counts of the game symbols from exact precomputed laws, then decor for
 * the remaining cells (uniform among 5), then a shuffle of the 18 positions. Given the counts,
 * this is the same law as the conditioned cell-by-cell draw, without rejection loops.
 *
 * The draw works on roles (selected, first other, second other, decor) and only then names
 * them, so for one seed and outcome every choice gives the same grid up to renaming the game
 * symbols: the choice visibly cannot matter.
 */

const SCENARIO_NONCE = nonceFor('noel-scen');

/** A discrete law as integer cumulative weights, for an unbiased `rng.below(total)` draw. */
interface Law<T> {
  readonly values: readonly T[];
  readonly cumulative: readonly number[];
  readonly total: number;
}

function factorial(n: number): bigint {
  let f = 1n;
  for (let i = 2n; i <= BigInt(n); i++) f *= i;
  return f;
}

/** Multinomial weight of cells split into game-symbol `counts`, the rest decor (5 choices each). */
function weight(cells: number, counts: readonly number[]): bigint {
  const rest = cells - counts.reduce((a, b) => a + b, 0);
  let w = factorial(cells) / factorial(rest) * 5n ** BigInt(rest);
  for (const c of counts) w /= factorial(c);
  return w;
}

/**
 * Exact BigInt weights scaled to integers summing to about 2^31 (so `below` stays in range);
 * every possible value keeps a weight of at least 1. The rounding is below 1e-9 per value.
 */
function lawOf<T>(entries: readonly (readonly [T, bigint])[]): Law<T> {
  const sum = entries.reduce((a, [, w]) => a + w, 0n);
  const scale = 2n ** 31n;
  const values: T[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (const [value, w] of entries) {
    const scaled = Number((w * scale) / sum);
    total += scaled > 0 ? scaled : 1;
    values.push(value);
    cumulative.push(total);
  }
  return { values, cumulative, total };
}

function draw<T>(rng: Rng, law: Law<T>): T {
  const r = rng.below(law.total);
  let i = 0;
  while (law.cumulative[i]! <= r) i++;
  return law.values[i]!;
}

type Counts = readonly [selected: number, otherA: number, otherB: number];
const OTHER_MAX = MAX_OTHER_GAME_SYMBOL;

/** Law of the three game-symbol counts of a losing unit: each 0–3, over all 18 cells. */
const LOSS_LAW: Law<Counts> = (() => {
  const entries: [Counts, bigint][] = [];
  for (let s = 0; s < MIN_WINNING_COUNT; s++)
    for (let a = 0; a <= OTHER_MAX; a++)
      for (let b = 0; b <= OTHER_MAX; b++) entries.push([[s, a, b], weight(CELL_COUNT, [s, a, b])]);
  return lawOf(entries);
})();

/** For a win of k (index k), the law of the two other counts over the 18 - k other cells. */
const WIN_LAWS: readonly (Law<Counts> | undefined)[] = (() => {
  const laws: (Law<Counts> | undefined)[] = [];
  for (let k = 0; k <= MAX_COUNT; k++) {
    if (k < MIN_WINNING_COUNT) {
      laws.push(undefined);
      continue;
    }
    const entries: [Counts, bigint][] = [];
    for (let a = 0; a <= OTHER_MAX; a++)
      for (let b = 0; b <= OTHER_MAX; b++) entries.push([[k, a, b], weight(CELL_COUNT - k, [a, b])]);
    laws.push(lawOf(entries));
  }
  return laws;
})();

/** For each stake, the count that presents each prize (inverse of the rules' prize column). */
const COUNT_BY_PRIZE: ReadonlyMap<Cents, ReadonlyMap<Cents, number>> = (() => {
  const byStake = new Map<Cents, Map<Cents, number>>();
  for (const stake of STAKES) {
    const factor = stakeFactor(stake)!;
    const m = new Map<Cents, number>();
    for (let k = MIN_WINNING_COUNT; k <= MAX_COUNT; k++) m.set(PRIZE_AT_50_BY_COUNT[k]! * factor, k);
    byStake.set(stake, m);
  }
  return byStake;
})();

/** The other two game symbols for each selected one, in GAME_SYMBOLS order. */
const OTHERS: ReadonlyMap<GameSymbol, readonly GameSymbol[]> = new Map(
  GAME_SYMBOLS.map((g) => [g, GAME_SYMBOLS.filter((o) => o !== g)]),
);

/**
 * How many cells show the selected symbol for this outcome: k for a win, undefined for a loss.
 * Throws for an outcome the game cannot present (a programmer error upstream).
 */
export function winningCountOf(outcome: Outcome): number | undefined {
  const byPrize = COUNT_BY_PRIZE.get(outcome.stake);
  if (!byPrize) throw new Error(`noel-de-la-chance is not sold at stake ${outcome.stake}`);
  if (outcome.prize === 0) return undefined;
  const k = byPrize.get(outcome.prize);
  if (k === undefined) throw new Error(`noel-de-la-chance at stake ${outcome.stake} has no prize ${outcome.prize}`);
  return k;
}

export function generate(outcome: Outcome, seed: Uint8Array, choices: NoelChoices): NoelScenario {
  const k = winningCountOf(outcome);
  const symbol = choices.symbol;
  if (!isGameSymbol(symbol)) throw new Error(`noel-de-la-chance: unknown game symbol ${String(symbol)}`);
  const rng = new Rng(seed, SCENARIO_NONCE);
  const [s, a, b] = draw(rng, k === undefined ? LOSS_LAW : WIN_LAWS[k]!);
  const [otherA, otherB] = OTHERS.get(symbol)! as [GameSymbol, GameSymbol];
  const cells = new Array<CellSymbol>(CELL_COUNT);
  let i = 0;
  for (let n = 0; n < s; n++) cells[i++] = symbol;
  for (let n = 0; n < a; n++) cells[i++] = otherA;
  for (let n = 0; n < b; n++) cells[i++] = otherB;
  while (i < CELL_COUNT) cells[i++] = DECOR_SYMBOLS[rng.below(DECOR_SYMBOLS.length)]!;
  rng.shuffle(cells);
  return { stake: outcome.stake, symbol, cells };
}
