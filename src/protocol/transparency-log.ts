/**
 * The answers of the log of page roots' public routes (docs/fairness.md, "Checkpoints"). Hashes
 * are lowercase hex; a signature and a raw key are standard base64.
 */

/**
 * The log's state as the server signed it. The signed bytes are the UTF-8 text
 * `lottery-checkpoint/v1\n<logId>\n<treeSize>\n<rootHash>\n<timestamp>\n<keyId>\n`.
 */
export interface SignedCheckpoint {
  /** Names the log (the deployment's `CHECKPOINT_LOG_ID`). */
  readonly logId: string;
  /** Leaves in the tree. */
  readonly treeSize: number;
  /** RFC 9162 MTH of the first `treeSize` leaves, 64 hex digits. */
  readonly rootHash: string;
  /** When it was signed, ms since the epoch. */
  readonly timestamp: number;
  /** The signing key's id: the first 8 bytes of SHA-256(raw public key), 16 hex digits. */
  readonly keyId: string;
  /** Ed25519 signature of the signed bytes, base64 (64 bytes). */
  readonly signature: string;
}

/** One public key of the log: the one signing now, or one that signed before (rotation). */
export interface LogPublicKey {
  readonly keyId: string;
  /** The 32-byte Ed25519 public key, base64. */
  readonly raw: string;
  /** The same key as an SPKI PEM. */
  readonly pem: string;
}

/** `GET /fairness/log/key`. */
export interface LogKeyReply extends LogPublicKey {
  readonly logId: string;
  /** Every key that signed this log's checkpoints, the current one first. */
  readonly keys: readonly LogPublicKey[];
}

/** `GET /fairness/log/inclusion?blockId=&page=` or `?index=`. */
export interface InclusionReply {
  /** The leaf's text (its bytes are its UTF-8). */
  readonly leaf: string;
  readonly index: number;
  /** RFC 9162 §2.1.3.1 inclusion path, leaf side first. */
  readonly proof: readonly string[];
  /** The checkpoint the proof leads to (its `treeSize` is the proof's tree size). */
  readonly checkpoint: SignedCheckpoint;
}

/** `GET /fairness/log/consistency?from=M&to=N`. */
export interface ConsistencyReply {
  readonly from: number;
  readonly to: number;
  /** RFC 9162 §2.1.4.1 consistency proof; empty when from = to. */
  readonly proof: readonly string[];
}
