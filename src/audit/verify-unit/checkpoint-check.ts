import type { ConsistencyReply, InclusionReply, LogKeyReply, SignedCheckpoint } from '../../protocol/transparency-log';
import type { UnitCheck } from '../../protocol/verification';
import { verifyCheckpoint, verifyCheckpointConsistency, verifyPageInclusion } from '../transparency-log';

/** What the log of page roots answered about a recall's page (docs/fairness.md, "Checkpoints"). */
export interface LogAnswers {
  /** `GET /fairness/log/key`. */
  readonly key: LogKeyReply;
  /** `GET /fairness/log/inclusion?blockId=&page=` for the recall's page; undefined: it answered 404. */
  readonly inclusion: InclusionReply | undefined;
  /**
   * A checkpoint the verifier saved before, and `GET /fairness/log/consistency` from its size to
   * the inclusion's; undefined when there is none to ask (the log is now smaller than the saved
   * checkpoint: the route answers 400 for from > to) or the server gave none.
   */
  readonly saved?: { readonly checkpoint: SignedCheckpoint; readonly consistency: ConsistencyReply | undefined };
  /** The id of the key the verifier holds as the log's (fetched once, or from the operator): the server's answer must be that key. */
  readonly pinnedKeyId?: string;
}

/** The page as the recall and the published block name it: what its leaf in the log must say. */
export interface RecalledPage {
  readonly scheme: number;
  readonly game: string;
  readonly stake: number;
  readonly blockId: string;
  readonly page: number;
  readonly root: string;
  /** When the block's route says the page was published (ms), when it answered. */
  readonly publishedAt: number | undefined;
  /** The unit's sale (ms). */
  readonly soldAt: number;
}

/**
 * The recall's page root is a leaf of the log under a checkpoint signed by the log's key and,
 * given a checkpoint saved before, that checkpoint is consistent with it. The leaf's other fields
 * must be the recall's too: its time is what the log fixes of when the page was published, so a
 * block route that dates the page earlier than its leaf, or a leaf dated after the sale, fails.
 */
export async function checkpointCheck(page: RecalledPage, log: LogAnswers): Promise<UnitCheck> {
  if (!log.inclusion) return { id: 'checkpoint', ok: false, detail: `the log of page roots holds no leaf for page ${page.page} of ${page.blockId}` };
  // Without a pin, the key is whatever the server answered: a server of someone else's signs its own log.
  if (log.pinnedKeyId !== undefined && log.key.keyId !== log.pinnedKeyId) return { id: 'checkpoint', ok: false, detail: `the log answers key ${String(log.key.keyId)}, not the key ${log.pinnedKeyId} held for it` };
  const included = await verifyPageInclusion(log.inclusion, log.key.raw, page);
  if (!included.ok) return { id: 'checkpoint', ok: false, detail: `the log of page roots: ${included.reason}` };
  const { leaf } = included;
  if (leaf.scheme !== page.scheme || leaf.game !== page.game || leaf.stake !== page.stake) {
    return { id: 'checkpoint', ok: false, detail: `the log's leaf names ${leaf.game} at ${leaf.stake} cents under scheme ${leaf.scheme}, not the recall's ${page.game} at ${page.stake} cents under scheme ${page.scheme}` };
  }
  const at = new Date(leaf.publishedAt).toISOString();
  if (page.publishedAt !== undefined && leaf.publishedAt !== page.publishedAt) {
    return { id: 'checkpoint', ok: false, detail: `the log's leaf says page ${page.page} was published at ${at}, the block says at ${new Date(page.publishedAt).toISOString()}` };
  }
  if (leaf.publishedAt > page.soldAt) return { id: 'checkpoint', ok: false, detail: `the log's leaf says page ${page.page} was published at ${at}, after the sale at ${new Date(page.soldAt).toISOString()}` };
  const { checkpoint } = log.inclusion;
  let detail = `page ${page.page} of ${page.blockId} is leaf ${log.inclusion.index} of the log ${checkpoint.logId}, under its checkpoint of ${checkpoint.treeSize} leaves signed by key ${checkpoint.keyId}`;
  if (log.saved) {
    const problem = await extensionProblem(log.saved, checkpoint, log.key);
    if (problem) return { id: 'checkpoint', ok: false, detail: problem };
    detail += `, which extends the checkpoint saved at ${log.saved.checkpoint.treeSize} leaves`;
  }
  return { id: 'checkpoint', ok: true, detail };
}

/**
 * Why the log's checkpoint does not extend the one saved, or undefined: a log smaller than a
 * checkpoint already seen was rolled back; one of the same size or larger that no consistency
 * proof joins to it forked. Either is the signed evidence the log exists to give.
 */
async function extensionProblem(saved: NonNullable<LogAnswers['saved']>, current: SignedCheckpoint, key: LogKeyReply): Promise<string | undefined> {
  const seen = saved.checkpoint;
  const savedKey = key.keys?.find((k) => k.keyId === seen?.keyId)?.raw;
  if (!savedKey) return `the saved checkpoint names key ${String(seen?.keyId)}, which the log does not list`;
  // Another log's checkpoint is not this one's past or future, whatever its size.
  if (seen.logId !== current.logId) return `the log's checkpoint does not extend the one saved: the checkpoints are of two logs (${String(seen.logId)}, ${current.logId})`;
  if (current.treeSize < seen.treeSize) {
    const signed = await verifyCheckpoint(seen, savedKey);
    if (!signed.ok) return `the checkpoint saved before does not verify: ${signed.reason}`;
    return `the log was rolled back: its checkpoint has ${current.treeSize} leaves, fewer than the ${seen.treeSize} of a checkpoint it signed before (saved), so it dropped leaves it had published`;
  }
  if (!saved.consistency) return `the log gives no consistency proof from the saved checkpoint of ${seen.treeSize} leaves to its ${current.treeSize}: nothing shows it extends what it signed before`;
  const consistent = await verifyCheckpointConsistency(seen, current, saved.consistency, key.raw, savedKey);
  if (!consistent.ok) return `the log forked: its checkpoint of ${current.treeSize} leaves does not extend the one saved at ${seen.treeSize} (${consistent.reason})`;
  return undefined;
}
