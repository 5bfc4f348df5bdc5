import type { GameCatalogEntry } from '../../../src/protocol/catalog';
import type { RefusalDetails } from '../../../src/protocol/protection';
import { REFUSALS, type RefusalCode } from '../../../src/protocol/refusals';
import { en } from './en';
import { fr, type Strings } from './fr';

export type Locale = 'fr' | 'en';
export type { Strings };

export const STRINGS: Record<Locale, Strings> = { fr, en };

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * The locale's number format for these options, made once: making one costs far more than
 * using it (a render of the feed and the prize tables writes hundreds of amounts).
 */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

/** Amounts are integer cents; shown in euros with the locale's separators. */
export function euros(cents: number, s: Strings): string {
  return numberFormat(s.locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: cents % 100 === 0 ? 0 : 2 }).format(cents / 100);
}

export function count(n: number, s: Strings): string {
  return numberFormat(s.locale).format(n);
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** A moment (ISO text or ms since the epoch), date and time, in the page's language. */
export function dateTime(at: string | number, s: Strings): string {
  let format = dateTimeFormats.get(s.locale);
  if (!format) dateTimeFormats.set(s.locale, (format = new Intl.DateTimeFormat(s.locale, { dateStyle: 'short', timeStyle: 'short' })));
  return format.format(new Date(at));
}

/** A length of play, to the minute (« 1 h 05 min »; `short`, for the header: « 1 h 05 »). */
export function playTime(ms: number, s: Strings, short = false): string {
  const minutes = Math.floor(ms / 60_000);
  return (short ? s.protection.playTimeShort : s.protection.playTime)(Math.floor(minutes / 60), minutes % 60);
}

/** A net result with its sign (« +2,50 € », « −3 € »). */
export function signedEuros(cents: number, s: Strings): string {
  return cents > 0 ? `+${euros(cents, s)}` : cents < 0 ? `\u2212${euros(-cents, s)}` : euros(0, s);
}

/** What a `limit/…` or `protection/…` refusal adds: what is left and from when, until when, the session so far. */
export function detailsSentence(d: RefusalDetails, s: Strings): string {
  const p = s.protection;
  const time = d.limit === 'time_day' || d.limit === 'time_week';
  return [
    d.source !== undefined && `(${s.bySource[d.source]})`,
    d.left !== undefined && !time && p.left(euros(d.left, s)),
    d.nextFreeAt != null && (time ? p.playAgainAt(dateTime(d.nextFreeAt, s)) : p.freesAt(dateTime(d.nextFreeAt, s))),
    d.until != null && p.until(dateTime(d.until, s)),
    d.playedMs !== undefined && d.net !== undefined && p.sessionSoFar(playTime(d.playedMs, s), signedEuros(d.net, s)),
  ].filter((part): part is string => !!part).join(' ');
}

/** A refusal as a sentence: ours when the protocol's table knows the code, else the server's own words; then its details. */
export function refusalSentence(error: unknown, s: Strings): string {
  const { code, message, details } = refusalOf(error);
  if (code === 'network') return s.refusals.network;
  const sentence = code !== undefined && Object.hasOwn(REFUSALS, code) ? s.refusals[REFUSALS[code as RefusalCode].page] : s.refusedGeneric(message || code || String(error));
  const more = details && detailsSentence(details, s);
  return more ? `${sentence} ${more}` : sentence;
}

/** The `{ code, message, details }` of a refusal, whichever way it came (request rejection, HTTP error, matchmaking). */
export function refusalOf(error: unknown): { code?: string; message?: string; details?: RefusalDetails } {
  if (error && typeof error === 'object') {
    // A rejected `room.request` carries the server's `{ code, message, details? }` as its reason.
    const reason = (error as { reason?: unknown }).reason;
    if (reason && typeof reason === 'object') return refusalOf(reason);
    const e = error as { code?: unknown; message?: unknown; details?: unknown };
    if (typeof e.code === 'string' && e.code.includes('/')) {
      return { code: e.code, message: typeof e.message === 'string' ? e.message : '', ...(e.details && typeof e.details === 'object' ? { details: e.details as RefusalDetails } : {}) };
    }
    if (typeof e.message === 'string') {
      // Matchmaking errors carry "code: sentence" in their message.
      const m = /^([a-z_]+\/[a-z_]+)(?::\s*(.*))?$/.exec(e.message);
      if (m) return { code: m[1]!, message: m[2] ?? '' };
      if (/fetch|network|Failed/i.test(e.message)) return { code: 'network', message: e.message };
      return { message: e.message };
    }
  }
  return { message: String(error) };
}

/** A game's name as its règlement writes it. */
export function gameName(game: string, catalog: readonly GameCatalogEntry[], s: Strings): string {
  return s.gameNames[game] ?? catalog.find((g) => g.id === game)?.name ?? game;
}
