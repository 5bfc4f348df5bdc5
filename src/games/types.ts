import type { Cents } from '../money';
import type { GameId } from '../protocol/game-ids';
import type { RefusalCode, RefusalMessage } from '../protocol/refusals';

export type { Cents };
export { GAME_IDS, type GameId } from '../protocol/game-ids';

/** One row of a prize table: `count` units of the block win `prize`. */
export interface PrizeTier {
  readonly prize: Cents;
  readonly count: number;
}

/**
 * The exact prize table of one block of a game at one price, as printed in the rules.
 * Tier ids: 0 is a losing unit; tier i (1-based) is `tiers[i - 1]`. Tiers are listed as the
 * rules print them, from the largest prize down. A printed block stores one tier id per unit.
 */
export interface PrizeTable {
  readonly game: GameId;
  readonly stake: Cents;
  readonly blockSize: number;
  readonly tiers: readonly PrizeTier[];
}

/** What a unit is dealt: its price and the prize the block's table gives it (0: losing). */
export interface Outcome {
  readonly stake: Cents;
  readonly prize: Cents;
}

/** A refused action or input: a code of the protocol's table (`action/already_revealed`) and a sentence. */
export interface Refusal extends RefusalMessage {
  readonly ok: false;
}

export function refuse(code: RefusalCode, message: string): Refusal {
  return { ok: false, code, message };
}

/** An untrusted input that may be an action or a pick: an object, not null and not a list. */
export function isRecord(input: unknown): input is Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

/**
 * `parsePicks` of a game that takes no purchase-time picks: only nothing is accepted, and a
 * purchase is one unit without picks.
 */
export function parseNoPicks(game: string, input: unknown): Parsed<readonly undefined[]> {
  if (input === undefined || input === null) return { ok: true, value: [undefined] };
  return refuse('picks/not_allowed', `${game} takes no picks at purchase`);
}

/**
 * Where a demo player's choices come from: an integer in [0, n). The load test passes its
 * seeded PRNG, tests a fixed one; the choices only shape how a unit is played, never its prize.
 */
export type Choose = (n: number) => number;

export type Parsed<T> = { readonly ok: true; readonly value: T } | Refusal;

/** A step of the reveal: the next state and the events to stream, in order. */
export interface Step<State, Event> {
  readonly ok: true;
  readonly state: State;
  readonly events: readonly Event[];
}

/** Every game's events end with this one, once, when the reveal is over. */
export interface FinishedEvent {
  readonly type: 'finished';
  readonly prize: Cents;
}

/**
 * A game's pure rules, the same shape for all five games.
 *
 * Life of a unit: the dealer gives an `Outcome` and a 32-byte seed; the player's picks at
 * purchase (if the game has any) are parsed with `parsePicks`; `start` gives the reveal's first
 * state; each client action is parsed with `parseAction` and applied with `reduce` until
 * `isFinished`. `start` and `reduce` are deterministic, so a recall is `start` + the stored
 * actions. A choice the game takes after purchase (Noël's symbol) is an action, and the
 * scenario is generated when it is made.
 */
export interface GameRules<Picks, Choices, Scenario, State, Action, Event extends { type: string }> {
  readonly id: GameId;
  /**
   * Validate the untrusted picks of one purchase: the picks of each unit it buys, one entry
   * per unit (`[undefined]` for games without picks; the lamp: one or two units).
   */
  parsePicks(input: unknown): Parsed<readonly Picks[]>;
  /**
   * Every value of the player's choices that shape a scenario's look (the lamp's colour or
   * symbol, Noël's symbol; `[undefined]` for games without): for tests and block verification.
   */
  readonly choiceSpace: readonly Choices[];
  /**
   * A scenario presenting exactly `outcome`, reproducible bit for bit from `seed` and
   * `choices`. Choices never change the prize.
   */
  generate(outcome: Outcome, seed: Uint8Array, choices: Choices): Scenario;
  /** The prize the rules give a completed scenario, written from the rules alone. */
  evaluate(scenario: Scenario): Cents;
  /** Every rule the scenario breaks (grid sizes, number lists, counts…); empty when it is valid. */
  ruleViolations(scenario: Scenario): string[];
  /**
   * The reveal's first state, right after purchase, with the events shown at once (the lamp's
   * potential gain, say; often none). The state holds hidden values: never send it.
   */
  start(outcome: Outcome, seed: Uint8Array, picks: Picks): Step<State, Event | FinishedEvent>;
  /** Validate an untrusted client action. */
  parseAction(input: unknown): Parsed<Action>;
  /** Apply one action: the next state and its events, or a refusal that changes nothing. */
  reduce(state: State, action: Action): Step<State, Event | FinishedEvent> | Refusal;
  /**
   * Finish the reveal on the player's behalf (a unit left alone too long): the same events AUTO
   * would give, making any pick the player has not made from the seed. Never refuses; on a
   * finished state it gives no events.
   */
  complete(state: State): Step<State, Event | FinishedEvent>;
  isFinished(state: State): boolean;
  /** The scenario once generated (Noël builds it after the pick), for recall and audit. */
  scenarioOf(state: State): Scenario | undefined;
  /**
   * The picks a demo player sends with a purchase of `units` units (the raw input of
   * `parsePicks`); games that sell one unit per purchase give their only shape.
   */
  demoPicks(choose: Choose, units: number): unknown;
  /**
   * The actions a person sends to play one unit, in order, choosing with `choose` (which box,
   * which symbol); with `auto`, AUTO where the game has it. The reveal may end before the
   * last one (a Mine d'or unit with fewer Extra stages): the player stops at `finished`.
   */
  demoScript(choose: Choose, options: { readonly auto: boolean }): unknown[];
}
