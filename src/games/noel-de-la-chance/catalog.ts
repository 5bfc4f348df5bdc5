import { describeGame, labels, options } from '../catalog-words';
import {
  CELL_COUNT,
  CELL_SYMBOLS,
  GAME_SYMBOLS,
  MAX_COUNT,
  MIN_WINNING_COUNT,
  PRIZE_AT_50_BY_COUNT,
  STAKES,
  stakeFactor,
  type CellSymbol,
} from './scenario';

/** The règlement does not name the symbols: these names are the project's. */
const LABELS = labels<CellSymbol>({
  fr: { star: 'étoile', bell: 'cloche', gift: 'cadeau', holly: 'houx', candle: 'bougie', snowflake: 'flocon', bauble: 'boule', sleigh: 'traîneau' },
  en: { star: 'star', bell: 'bell', gift: 'gift', holly: 'holly', candle: 'candle', snowflake: 'snowflake', bauble: 'bauble', sleigh: 'sleigh' },
});

const COUNTS = Array.from({ length: MAX_COUNT - MIN_WINNING_COUNT + 1 }, (_, i) => MAX_COUNT - i);

export const noelCatalog = describeGame({
  id: 'noel-de-la-chance',
  name: 'Le Noël de la chance',
  description: {
    fr: `Choisissez votre symbole de jeu parmi trois, puis ${CELL_COUNT} cases se découvrent : ${MIN_WINNING_COUNT} fois votre symbole ou plus, c’est gagné.`,
    en: `Choose your game symbol among three, then ${CELL_COUNT} cells uncover themselves: your symbol ${MIN_WINNING_COUNT} times or more wins.`,
  },
  rules: [
    {
      fr: 'Après l’achat, le joueur doit choisir son symbole de jeu parmi les trois proposés ; ce choix ne change pas le résultat.',
      en: 'After paying, the player must choose a game symbol among the three offered; the choice does not change the result.',
    },
    {
      fr: `Les ${CELL_COUNT} cases (3 lignes de 6) se découvrent alors d’elles-mêmes.`,
      en: `The ${CELL_COUNT} cells (3 rows of 6) then uncover themselves.`,
    },
    {
      fr: `De ${MIN_WINNING_COUNT} à ${MAX_COUNT} symboles identiques au symbole choisi gagnent la somme du tableau ; sinon l’unité est perdante.`,
      en: `${MIN_WINNING_COUNT} to ${MAX_COUNT} symbols equal to the chosen one win the table's amount; otherwise the unit loses.`,
    },
  ],
  symbols: options(CELL_SYMBOLS, LABELS),
  paysByCount: COUNTS.map((count) => ({
    count,
    prizes: STAKES.map((stake) => ({ stake, prize: PRIZE_AT_50_BY_COUNT[count]! * stakeFactor(stake)! })),
  })),
  purchase: { picks: [], minUnits: 1, maxUnits: 1 },
  revealChoices: [
    {
      id: 'symbol',
      label: { fr: 'Votre symbole de jeu', en: 'Your game symbol' },
      options: options(GAME_SYMBOLS, LABELS),
    },
  ],
  actions: [
    {
      type: 'pick',
      label: { fr: 'Choisir son symbole', en: 'Choose the symbol' },
      fields: [{ name: 'symbol', kind: 'choice', choice: 'symbol' }],
    },
  ],
  order: {
    fr: `Un seul geste : « pick » ; les ${CELL_COUNT} cases se découvrent dans la même étape et la révélation se termine. Pas d’AUTO avant le choix.`,
    en: `One action: "pick"; the ${CELL_COUNT} cells uncover in the same step and the reveal ends. No AUTO before the choice.`,
  },
  opening: {
    fr: 'Les trois symboles de jeu proposés (événement « symbols_offered ») ; les cases sont couvertes.',
    en: 'The three game symbols offered (event "symbols_offered"); the cells are covered.',
  },
  coveredOnScreen: true,
});
