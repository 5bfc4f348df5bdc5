import { fromHex } from '../random/hex';
import { findPrizeTable, prizeOfTier } from './prize-tables';
import { rulesOf } from './registry';
import { replay, type LoggedAction } from './replay';
import { encodeStep, type StepBy } from './step-codec';
import type { Cents, GameId } from './types';

/**
 * The games' test vectors (docs/games/README.md, "Test vectors"): a unit fixed by its deal (game,
 * price, tier, unit seed, picks) and its player's actions, and everything the rules make of it:
 * the scenario, every step's events as the page receives them, the prize. Pure, so that the
 * script writing docs/games/vectors/ and the test reading them play a vector the same way.
 */

export const VECTORS_FORMAT = 'game-vectors/v1';

/** One logged action without its time: the player's (parsed), or the server finishing the unit (`SERVER_COMPLETE`). */
export type VectorAction = Omit<LoggedAction, 'at'>;

/** What a vector fixes before play. */
export interface VectorDeal {
  readonly game: GameId;
  readonly stake: Cents;
  /** The printed tier: 0 losing, i the table's i-th tier (docs/fairness.md §3). */
  readonly tierId: number;
  /** The unit seed, 64 hex digits. */
  readonly unitSeed: string;
  /** The picks sent with the purchase, as `buy` takes them (the lamp: a list of one or two); null for none. */
  readonly purchasePicks: unknown;
  /** Which unit of the purchase this is: 0, or 1 for the second unit of a lamp pair (it takes the second pick). */
  readonly unit: number;
  readonly actions: readonly VectorAction[];
}

/** One step as the recall lists it (without its time), with its wire text on the table's state. */
export interface VectorStep {
  readonly seq: number;
  readonly by: StepBy;
  readonly action: unknown;
  readonly events: readonly { readonly type: string }[];
  readonly wire: string;
}

/** What the rules make of a deal. */
export interface VectorPlay {
  readonly prize: Cents;
  /** This unit's pick after `parsePicks` (what the recall's `picks` shows); null for none. */
  readonly picks: unknown;
  readonly scenario: unknown;
  readonly steps: readonly VectorStep[];
}

export interface TestVector extends VectorDeal, VectorPlay {
  /** What the vector covers, in words. */
  readonly case: string;
  /** Its position in the test block its unit seed is derived from. */
  readonly position: number;
}

export interface VectorFile {
  readonly format: typeof VECTORS_FORMAT;
  readonly game: GameId;
  /** The test block's seed: `unitSeed = HMAC-SHA256(blockSeed, "unit-seed/v1/<position>")` (docs/fairness.md §8). */
  readonly blockSeed: string;
  readonly vectors: readonly TestVector[];
}

/**
 * Plays a deal through the game's rules with the server's own `replay` (start, then each logged
 * action; `server_complete` is `complete`) and returns what it showed. Throws on a deal the
 * table does not have, a refused action, or a unit left unfinished: a vector is a finished unit.
 */
export function playVector(deal: VectorDeal): VectorPlay {
  const table = findPrizeTable(deal.game, deal.stake);
  if (!table) throw new RangeError(`${deal.game} is not sold at ${deal.stake} cents`);
  const rules = rulesOf(deal.game);
  const prize = prizeOfTier(table, deal.tierId);
  const parsed = rules.parsePicks(deal.purchasePicks ?? undefined);
  if (!parsed.ok) throw new Error(`picks refused: ${parsed.code}`);
  if (!(deal.unit in parsed.value)) throw new RangeError(`the purchase has no unit ${deal.unit}`);
  const picks = parsed.value[deal.unit];
  const log = deal.actions.map(({ by, action }) => ({ by, action, at: 0 }));
  const played = replay(rules, { stake: deal.stake, prize }, fromHex(deal.unitSeed), picks, 0, log);
  if (!played.finished) throw new Error(`the unit is not finished after ${deal.actions.length} actions`);
  const steps = played.steps.map(({ seq, by, action, events }) => ({ seq, by, action, events, wire: encodeStep(by, events) }));
  return { prize, picks: picks ?? null, scenario: rules.scenarioOf(played.state), steps };
}
