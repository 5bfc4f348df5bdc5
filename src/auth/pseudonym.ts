/**
 * Pseudonyms are shown to other players (the wins feed, the tables open to watchers): one must
 * not be able to pass for another. A name is NFKC-normalized (full-width and compatibility
 * forms become their plain letters), trimmed, its inner spaces collapsed; what remains must be
 * 1–32 letters of one writing system, ASCII digits, spaces and `_ . -`, with at least one letter.
 * Marks, controls and invisible characters are refused, so are names mixing scripts ("Аlice" with
 * a Cyrillic А), names written wholly in Greek or Cyrillic letters that look Latin ("ΚΑΤΕ",
 * "СОРЕ": they read as KATE and COPE), and the names the server itself shows for a player
 * without one. The characters left are never special to HTML, JSON or a terminal.
 */

/** Shown for a player whose token carries no valid name. */
export const ANONYMOUS = 'Anonymous';
/** Shown in the feed for a win whose player's name is no longer known. */
export const UNKNOWN_PLAYER = 'a player';
/** Names no player may take, compared in lower case: the server's own placeholders. */
const RESERVED = new Set([ANONYMOUS, UNKNOWN_PLAYER].map((name) => name.toLowerCase()));

/**
 * Greek and Cyrillic letters drawn like a Latin letter (after Unicode's confusables, UTS #39): a
 * name made only of these, in one of those scripts, passes for a Latin name it is not.
 */
const LOOK_LATIN = /^[\u0391\u0392\u0395\u0396\u0397\u0399\u039A\u039C\u039D\u039F\u03A1\u03A4\u03A5\u03A7\u03B9\u03BA\u03BD\u03BF\u03C1\u03C4\u03C5\u03C7\u0405\u0406\u0408\u0410\u0412\u0415\u041A\u041C\u041D\u041E\u0420\u0421\u0422\u0423\u0425\u0430\u0435\u043E\u0440\u0441\u0443\u0445\u0455\u0456\u0458\u04AE\u04BB\u04C0\u0501\u051B\u051D]$/u;
const GREEK_OR_CYRILLIC = /[\p{Script=Greek}\p{Script=Cyrillic}]/u;

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
  if (letters.length === 0 || !oneWritingSystem(letters) || RESERVED.has(name.toLowerCase())) return undefined;
  const passesForLatin = GREEK_OR_CYRILLIC.test(letters[0]!) && letters.every((letter) => LOOK_LATIN.test(letter));
  return passesForLatin ? undefined : name;
}
