/**
 * Pseudonyms are shown to other players (the wins feed, the tables open to watchers): one must
 * not be able to pass for another. A name is NFKC-normalized (full-width and compatibility
 * forms become their plain letters), trimmed, its inner spaces collapsed; what remains must be
 * 1–32 letters of one writing system, ASCII digits, spaces and `_ . -`. Marks, controls and
 * invisible characters are refused, so are names mixing scripts ("Аlice" with a Cyrillic А).
 * The characters left are never special to HTML, JSON or a terminal.
 */

const SHAPE = /^[\p{L}0-9 _.-]{1,32}$/u;
/** Letters that draw nothing (Hangul fillers): invisible, though Unicode calls them letters. */
const INVISIBLE_LETTERS = /[\u115F\u1160\u3164\uFFA0]/u;

/** Writing systems a name may use, each a set of Unicode scripts that belong together. */
const WRITING_SYSTEMS: readonly (readonly RegExp[])[] = [
  [/\p{Script=Latin}/u],
  [/\p{Script=Greek}/u],
  [/\p{Script=Cyrillic}/u],
  [/\p{Script=Armenian}/u],
  [/\p{Script=Georgian}/u],
  [/\p{Script=Hebrew}/u],
  [/\p{Script=Arabic}/u],
  [/\p{Script=Han}/u, /\p{Script=Hiragana}/u, /\p{Script=Katakana}/u],
  [/\p{Script=Hangul}/u, /\p{Script=Han}/u],
];

function oneWritingSystem(letters: readonly string[]): boolean {
  return WRITING_SYSTEMS.some((system) => letters.every((letter) => system.some((script) => script.test(letter))));
}

/** The name as it will be shown, or undefined when it cannot be one. */
export function normalizePseudonym(raw: string): string | undefined {
  if (raw.length > 256) return undefined;
  const name = raw.normalize('NFKC').trim().replace(/ {2,}/g, ' ');
  if (!SHAPE.test(name) || INVISIBLE_LETTERS.test(name)) return undefined;
  const letters = [...name].filter((c) => /\p{L}/u.test(c));
  return oneWritingSystem(letters) ? name : undefined;
}
