import type { GameId } from './game-ids';
import type { Cents } from './money';

/**
 * The shapes of the game catalog (`GET /games`, and a table's `catalog` on joining): made by
 * src/games/catalog.ts from each game's own words and its prize tables.
 */

/** A text in the two locales. */
export interface Text {
  readonly fr: string;
  readonly en: string;
}

/** What something pays at one price. */
export interface StakePrize {
  readonly stake: Cents;
  readonly prize: Cents;
}

/** One row of a block's prize table; `tierId` is the 1-based index a printed block stores. */
export interface CatalogTier {
  readonly tierId: number;
  readonly prize: Cents;
  readonly count: number;
}

/** A price the game is sold at, with its block's prize table and totals. */
export interface CatalogPrice {
  readonly stake: Cents;
  readonly blockSize: number;
  readonly tiers: readonly CatalogTier[];
  /** Sum of every prize of one block. */
  readonly totalPayout: Cents;
  /** Units of one block that win something. */
  readonly winningUnits: number;
}

/** A symbol the screen shows; `worth`: what `count` of it pay at each price, where the rules say. */
export interface CatalogSymbol {
  readonly id: string;
  readonly label: Text;
  readonly worth?: { readonly count: number; readonly prizes: readonly StakePrize[] };
}

/** One value a player may choose. */
export interface CatalogOption {
  readonly id: string;
  readonly label: Text;
}

/**
 * A choice the player makes. At purchase, its `id` is the pick's `kind` and an option's id
 * its `choice` (the lamp: `{ kind: 'colour', choice: 'red' }`); during the reveal, the action
 * field that names it says which choice it is.
 */
export interface CatalogChoice {
  readonly id: string;
  readonly label: Text;
  readonly options: readonly CatalogOption[];
}

/** A field of an action's payload. */
export type CatalogField =
  | { readonly name: string; readonly kind: 'integer'; readonly min: number; readonly max: number }
  | { readonly name: string; readonly kind: 'integers'; readonly min: number; readonly max: number; readonly maxLength: number }
  | { readonly name: string; readonly kind: 'choice'; readonly choice: string };

/** An action a client sends during the reveal: `{ type, ...fields }`. */
export interface CatalogAction {
  readonly type: string;
  readonly label: Text;
  readonly fields: readonly CatalogField[];
}

/** What a game says about itself; the prices are added from the prize tables. */
export interface GameDescription {
  readonly id: GameId;
  /** The game's name as the règlement writes it. */
  readonly name: string;
  readonly reglement: {
    /** The official title, as the text names itself. */
    readonly title: string;
    /** The copy kept in this repository. */
    readonly file: string;
  };
  /** One sentence. */
  readonly description: Text;
  /** The rules, a few sentences in the project's own words. */
  readonly rules: readonly Text[];
  readonly symbols: readonly CatalogSymbol[];
  /** Prizes by how many of the chosen symbol show (Noël), when the rules pay by count. */
  readonly paysByCount?: readonly { readonly count: number; readonly prizes: readonly StakePrize[] }[];
  /** Choices made before paying; one unit per pick, between `minUnits` and `maxUnits`. */
  readonly purchase: {
    readonly picks: readonly CatalogChoice[];
    readonly minUnits: number;
    readonly maxUnits: number;
  };
  /** Choices made during the reveal (named by an action's `choice` field). */
  readonly revealChoices: readonly CatalogChoice[];
  readonly actions: readonly CatalogAction[];
  /** In which order the actions come, and when the reveal ends. */
  readonly order: Text;
  /** What the player sees right after paying: the events of step 0. */
  readonly opening: Text;
  /**
   * The page draws what the server reveals under silver, for the player to scratch off (Mine
   * d'or's grids, Le Noël's cells): a client sends `uncovered` once the player has seen a step
   * (docs/server.md), and until then the table's watchers and the wins feed see none of it.
   */
  readonly coveredOnScreen?: true;
}

/**
 * The server's pace of a game (docs/responsible-gaming.md, "Pacing"): the operator's settings,
 * never the client's. `unitMs`: the least time between the starts of two units of a player;
 * `stepMs`: the time between two steps of a reveal on screen, when several come at once (AUTO).
 */
export interface GamePace {
  readonly unitMs: number;
  readonly stepMs: number;
}

export interface GameCatalogEntry extends GameDescription {
  readonly prices: readonly CatalogPrice[];
  readonly pace: GamePace;
}
