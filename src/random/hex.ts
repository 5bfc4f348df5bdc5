/** Bytes ↔ lowercase hex, without Buffer: the games and the page's verifier run in the browser too. */

const HEX = '0123456789abcdef';

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += HEX[b >> 4]! + HEX[b & 15]!;
  return s;
}

/** The bytes of an even-length hex string; throws on anything else, so a bad seed never becomes zeros. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new RangeError(`not hex: ${hex.slice(0, 16)}`);
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** True for lowercase hex of exactly `bytes` bytes. */
export function isHex(value: unknown, bytes: number): value is string {
  return typeof value === 'string' && value.length === 2 * bytes && /^[0-9a-f]*$/.test(value);
}
