import unhomoglyph from 'unhomoglyph';

/**
 * Pseudonyms are shown to other players (the wins feed, the tables open to watchers): one must
 * not be able to pass for another. A name is NFKC-normalized (full-width and compatibility
 * forms become their plain letters), trimmed, its inner spaces collapsed; what remains must be
 * 1–32 letters of one writing system, ASCII digits, spaces and `_ . -`, with at least one letter.
 * Marks, controls and invisible characters are refused, so are names mixing scripts ("Аlice" with
 * a Cyrillic А), names written wholly in Greek or Cyrillic letters that look Latin ("ΚΑΤΕ",
 * "СОРЕ": they read as KATE and COPE), Latin letters of phonetics rather than of an alphabet
 * ("ɑ", "ᴀ", "ꜱ", "ǀ": drawn as a, A, s, l), and the names the server itself shows for a player
 * without one, compared by their confusables skeleton (UTS #39: "Anonyrnous" is "Anonymous").
 * The characters left are never special to HTML, JSON or a terminal.
 */

/** Shown for a player whose token carries no valid name. */
export const ANONYMOUS = 'Anonymous';
/** Shown in the feed for a win whose player's name is no longer known. */
export const UNKNOWN_PLAYER = 'a player';
/**
 * The skeleton of UTS #39: each character replaced by the prototype it is drawn like, after
 * Unicode's confusables data (the package unhomoglyph, confusables.txt as a table). Two strings
 * with one skeleton look alike.
 */
function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/** The skeleton whatever the case: "A PIayer" (capital i) and "a player" have one. */
function caselessSkeleton(text: string): string {
  return skeleton(skeleton(text).toLowerCase());
}

/** Names no player may take, by their caseless skeleton: the server's own placeholders. */
const RESERVED = new Set([ANONYMOUS, UNKNOWN_PLAYER].map(caselessSkeleton));

/** A letter drawn like ASCII letters or digits (Cyrillic "о" as o, Greek "Κ" as K, Latin "ɑ" as a). */
function drawnAsAscii(letter: string): boolean {
  return /^[A-Za-z0-9]+$/.test(skeleton(letter));
}
const GREEK_OR_CYRILLIC = /[\p{Script=Greek}\p{Script=Cyrillic}]/u;

/**
 * The Latin letters of alphabets: ASCII, Latin-1's and Latin Extended-A's letters (ß, ø, ł, ı…),
 * and any letter that is one of those with marks (ș, ǎ, ệ). The other Latin letters (phonetic
 * ones, small capitals, clicks: "ɑ", "ᴀ", "ꜱ", "ǀ") spell no language's names and are drawn
 * like letters they are not; some have no confusables entry at all ("ᴀ"), so they are refused
 * by block. A consequence: Azerbaijani "Ə" (Latin Extended-B) is refused too.
 */
function isAlphabetLatin(letter: string): boolean {
  return /^[A-Za-z\u00C0-\u017F]/u.test(letter.normalize('NFD'));
}
const LATIN = /\p{Script=Latin}/u;

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
  if (letters.length === 0 || !oneWritingSystem(letters) || RESERVED.has(caselessSkeleton(name))) return undefined;
  if (letters.some((letter) => LATIN.test(letter) && !isAlphabetLatin(letter))) return undefined;
  const passesForLatin = GREEK_OR_CYRILLIC.test(letters[0]!) && letters.every(drawnAsAscii);
  return passesForLatin ? undefined : name;
}
