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
}

export function finishedPrize(events: readonly GameEvent[]): number | undefined {
  const end = events.find((e) => e.type === 'finished');
  return end ? (end['prize'] as number) : undefined;
}
