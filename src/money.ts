import type { Cents } from './protocol/money';

/**
 * Money is integer euro cents everywhere (never binary floats; the type is the protocol's).
 * These helpers are the only place where cents meet text.
 */
export type { Cents };

function assertCents(value: number, what = 'amount'): Cents {
  if (!Number.isSafeInteger(value)) throw new TypeError(`${what} must be a whole number of cents, got ${value}`);
  return value;
}

/** 1250 -> "12.50" (for logs, JSON reports and the operator view). */
export function formatEuros(cents: Cents): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 1250 -> "12.50 €" (for sentences: a check's differences). */
export const formatEurosLabel = (cents: Cents): string => `${formatEuros(cents)} €`;
