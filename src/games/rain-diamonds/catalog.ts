import type { CatalogSymbol } from '../../protocol/catalog';
import { describeGame, labels } from '../catalog-words';
import { RAIN_DIAMONDS_TABLE } from './prize-table';
import { BOXES, COLOURS, PRIZE_BY_COLOUR, TO_WIN, type Colour } from './scenario';

/** The gems as article 4.6 names them ("pierre précieuse bleue"…). */
const GEM_LABELS = labels<Colour>({
  fr: {
    blue: 'pierre précieuse bleue',
    green: 'pierre précieuse verte',
    red: 'pierre précieuse rouge',
    violet: 'pierre précieuse violette',
    yellow: 'pierre précieuse jaune',
    orange: 'pierre précieuse orange',
    white: 'pierre précieuse blanche',
  },
  en: { blue: 'blue gem', green: 'green gem', red: 'red gem', violet: 'violet gem', yellow: 'yellow gem', orange: 'orange gem', white: 'white gem' },
});

const SYMBOLS: CatalogSymbol[] = COLOURS.map((colour) => ({
  id: colour,
  label: GEM_LABELS[colour],
  worth: { count: TO_WIN, prizes: [{ stake: RAIN_DIAMONDS_TABLE.stake, prize: PRIZE_BY_COLOUR[colour] }] },
}));

export const rainDiamondsCatalog = describeGame({
  id: 'rain-diamonds',
  name: 'RAIN DIAMONDS',
  description: {
    fr: 'Une grille de 20 pierres précieuses et 5 cases « Vos symboles » : collectez 6 pierres de la même couleur.',
    en: 'A grid of 20 gems and 5 "Your symbols" boxes: collect 6 gems of one colour.',
  },
  rules: [
    {
      fr: 'La grille de 20 pierres précieuses est visible dès l’achat ; les 5 cases « Vos symboles » sont fermées.',
      en: 'The grid of 20 gems shows from the purchase; the 5 "Your symbols" boxes are closed.',
    },
    {
      fr: 'Chaque case ouverte montre une pierre : toutes les pierres de cette couleur présentes dans la grille sont collectées, celles du dessus tombent et de nouvelles entrent par le haut.',
      en: 'Each opened box shows a gem: every gem of that colour in the grid is collected, the gems above fall and new ones enter from the top.',
    },
    {
      fr: 'Seules les pierres présentes dans la grille à l’ouverture d’une case sont collectées. AUTO ouvre toutes les cases restantes.',
      en: 'Only the gems in the grid when a box opens are collected. AUTO opens every box left.',
    },
    {
      fr: 'Après les 5 cases, 6 pierres identiques collectées gagnent la somme de leur couleur ; sinon l’unité est perdante.',
      en: 'After the 5 boxes, 6 identical gems collected win their colour’s prize; otherwise the unit loses.',
    },
  ],
  symbols: SYMBOLS,
  purchase: { picks: [], minUnits: 1, maxUnits: 1 },
  revealChoices: [],
  actions: [
    {
      type: 'open',
      label: { fr: 'Ouvrir une case', en: 'Open a box' },
      fields: [{ name: 'box', kind: 'integer', min: 0, max: BOXES - 1 }],
    },
    { type: 'auto', label: { fr: 'AUTO', en: 'AUTO' }, fields: [] },
  ],
  order: {
    fr: `« open » une fois par case (${BOXES} cases, dans n’importe quel ordre), ou « auto » à tout moment ; la révélation se termine à la ${BOXES}e case.`,
    en: `"open" once per box (${BOXES} boxes, in any order), or "auto" at any time; the reveal ends with the ${BOXES}th box.`,
  },
  opening: {
    fr: 'La grille de 20 pierres (événement « grid_shown ») ; les cases sont fermées.',
    en: 'The grid of 20 gems (event "grid_shown"); the boxes are closed.',
  },
});
