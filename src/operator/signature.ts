import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of a request between the operator's platform and this server, either way:
 * `X-Lottery-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * `<METHOD>\n<path>\n<t>\n<body>` with the secret the two share. A receiver checks it with
 * `checkSignature`: the right secret, a time within the allowed skew of its own clock, and
 * (for calls that are not idempotent by themselves) a signature not seen before, which the
 * receiver keeps in its store for the skew window.
 */
export const SIGNATURE_HEADER = 'x-lottery-signature';
/** How far a signed time may be from the receiver's clock, either way. */
export const MAX_SKEW_SECONDS = 300;

export interface SignedParts {
  readonly method: string;
  /** The path with its query, as sent (`/wallet/debit`). */
  readonly path: string;
  readonly body: string;
}

function mac(secret: string, parts: SignedParts, time: number): string {
  return createHmac('sha256', secret).update(`${parts.method.toUpperCase()}\n${parts.path}\n${time}\n${parts.body}`).digest('hex');
}

/** The header's value for a request sent at `nowMs`. */
export function signRequest(secret: string, parts: SignedParts, nowMs: number): string {
  const time = Math.floor(nowMs / 1000);
  return `t=${time},v1=${mac(secret, parts, time)}`;
}

export type SignatureCheck =
  | { readonly ok: true; readonly time: number; readonly signature: string }
  | { readonly ok: false; readonly reason: 'missing' | 'malformed' | 'skew' | 'mismatch' };

/** Checks a header's value against the request received at `nowMs` (the receiver's clock). */
export function checkSignature(secret: string, header: string | undefined, parts: SignedParts, nowMs: number): SignatureCheck {
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  const found = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header);
  if (!found) return { ok: false, reason: 'malformed' };
  const time = Number(found[1]);
  if (Math.abs(nowMs / 1000 - time) > MAX_SKEW_SECONDS) return { ok: false, reason: 'skew' };
  const expected = Buffer.from(mac(secret, parts, time), 'hex');
  const given = Buffer.from(found[2]!, 'hex');
  if (!timingSafeEqual(expected, given)) return { ok: false, reason: 'mismatch' };
  return { ok: true, time, signature: found[2]! };
}
