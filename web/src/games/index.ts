import type { ComponentType } from 'preact';
import type { GameEvent } from '../../../src/protocol/recall';
import { euros, type Strings } from '../i18n';
import { Carats, describeCarats } from './carats';
import { Lampe, describeLampe } from './lampe';
import { MineDOr, describeMine } from './mine-d-or';
import { Noel, describeNoel } from './noel';
import { RainDiamonds, describeRain } from './rain-diamonds';
import type { GameViewProps } from './types';

interface GameScreen {
  readonly View: ComponentType<GameViewProps>;
  /** A sentence for screen readers about one event, when it says something. */
  readonly describe: (e: GameEvent, s: Strings) => string | undefined;
  /** Whether AUTO is offered given the events so far. */
  readonly autoOffered: (events: readonly GameEvent[]) => boolean;
}

const always = () => true;

export const SCREENS: Record<string, GameScreen> = {
  'rain-diamonds': { View: RainDiamonds, describe: describeRain, autoOffered: always },
  '500000-carats': { View: Carats, describe: describeCarats, autoOffered: always },
  // The rules make the Noël player choose: no AUTO before the pick, and the pick reveals all.
  'noel-de-la-chance': { View: Noel, describe: describeNoel, autoOffered: () => false },
  'mine-d-or': { View: MineDOr, describe: describeMine, autoOffered: always },
  'mysteres-de-la-lampe': { View: Lampe, describe: describeLampe, autoOffered: always },
};

export function describeEvent(game: string, e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'finished') return (e['prize'] as number) > 0 ? s.won(euros(e['prize'] as number, s)) : s.lost;
  return SCREENS[game]?.describe(e, s);
}
