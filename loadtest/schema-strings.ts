import { decode, type Iterator } from '@colyseus/schema';

/**
 * The harness's clients read the strings of the tables' state (every step is a JSON text) with
 * Node's UTF-8 decoder instead of @colyseus/schema's `utf8Read`, which builds each string a
 * character at a time: that was ~60 KB of garbage a unit, the largest share of the generator's
 * allocations, on the machine it shares with the server it measures (docs/performance.md).
 * Only this process's decoding changes (the schema decodes every primitive through the
 * `decode` table), all of it: the harness's, or a test run's that imports the harness; the
 * servers and the browsers are untouched. Imported by every harness module that makes clients
 * (test/loadtest/schema-strings.test.ts checks it reads what the schema's own reader reads).
 */

const schemaString = decode.string;
const utf8 = new TextDecoder('utf-8');
/** Shorter strings are read faster by the schema's own loop (8 bytes: 0.07 µs, the decoder 0.09; 16: 0.13 and 0.10). */
const DECODER_FROM_BYTES = 16;

/** A msgpack string (fixstr, str 8, str 16 or str 32) at `it.offset`, as the schema reads it. */
export function readString(bytes: Parameters<typeof schemaString>[0], it: Iterator): string {
  if (!(bytes instanceof Uint8Array)) return schemaString(bytes, it); // a plain array of bytes
  const prefix = bytes[it.offset++]!;
  let length: number;
  if (prefix < 0xc0) length = prefix & 0x1f;
  else if (prefix === 0xd9) length = bytes[it.offset++]!;
  else if (prefix === 0xda) length = decode.uint16(bytes, it);
  else if (prefix === 0xdb) length = decode.uint32(bytes, it);
  else length = 0; // not a string: read as an empty one
  if (length < DECODER_FROM_BYTES) return decode.utf8Read(bytes, it, length);
  const start = it.offset;
  const end = Math.min(start + length, bytes.length);
  it.offset += length;
  return utf8.decode(bytes.subarray(start, end));
}

decode.string = readString;
