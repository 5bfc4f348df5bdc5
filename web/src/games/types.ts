import type { GameCatalogEntry } from '../../../src/protocol/catalog';
import type { GameEvent } from '../../../src/protocol/recall';
import type { Strings } from '../i18n';
import type { UnitView } from '../table';

/** What every game's screen is drawn from: the units and their events shown so far. */
export interface GameViewProps {
  readonly s: Strings;
  /** Each unit's events cut to what the page has played so far (AUTO is paced). */
  readonly units: readonly UnitView[];
  /** Spectators and recalls: nothing to click. */
  readonly readOnly: boolean;
  /** Sends an action for every unfinished unit on the table. */
  readonly act: (action: unknown) => void;
  /** The lamp: rubs every unit to `progress` %. */
  readonly rub: (progress: number) => void;
  /** The game's catalog entry (what each symbol pays), once the page has it. */
  readonly game?: GameCatalogEntry | undefined;
  /**
   * The player's own ticket played by hand (Mine d'or, Le Noël): the cells shown come under
   * silver until scratched, tapped or opened with Enter. Absent for spectators, recalls, a
   * reveal put back on the table and after AUTO: everything shows at once.
   */
  readonly scratch?: Scratching | undefined;
}

export interface Scratching {
  /** The cells scratched so far, by the game's keys (`GameScreen.coverable`). */
  readonly uncovered: ReadonlySet<number>;
  readonly uncover: (keys: readonly number[]) => void;
}

export function finishedPrize(events: readonly GameEvent[]): number | undefined {
  const end = events.find((e) => e.type === 'finished');
  return end ? (end['prize'] as number) : undefined;
}
