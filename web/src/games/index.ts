import type { ComponentType } from 'preact';
import type { GameCatalogEntry } from '../../../src/protocol/catalog';
import type { GameEvent } from '../../../src/protocol/recall';
import { euros, type Strings } from '../i18n';
import { Carats, describeCarats, missingCarats } from './carats';
import { Lampe, describeLampe, missingLampe } from './lampe';
import { MineDOr, coverableMine, describeMine, missingMine } from './mine-d-or';
import { Noel, coverableNoel, describeNoel, missingNoel } from './noel';
import { RainDiamonds, describeRain, missingRain } from './rain-diamonds';
import type { GameViewProps } from './types';

interface GameScreen {
  readonly View: ComponentType<GameViewProps>;
  /** A sentence for screen readers about one event, when it says something. */
  readonly describe: (e: GameEvent, s: Strings) => string | undefined;
  /** Whether AUTO is offered given the events so far; absent: the game has no AUTO. */
  readonly autoOffered?: (events: readonly GameEvent[]) => boolean;
  /** The règlement offers a buy-and-reveal button (« Auto » beside « Jouer »). */
  readonly autoAtPurchase?: boolean;
  /** A lost unit: what was missing, from its events and the catalog. */
  readonly missing: (events: readonly GameEvent[], s: Strings, game: GameCatalogEntry | undefined) => string | undefined;
  /**
   * A game whose cells the page keeps under silver (`GameViewProps.scratch`): the keys of the
   * cells shown so far that come under it. The outcome waits until all are scratched.
   */
  readonly coverable?: (events: readonly GameEvent[]) => number[];
}

const always = () => true;

export const SCREENS: Record<string, GameScreen> = {
  'rain-diamonds': { View: RainDiamonds, describe: describeRain, autoOffered: always, missing: missingRain },
  '500000-carats': { View: Carats, describe: describeCarats, autoOffered: always, autoAtPurchase: true, missing: missingCarats },
  // The rules make the Noël player choose: no AUTO before the pick, and the pick reveals all.
  'noel-de-la-chance': { View: Noel, describe: describeNoel, missing: missingNoel, coverable: coverableNoel },
  'mine-d-or': { View: MineDOr, describe: describeMine, autoOffered: always, missing: missingMine, coverable: coverableMine },
  'mysteres-de-la-lampe': { View: Lampe, describe: describeLampe, autoOffered: always, missing: missingLampe },
};

export function describeEvent(game: string, e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'finished') return (e['prize'] as number) > 0 ? s.won(euros(e['prize'] as number, s)) : s.lost;
  return SCREENS[game]?.describe(e, s);
}

/** What the live region says: the last event shown that says something (it stays until the next one does). */
export function announcement(game: string, units: readonly { events: readonly GameEvent[] }[], s: Strings): string {
  const events = units.flatMap((u) => u.events);
  for (let i = events.length - 1; i >= 0; i--) {
    const said = describeEvent(game, events[i]!, s);
    if (said) return said;
  }
  return '';
}
