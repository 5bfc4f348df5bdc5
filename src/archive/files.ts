import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * The archive's files (docs/archive.md, "Files"): `<dir>/<stream>/<YYYY-MM-DD>.jsonl.gz`, one
 * gzip member appended per seal (concatenated members are one gzip file: `zcat` reads it
 * whole). With an operator key, `<YYYY-MM-DD>.jsonl.gz.aes`: each member AES-256-GCM encrypted
 * as a frame `[length u32 BE][IV 12][ciphertext][tag 16]`, length counting the ciphertext.
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

/** A day file's text (its lines joined), decrypting with `key` when it is encrypted. */
export function decodeDayFile(bytes: Buffer, encrypted: boolean, key: Buffer | undefined): string {
  if (!encrypted) return gunzipSync(bytes).toString('utf8');
  if (!key) throw new Error('an encrypted archive file needs the archive encryption key');
  const members: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    if (at + 4 + 12 + 16 > bytes.length) throw new Error(`a frame cut short at byte ${at}`);
    const length = bytes.readUInt32BE(at);
    const iv = bytes.subarray(at + 4, at + 16);
    const end = at + 16 + length;
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(bytes.subarray(end, end + 16));
    members.push(decipher.update(bytes.subarray(at + 16, end)), decipher.final());
    at = end + 16;
  }
  return gunzipSync(Buffer.concat(members)).toString('utf8');
}
