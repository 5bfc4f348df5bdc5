import { scriptError } from './errors';

/** A script's reply as a list whose first element is its return code (negative: an error). */
export function replyList(script: string, reply: unknown): unknown[] {
  const list = Array.isArray(reply) ? reply : [reply];
  const code = Number(list[0]);
  if (!Number.isInteger(code)) throw scriptError(script, Number.NaN);
  return list;
}

export function int(value: unknown): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new TypeError(`expected an integer in a script reply, got ${String(value)}`);
  return n;
}
