import { describeGame } from '../catalog-words';
import { NUMBERS_COUNT, WINNING_COUNT } from './rules';

export const caratsCatalog = describeGame({
  id: '500000-carats',
  name: '500 000 CARATS',
  description: {
    fr: `${WINNING_COUNT} « Numéros gagnants » et ${NUMBERS_COUNT} « Vos numéros », chacun avec une somme : chaque numéro trouvé dans les deux zones gagne sa somme.`,
    en: `${WINNING_COUNT} "Winning numbers" and ${NUMBERS_COUNT} "Your numbers", each with an amount: every number found in both zones wins its amount.`,
  },
  rules: [
    {
      fr: `Le joueur découvre d’abord les ${WINNING_COUNT} « Numéros gagnants », d’un seul geste.`,
      en: `The player first uncovers the ${WINNING_COUNT} "Winning numbers", in one go.`,
    },
    {
      fr: `Il découvre ensuite les ${NUMBERS_COUNT} « Vos numéros » un par un, en glissant sur plusieurs, ou tous avec AUTO ; une somme est inscrite sous chacun.`,
      en: `Then the ${NUMBERS_COUNT} "Your numbers" one by one, by dragging over several, or all with AUTO; an amount is printed under each.`,
    },
    {
      fr: 'Les numéros vont de 1 à 49 sauf 5, 10 et 15, jamais deux fois dans une même zone.',
      en: 'Numbers run from 1 to 49 except 5, 10 and 15, never twice in one zone.',
    },
    {
      fr: 'Chaque numéro de « Vos numéros » identique à un numéro gagnant gagne sa somme ; plusieurs sommes s’additionnent en un seul lot.',
      en: 'Each of "Your numbers" equal to a winning number wins its amount; several amounts add up to one prize.',
    },
  ],
  symbols: [],
  purchase: { picks: [], minUnits: 1, maxUnits: 1 },
  revealChoices: [],
  actions: [
    { type: 'reveal_winning', label: { fr: 'Numéros gagnants', en: 'Winning numbers' }, fields: [] },
    {
      type: 'reveal',
      label: { fr: 'Découvrir un numéro', en: 'Uncover a number' },
      fields: [{ name: 'index', kind: 'integer', min: 0, max: NUMBERS_COUNT - 1 }],
    },
    {
      type: 'reveal_many',
      label: { fr: 'Glisser sur plusieurs numéros', en: 'Drag over several numbers' },
      fields: [{ name: 'indexes', kind: 'integers', min: 0, max: NUMBERS_COUNT - 1, maxLength: NUMBERS_COUNT }],
    },
    { type: 'auto', label: { fr: 'Auto', en: 'Auto' }, fields: [] },
  ],
  order: {
    fr: `« reveal_winning » d’abord, puis « reveal » / « reveal_many » jusqu’aux ${NUMBERS_COUNT} numéros ; « auto » à tout moment révèle le reste. La révélation se termine au ${NUMBERS_COUNT}e numéro.`,
    en: `"reveal_winning" first, then "reveal" / "reveal_many" until all ${NUMBERS_COUNT} numbers are shown; "auto" at any time shows the rest. The reveal ends with the ${NUMBERS_COUNT}th number.`,
  },
  opening: {
    fr: 'Les deux zones, encore couvertes : rien n’est montré avant le premier geste.',
    en: 'Both zones, still covered: nothing shows before the first action.',
  },
});
