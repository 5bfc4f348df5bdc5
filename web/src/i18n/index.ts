import type { GameCatalogEntry } from '../../../src/protocol/catalog';
import { REFUSALS, type RefusalCode } from '../../../src/protocol/refusals';
import { en } from './en';
import { fr, type Strings } from './fr';

export type Locale = 'fr' | 'en';
export type { Strings };

export const STRINGS: Record<Locale, Strings> = { fr, en };

/** Amounts are integer cents; shown in euros with the locale's separators. */
export function euros(cents: number, s: Strings): string {
  return new Intl.NumberFormat(s.locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: cents % 100 === 0 ? 0 : 2 }).format(cents / 100);
}

export function count(n: number, s: Strings): string {
  return new Intl.NumberFormat(s.locale).format(n);
}

/** A refusal as a sentence: ours when the protocol's table knows the code, else the server's own words. */
export function refusalSentence(error: unknown, s: Strings): string {
  const { code, message } = refusalOf(error);
  if (code === 'network') return s.refusals.network;
  if (code !== undefined && Object.hasOwn(REFUSALS, code)) return s.refusals[REFUSALS[code as RefusalCode].page];
  return s.refusedGeneric(message || code || String(error));
}

/** The `{ code, message }` of a refusal, whichever way it came (request rejection, HTTP error, matchmaking). */
export function refusalOf(error: unknown): { code?: string; message?: string } {
  if (error && typeof error === 'object') {
    // A rejected `room.request` carries the server's `{ code, message }` as its reason.
    const reason = (error as { reason?: unknown }).reason;
    if (reason && typeof reason === 'object') return refusalOf(reason);
    const e = error as { code?: unknown; message?: unknown };
    if (typeof e.code === 'string' && e.code.includes('/')) return { code: e.code, message: typeof e.message === 'string' ? e.message : '' };
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
