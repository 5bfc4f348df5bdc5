import type { CatalogOption, GameDescription, Text } from '../protocol/catalog';

/**
 * A game's description with its règlement filled in: every règlement is titled after the game's
 * name and kept as docs/reglements/<id>.txt.
 */
export function describeGame({ id, name, ...rest }: Omit<GameDescription, 'reglement'>): GameDescription {
  const reglement = { title: `Règlement particulier du jeu « ${name} »`, file: `docs/reglements/${id}.txt` };
  return { id, name, reglement, ...rest };
}

/** The labels of a game's ids from one word list per locale, each keyed by id. */
export function labels<Id extends string>(words: { readonly fr: Readonly<Record<Id, string>>; readonly en: Readonly<Record<Id, string>> }): Readonly<Record<Id, Text>> {
  const ids = Object.keys(words.fr) as Id[];
  return Object.fromEntries(ids.map((id) => [id, { fr: words.fr[id], en: words.en[id] }])) as Record<Id, Text>;
}

/** The options of a choice (or the symbols of a screen): each id with its label, in the order of `ids`. */
export function options<Id extends string>(ids: readonly Id[], labelOf: Readonly<Record<Id, Text>>): CatalogOption[] {
  return ids.map((id) => ({ id, label: labelOf[id] }));
}
