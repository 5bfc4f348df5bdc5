import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { checkpointBody, keyIdOf } from '../audit/transparency-log';
import { LogTree } from '../fairness/log-tree';
import type { PageLog } from '../dealer/types';
import type { ConsistencyReply, InclusionReply, LogKeyReply, LogPublicKey, SignedCheckpoint } from '../protocol/transparency-log';
import { toHex } from '../random/hex';

/** Leaves read from the store per request while catching up. */
const READ_BATCH = 10_000;
/**
 * Leaves hashed into the tree between two turns of the event loop while catching up (~14 ms):
 * a process's first log request after a restart hashes every leaf (~14 s at a million), and its
 * game rooms must not wait for that.
 */
const HASH_SLICE = 1_000;
const encoder = new TextEncoder();
/** The log is read again at most this often for a checkpoint (the routes are public). */
const SYNC_EVERY_MS = 1_000;

/** A public key as the log publishes it. */
async function publicKeyOf(key: KeyObject): Promise<LogPublicKey> {
  const raw = Buffer.from(key.export({ format: 'jwk' }).x ?? '', 'base64url');
  return { keyId: await keyIdOf(raw), raw: raw.toString('base64'), pem: key.export({ type: 'spki', format: 'pem' }).toString() };
}

export interface CheckpointSettings {
  readonly checkpointSigningKey: string | undefined;
  readonly checkpointPreviousKeys: readonly string[];
  readonly checkpointLogId: string;
}

/**
 * The server's side of the log of page roots (docs/fairness.md, "Checkpoints"): reads the leaves
 * the stores appended into an RFC 9162 tree (src/fairness/log-tree.ts), signs checkpoints of it
 * with the operator's Ed25519 key (one per new tree size), and makes the proofs the public
 * routes answer. Every process keeps its own tree of the one log; they sign the same roots.
 */
export class CheckpointLog {
  private readonly tree = new LogTree();
  private latest: SignedCheckpoint | undefined;
  private syncing: Promise<void> | undefined;
  private syncedAt = -Infinity;

  private constructor(
    private readonly log: PageLog,
    private readonly privateKey: KeyObject,
    readonly keys: LogKeyReply,
    private readonly now: () => number,
  ) {}

  /**
   * From the settings; without a signing key (the embedded default) a new one is made and
   * `generated` is true: the caller says so in its log (its checkpoints die with the process).
   */
  static async start(log: PageLog, settings: CheckpointSettings, now: () => number): Promise<{ log: CheckpointLog; generated: boolean }> {
    const generated = settings.checkpointSigningKey === undefined;
    const privateKey = generated ? generateKeyPairSync('ed25519').privateKey : createPrivateKey(settings.checkpointSigningKey!);
    const current = await publicKeyOf(createPublicKey(privateKey));
    const previous = await Promise.all(settings.checkpointPreviousKeys.map((pem) => publicKeyOf(createPublicKey(pem))));
    const keys = { logId: settings.checkpointLogId, ...current, keys: [current, ...previous.filter((k) => k.keyId !== current.keyId)] };
    return { log: new CheckpointLog(log, privateKey, keys, now), generated };
  }

  /** The latest checkpoint, signed again only when the log has grown (read again at most once a second). */
  async checkpoint(): Promise<SignedCheckpoint> {
    if (this.now() - this.syncedAt >= SYNC_EVERY_MS) await this.sync();
    const size = this.tree.size;
    if (this.latest?.treeSize !== size) {
      const unsigned = { logId: this.keys.logId, treeSize: size, rootHash: toHex(this.tree.root(size)), timestamp: this.now(), keyId: this.keys.keyId };
      this.latest = { ...unsigned, signature: sign(null, checkpointBody(unsigned), this.privateKey).toString('base64') };
    }
    return this.latest;
  }

  /** The proof that leaf `index` is in the latest checkpoint's tree; undefined past its end. */
  async inclusion(index: number): Promise<InclusionReply | undefined> {
    const checkpoint = await this.checkpoint();
    if (index >= checkpoint.treeSize) return undefined;
    const [leaf] = await this.log.logLeaves(index, 1);
    if (leaf === undefined) return undefined;
    return { leaf, index, proof: this.tree.inclusionProof(index, checkpoint.treeSize).map(toHex), checkpoint };
  }

  /** The proof of a page's leaf; undefined while the page is not in the log (or not yet here). */
  async inclusionOf(blockId: string, page: number): Promise<InclusionReply | undefined> {
    const index = await this.log.logIndexOf(blockId, page);
    if (index === undefined) return undefined;
    if (index >= this.tree.size) await this.sync();
    return this.inclusion(index);
  }

  /** RFC 9162 consistency proof from `from` to `to` leaves; undefined unless 0 ≤ from ≤ to ≤ the latest size. */
  async consistency(from: number, to: number): Promise<ConsistencyReply | undefined> {
    if (to > this.tree.size) await this.sync();
    if (from > to || to > this.tree.size) return undefined;
    return { from, to, proof: from === 0 ? [] : this.tree.consistencyProof(from, to).map(toHex) };
  }

  /** Reads the leaves appended since the last read into the tree (one read at a time). */
  private sync(): Promise<void> {
    this.syncing ??= (async () => {
      try {
        const size = await this.log.logSize();
        while (this.tree.size < size) {
          const leaves = await this.log.logLeaves(this.tree.size, Math.min(READ_BATCH, size - this.tree.size));
          if (leaves.length === 0) break;
          for (let i = 0; i < leaves.length; i += HASH_SLICE) {
            if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
            for (const leaf of leaves.slice(i, i + HASH_SLICE)) this.tree.append(encoder.encode(leaf));
          }
        }
        this.syncedAt = this.now();
      } finally {
        this.syncing = undefined;
      }
    })();
    return this.syncing;
  }
}
