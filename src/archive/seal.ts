import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from './records';

/**
 * Seals (docs/archive.md, "Seal format"): every N records or S seconds the writer signs, with the
 * operator's Ed25519 key, the range of sequence numbers it closes and the hash of its last
 * record; the chain makes that one hash stand for every record before it.
 */

/** A seal as written, one JSON line (`t: 's'`). */
export interface ArchiveSeal {
  readonly t: 's';
  readonly stream: string;
  readonly first: number;
  readonly last: number;
  /** The hash of record `last`. */
  readonly hash: string;
  /** When it was signed (UTC ms); not signed, for the reader. */
  readonly at: number;
  /** The signing key's id (`keyId`). */
  readonly key: string;
  /** Ed25519 signature of `sealBytes`, base64. */
  readonly sig: string;
}

/** A seal's line as the writer writes it: its fields only, in their order (`verify` compares, as for records). */
export function sealLine(seal: ArchiveSeal): string {
  const { t, stream, first, last, hash, at, key, sig } = seal;
  return JSON.stringify({ t, stream, first, last, hash, at, key, sig });
}

/** The bytes a seal signs. */
function sealBytes(stream: string, first: number, last: number, hash: string): Buffer {
  return Buffer.from(canonicalJson(['instant-games-archive-seal/1', stream, first, last, hash]), 'utf8');
}

/** An Ed25519 public key as published: its id and its SPKI DER in base64. */
export interface PublishedKey {
  readonly id: string;
  readonly spki: string;
}

/** A key's id: the first 16 hex digits of the SHA-256 of its SPKI DER. */
function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ format: 'der', type: 'spki' })).digest('hex').slice(0, 16);
}

function publishKey(publicKey: KeyObject): PublishedKey {
  return { id: keyId(publicKey), spki: publicKey.export({ format: 'der', type: 'spki' }).toString('base64') };
}

/** The operator's signing key: from a PKCS#8 PEM, or made now (the embedded default says so). */
export class SealingKey {
  readonly id: string;
  readonly published: PublishedKey;
  private constructor(private readonly privateKey: KeyObject) {
    const publicKey = createPublicKey(privateKey);
    this.published = publishKey(publicKey);
    this.id = this.published.id;
  }

  static fromPem(pem: string): SealingKey {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new RangeError(`the archive's signing key must be Ed25519, not ${key.asymmetricKeyType}`);
    return new SealingKey(key);
  }

  static generate(): SealingKey {
    return new SealingKey(generateKeyPairSync('ed25519').privateKey);
  }

  pem(): string {
    return this.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  }

  seal(stream: string, first: number, last: number, hash: string, at: number): ArchiveSeal {
    const sig = sign(null, sealBytes(stream, first, last, hash), this.privateKey).toString('base64');
    return { t: 's', stream, first, last, hash, at, key: this.id, sig };
  }
}

/**
 * The public keys seals verify with: every key the operator has signed with, old ones kept, so
 * that rotating the key leaves the seals made before valid. File: `{"keys": [PublishedKey, …]}`.
 */
export class Keyring {
  private readonly keys = new Map<string, KeyObject>();

  constructor(published: readonly PublishedKey[] = []) {
    for (const key of published) this.add(key);
  }

  static parse(text: string): Keyring {
    const parsed = JSON.parse(text) as { keys?: unknown };
    if (!Array.isArray(parsed.keys)) throw new RangeError('a keyring is {"keys": [{"id", "spki"}, …]}');
    return new Keyring(parsed.keys as PublishedKey[]);
  }

  add(key: PublishedKey): void {
    const publicKey = createPublicKey({ key: Buffer.from(key.spki, 'base64'), format: 'der', type: 'spki' });
    if (publicKey.asymmetricKeyType !== 'ed25519' || keyId(publicKey) !== key.id) throw new RangeError(`key ${key.id} is not the Ed25519 key its id names`);
    this.keys.set(key.id, publicKey);
  }

  has(id: string): boolean {
    return this.keys.has(id);
  }

  toJson(): string {
    return `${JSON.stringify({ keys: [...this.keys.values()].map(publishKey) }, null, 2)}\n`;
  }

  /** Whether `seal` is signed by a key of this ring over its own fields. */
  verify(seal: ArchiveSeal): boolean {
    const key = this.keys.get(seal.key);
    if (!key || typeof seal.sig !== 'string') return false;
    return verify(null, sealBytes(seal.stream, seal.first, seal.last, seal.hash), key, Buffer.from(seal.sig, 'base64'));
  }
}
