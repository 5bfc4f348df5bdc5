import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';

/**
 * The archive's files (docs/archive.md, "Files"): `<dir>/<stream>/<YYYY-MM-DD>.jsonl.gz`, one
 * gzip member appended per seal (concatenated members are one gzip file: `zcat` reads it
 * whole). With an operator key, `<YYYY-MM-DD>.jsonl.gz.aes`: each member AES-256-GCM encrypted
 * as a frame `[length u32 BE][IV 12][ciphertext][tag 16]`, length counting the ciphertext.
 * Each batch is so checked on its own (a member's CRC-32 and length, a frame's tag), and
 * `readDayFile` reads them one by one: damage costs the damaged batch only.
 */

export const MANIFEST = 'manifest.json';
export const KEYRING = 'keyring.json';
/** The writer's resume point of a stream (`WriterState`), next to its files. */
export const STATE = 'state.json';

/** The UTC day of a time, `YYYY-MM-DD`. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

export function dayFileName(day: string, encrypted: boolean): string {
  return encrypted ? `${day}.jsonl.gz.aes` : `${day}.jsonl.gz`;
}

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl\.gz(\.aes)?$/;

/** The day a file name holds, or undefined for another file. */
export function dayOfFile(name: string): { day: string; encrypted: boolean } | undefined {
  const m = DAY_FILE.exec(name);
  return m ? { day: m[1]!, encrypted: m[2] !== undefined } : undefined;
}

/** A 32-byte AES-256-GCM key from 64 hex digits. */
export function encryptionKey(hex: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new RangeError('the archive encryption key is 64 hex digits (32 bytes)');
  return Buffer.from(hex, 'hex');
}

/** What one seal's lines add to a day file. */
export function encodeChunk(lines: readonly string[], key: Buffer | undefined): Buffer {
  const member = gzipSync(Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8'));
  if (!key) return member;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(member), cipher.final()]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(ciphertext.length);
  return Buffer.concat([length, iv, ciphertext, cipher.getAuthTag()]);
}

/** One batch of a day file (one seal's chunk): its place in bytes, and its lines' text or why it cannot be read. */
export type DayFileBatch = { readonly offset: number; readonly length: number } & ({ readonly text: string } | { readonly damage: string });

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08]);
/** The writer's member header: magic, deflate, no flags (no optional field), then MTIME, XFL, OS. */
const GZIP_HEADER_LENGTH = 10;

/** The gzip member at `at`, checked whole (its CRC-32 and length): its end and text. */
function gzipMemberAt(bytes: Buffer, at: number): { end: number; text: string } {
  if (!bytes.subarray(at, at + 3).equals(GZIP_MAGIC) || bytes[at + 3] !== 0) throw new Error('not the start of a gzip member');
  // The deflate stream ends itself: what it consumed places the trailer, and so the next member.
  const { engine } = inflateRawSync(bytes.subarray(at + GZIP_HEADER_LENGTH), { info: true }) as unknown as { engine: { bytesWritten: number } };
  const end = at + GZIP_HEADER_LENGTH + engine.bytesWritten + 8;
  if (end > bytes.length) throw new Error('cut short');
  return { end, text: gunzipSync(bytes.subarray(at, end)).toString('utf8') };
}

/** The AES-256-GCM frame at `at`, decrypted and its member checked: its end and text. */
function frameAt(bytes: Buffer, at: number, key: Buffer): { end: number; text: string } {
  if (at + 4 + 12 + 16 > bytes.length) throw new Error('cut short');
  const end = at + 16 + bytes.readUInt32BE(at);
  if (end + 16 > bytes.length) throw new Error('its length runs past the end of the file');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(at + 4, at + 16));
  decipher.setAuthTag(bytes.subarray(end, end + 16));
  // A frame's plaintext starts with gzip's magic: a place that does not is no frame, told without
  // decrypting it all (what makes looking for the next frame after a damaged one cheap).
  const head = decipher.update(bytes.subarray(at + 16, Math.min(at + 16 + GZIP_MAGIC.length, end)));
  if (!head.equals(GZIP_MAGIC)) throw new Error('not a frame: its plaintext does not start as a gzip member');
  const member = Buffer.concat([head, decipher.update(bytes.subarray(at + 16 + GZIP_MAGIC.length, end)), decipher.final()]);
  const read = gzipMemberAt(member, 0);
  if (read.end !== member.length) throw new Error('bytes after its gzip member');
  return { end: end + 16, text: read.text };
}

/**
 * A day file's batches in order, each read on its own and handed out as it is read (a busy
 * day's file holds gigabytes of text: only one batch's is held at a time): a damaged batch (a byte flipped, a write
 * cut short) is reported with its place, and the next one is found where a whole batch starts
 * again (a gzip member, or a frame, that checks), so damage costs the damaged batch only.
 */
export function* readDayFile(bytes: Buffer, encrypted: boolean, key: Buffer | undefined): Generator<DayFileBatch> {
  if (encrypted && !key) throw new Error('an encrypted archive file needs the archive encryption key');
  const batchAt = (at: number) => (encrypted ? frameAt(bytes, at, key!) : gzipMemberAt(bytes, at));
  for (let at = 0; at < bytes.length; ) {
    let damage: string;
    try {
      const { end, text } = batchAt(at);
      yield { offset: at, length: end - at, text };
      at = end;
      continue;
    } catch (err) {
      damage = (err as Error).message;
    }
    let next = at + 1;
    for (; next < bytes.length; next++) {
      // A plain batch starts with gzip's magic: only those places are tried.
      if (!encrypted && (next = bytes.indexOf(GZIP_MAGIC, next)) < 0) next = bytes.length;
      if (next >= bytes.length) break;
      try {
        batchAt(next);
        break;
      } catch {
        // Not a whole batch: look further.
      }
    }
    yield { offset: at, length: next - at, damage };
    at = next;
  }
}
