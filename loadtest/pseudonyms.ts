/**
 * The synthetic players' pseudonyms. The public feed masks a pseudonym to its first three
 * characters and « *** » (src/feed/win-feed.ts), so those three carry the player's index, in
 * base 36 (at most 36³ = 46,656 players), and the run's prefix follows, for the servers that
 * show pseudonyms whole (the echo baseline's feed).
 */

const INDEX_WIDTH = 3;
const MAX_PLAYERS = 36 ** INDEX_WIDTH;

export function playerPseudonym(prefix: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_PLAYERS) throw new RangeError(`player index ${index} does not fit a pseudonym`);
  return `${index.toString(36).padStart(INDEX_WIDTH, '0')}-${prefix}`;
}

/** The player index a feed's pseudonym names (masked or whole), or undefined when it is not one of this run's. */
export function playerIndexOf(pseudonym: unknown, prefix: string): number | undefined {
  if (typeof pseudonym !== 'string') return undefined;
  const code = pseudonym.slice(0, INDEX_WIDTH);
  const rest = pseudonym.slice(INDEX_WIDTH);
  if (rest !== '***' && rest !== `-${prefix}`) return undefined;
  const index = Number.parseInt(code, 36);
  return /^[0-9a-z]{3}$/.test(code) ? index : undefined;
}
