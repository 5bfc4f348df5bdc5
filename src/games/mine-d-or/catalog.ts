import { describeGame, labels } from '../catalog-words';
import { GAIN_AT_50, GRID_CELLS, MAX_SAME_SYMBOL, STAKES, SYMBOLS, type MineSymbol } from './scenario';

/** The symbols as article 4.4 names them; EXTRA as article 4.6. */
const LABELS = labels<MineSymbol>({
  fr: { pepite: 'pépite d’or', diamant: 'diamant', billet: 'billet', bougie: 'bougie', cactus: 'cactus', pioche: 'pioche', extra: 'EXTRA' },
  en: { pepite: 'gold nugget', diamant: 'diamond', billet: 'banknote', bougie: 'candle', cactus: 'cactus', pioche: 'pickaxe', extra: 'EXTRA' },
});

export const mineDOrCatalog = describeGame({
  id: 'mine-d-or',
  name: "Mine d'or",
  description: {
    fr: 'Une grille de 3 × 3 symboles : 3 symboles identiques gagnent, alignés ils gagnent double, et chaque EXTRA ouvre une grille de plus.',
    en: 'A 3 × 3 grid of symbols: 3 identical symbols win, double when in a line, and each EXTRA opens one more grid.',
  },
  rules: [
    {
      fr: `« Jouer » découvre d’un coup les ${GRID_CELLS} symboles de la grille.`,
      en: `"Play" uncovers the grid's ${GRID_CELLS} symbols at once.`,
    },
    {
      fr: `${MAX_SAME_SYMBOL} symboles identiques gagnent le montant de ce symbole ; sur une même ligne, colonne ou diagonale, ce gain est doublé. Plusieurs combinaisons s’additionnent.`,
      en: `${MAX_SAME_SYMBOL} identical symbols win that symbol's amount; on one row, column or diagonal the gain is doubled. Several combinations add up.`,
    },
    {
      fr: 'Chaque symbole EXTRA donne une étape Extra : une nouvelle grille, découverte avec le bouton EXTRA et payée de la même façon.',
      en: 'Each EXTRA symbol earns an Extra stage: a new grid, uncovered with the EXTRA button and paid the same way.',
    },
    {
      fr: 'Les gains de toutes les grilles forment un lot unique ; sans combinaison, l’unité est perdante.',
      en: 'The gains of every grid make one prize; without a combination the unit loses.',
    },
  ],
  symbols: SYMBOLS.map((symbol) => ({
    id: symbol,
    label: LABELS[symbol],
    ...(symbol === 'extra'
      ? {}
      : { worth: { count: MAX_SAME_SYMBOL, prizes: STAKES.map((stake) => ({ stake, prize: (GAIN_AT_50[symbol] * stake) / 50 })) } }),
  })),
  purchase: { picks: [], minUnits: 1, maxUnits: 1 },
  revealChoices: [],
  actions: [
    { type: 'extra', label: { fr: 'EXTRA', en: 'EXTRA' }, fields: [] },
    { type: 'auto', label: { fr: 'AUTO', en: 'AUTO' }, fields: [] },
  ],
  order: {
    fr: '« extra » une fois par étape Extra gagnée, ou « auto » pour toutes ; sans EXTRA, la révélation se termine à l’achat.',
    en: '"extra" once per Extra stage earned, or "auto" for all of them; without EXTRA the reveal ends at purchase.',
  },
  opening: {
    fr: 'La grille principale découverte, ses combinaisons et ses étapes Extra gagnées (événement « grid_revealed », étape 0) ; sans EXTRA, la fin aussitôt.',
    en: 'The main grid uncovered, its combinations and the Extra stages it earns (event "grid_revealed", stage 0); without EXTRA, the end at once.',
  },
  coveredOnScreen: true,
});
