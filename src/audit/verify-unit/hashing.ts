import { domainTag, leafMessage, type BlockDomain } from '../../fairness/leaf-domain';
import { fromHex, toHex } from '../../random/hex';

/**
 * The verifier's hashing through WebCrypto (`globalThis.crypto.subtle`: Node 22 and browsers),
 * straight from docs/fairness.md's bytes: no `node:` import, so the page bundles it.
 */

function subtle() {
  const found = globalThis.crypto?.subtle;
  if (!found) throw new Error('WebCrypto (crypto.subtle) is not available here');
  return found;
}

export async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const message = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    message.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await subtle().digest('SHA-256', message));
}

/** SHA-256(T ‖ T ‖ message), T = SHA-256(utf8 tag). */
async function taggedHash(tag: string, message: Uint8Array): Promise<Uint8Array> {
  const t = await sha256(new TextEncoder().encode(tag));
  return sha256(t, t, message);
}

/** A proof as the verifier reads it: its leaf's secret decides the scheme. */
export interface ProofInput {
  readonly version: 2 | 3;
  readonly position: number;
  readonly tierId: number;
  /** The salt (scheme 2) or the unit seed (scheme 3), hex. */
  readonly secret: string;
  readonly siblings: readonly string[];
}

/** The page root (hex) the proof leads to; a scheme 3 leaf is hashed in `domain`. */
export async function pageRootOf(proof: ProofInput, domain: BlockDomain): Promise<string> {
  const message = leafMessage(proof.version, proof.position, proof.tierId, fromHex(proof.secret));
  let node = proof.version === 3 ? await taggedHash(domainTag('unit-leaf', domain), message) : await sha256(message);
  for (let k = 0; k < proof.siblings.length; k++) {
    const sibling = fromHex(proof.siblings[k]!);
    const isRight = Math.floor(proof.position / 2 ** k) % 2 === 1;
    node = isRight ? await sha256(sibling, node) : await sha256(node, sibling);
  }
  return toHex(node);
}

/** HMAC-SHA256(key = block seed, `unit-seed/v1/<position>`), hex: a unit seed from a revealed block seed. */
export async function unitSeedOf(blockSeedHex: string, position: number): Promise<string> {
  // A copy: WebCrypto's DOM types take bytes over an ArrayBuffer, never a shared one.
  const key = await subtle().importKey('raw', new Uint8Array(fromHex(blockSeedHex)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(new Uint8Array(await subtle().sign('HMAC', key, new TextEncoder().encode(`unit-seed/v1/${position}`))));
}
