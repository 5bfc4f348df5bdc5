/**
 * The bytes of scheme 3's domain separation and leaves (docs/fairness.md, "The scheme, byte for
 * byte"), shared by the builder (merkle.ts, node) and the verifier (src/audit/verify-unit/, the
 * browser too): no `node:` import here.
 *
 * A tag names what is hashed and for which block: `<kind>/v3|<game>|<stake>|<blockId>`. Game ids
 * hold no `|` and the stake is decimal, so the block id (the only free text) comes last and the
 * text splits one way only. A tagged hash is SHA-256(SHA-256(tag) ‖ SHA-256(tag) ‖ message), as
 * BIP-340 does: its first 64 bytes are the same for every leaf of a block, so their compression is
 * done once per block and a leaf costs one compression, as under scheme 2.
 */

/** What a block's commitments and leaves are bound to under scheme 3. */
export interface BlockDomain {
  readonly game: string;
  readonly stake: number;
  readonly blockId: string;
}

/** How a block's leaves are made: scheme 2 (salted), or scheme 3 (the unit seed, in the block's domain). */
export type LeafScheme = { readonly version: 2 } | ({ readonly version: 3 } & BlockDomain);

export type TagKind = 'unit-leaf' | 'block-commitment';

export function domainTag(kind: TagKind, domain: BlockDomain): string {
  return `${kind}/v3|${domain.game}|${domain.stake}|${domain.blockId}`;
}

/** Leaves start with 00 (a leaf), then the scheme's version. */
const LEAF_TAG = 0x00;
export const LEAF_BYTES = 39;

/**
 * A leaf's message after its tag prefix: `00 ‖ version ‖ u32be(position) ‖ u8(tierId) ‖ secret`,
 * 39 bytes; the secret is the salt (scheme 2) or the unit seed (scheme 3).
 */
export function leafMessage(version: 2 | 3, position: number, tierId: number, secret: Uint8Array): Uint8Array {
  const out = new Uint8Array(LEAF_BYTES);
  out[0] = LEAF_TAG;
  out[1] = version;
  new DataView(out.buffer).setUint32(2, position);
  out[6] = tierId;
  out.set(secret, 7);
  return out;
}
