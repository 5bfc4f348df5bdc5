import { describeGame, labels, options } from '../catalog-words';
import { COLOURS, MAX_UNITS_PER_PURCHASE, RUB_DONE, SYMBOLS, type LampColour, type LampSymbol } from './scenario';

/** Colours and symbols: the règlement does not name them, these names are the project's. */
const COLOUR_LABELS = labels<LampColour>({
  fr: { red: 'rouge', blue: 'bleu', green: 'vert', gold: 'or' },
  en: { red: 'red', blue: 'blue', green: 'green', gold: 'gold' },
});
const SYMBOL_LABELS = labels<LampSymbol>({
  fr: { star: 'étoile', moon: 'lune', sun: 'soleil', key: 'clé' },
  en: { star: 'star', moon: 'moon', sun: 'sun', key: 'key' },
});

const colourOptions = options(COLOURS, COLOUR_LABELS);
const symbolOptions = options(SYMBOLS, SYMBOL_LABELS);

export const lampeCatalog = describeGame({
  id: 'mysteres-de-la-lampe',
  name: 'Les mystères de la lampe',
  description: {
    fr: 'Choisissez une couleur, un symbole ou les deux, puis frottez la lampe : si elle révèle votre choix, vous gagnez le gain affiché.',
    en: 'Choose a colour, a symbol or both, then rub the lamp: if it reveals your choice, you win the gain shown.',
  },
  rules: [
    {
      fr: '« Votre couleur » et « Votre symbole » sont deux unités de jeu : le joueur en prend une, ou les deux à la fois (une couleur et un symbole).',
      en: '"Your colour" and "Your symbol" are two units: the player takes one, or both at once (one colour and one symbol).',
    },
    {
      fr: 'Après l’achat, le gain potentiel de chaque choix s’affiche.',
      en: 'After paying, the potential gain of each choice shows.',
    },
    {
      fr: 'Le joueur frotte la lampe, qui révèle la couleur (le symbole) gagnante ; identique au choix, l’unité gagne son gain potentiel, sinon elle est perdante.',
      en: 'The player rubs the lamp, which reveals the winning colour (symbol); equal to the choice, the unit wins its potential gain, otherwise it loses.',
    },
  ],
  symbols: [...colourOptions, ...symbolOptions],
  purchase: {
    picks: [
      { id: 'colour', label: { fr: 'Votre couleur', en: 'Your colour' }, options: colourOptions },
      { id: 'symbol', label: { fr: 'Votre symbole', en: 'Your symbol' }, options: symbolOptions },
    ],
    minUnits: 1,
    maxUnits: MAX_UNITS_PER_PURCHASE,
  },
  revealChoices: [],
  actions: [
    {
      type: 'rub',
      label: { fr: 'Frotter la lampe', en: 'Rub the lamp' },
      fields: [{ name: 'progress', kind: 'integer', min: 1, max: RUB_DONE }],
    },
    { type: 'auto', label: { fr: 'AUTO', en: 'AUTO' }, fields: [] },
  ],
  order: {
    fr: `« rub » avec une progression croissante (en %), ou « auto » ; la lampe s’ouvre à ${RUB_DONE} % et la révélation se termine.`,
    en: `"rub" with an increasing progress (in %), or "auto"; the lamp opens at ${RUB_DONE} % and the reveal ends.`,
  },
  opening: {
    fr: 'Le choix du joueur et son gain potentiel (événement « potential_gain_shown »), pour chaque unité achetée.',
    en: 'The player’s pick and its potential gain (event "potential_gain_shown"), for each unit bought.',
  },
});
