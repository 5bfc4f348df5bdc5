import type { ConsistencyReply, InclusionReply, LogKeyReply, SignedCheckpoint } from '../../protocol/transparency-log';
import type { UnitCheck } from '../../protocol/verification';
import { verifyCheckpointConsistency, verifyPageInclusion } from '../transparency-log';

/** What the log of page roots answered about a recall's page (docs/fairness.md, "Checkpoints"). */
export interface LogAnswers {
  /** `GET /fairness/log/key`. */
  readonly key: LogKeyReply;
  /** `GET /fairness/log/inclusion?blockId=&page=` for the recall's page; undefined: it answered 404. */
  readonly inclusion: InclusionReply | undefined;
  /** A checkpoint the verifier saved before, and `GET /fairness/log/consistency` from its size to the inclusion's. */
  readonly saved?: { readonly checkpoint: SignedCheckpoint; readonly consistency: ConsistencyReply };
}

/**
 * The recall's page root is a leaf of the log under a checkpoint signed by the log's key and,
 * given a checkpoint saved before, that checkpoint is consistent with it.
 */
export async function checkpointCheck(page: { readonly blockId: string; readonly page: number; readonly root: string }, log: LogAnswers): Promise<UnitCheck> {
  if (!log.inclusion) return { id: 'checkpoint', ok: false, detail: `the log of page roots holds no leaf for page ${page.page} of ${page.blockId}` };
  const included = await verifyPageInclusion(log.inclusion, log.key.raw, page);
  if (!included.ok) return { id: 'checkpoint', ok: false, detail: `the log of page roots: ${included.reason}` };
  const { checkpoint } = log.inclusion;
  let detail = `page ${page.page} of ${page.blockId} is leaf ${log.inclusion.index} of the log ${checkpoint.logId}, under its checkpoint of ${checkpoint.treeSize} leaves signed by key ${checkpoint.keyId}`;
  if (log.saved) {
    const saved = log.saved.checkpoint;
    const savedKey = log.key.keys?.find((k) => k.keyId === saved?.keyId)?.raw;
    if (!savedKey) return { id: 'checkpoint', ok: false, detail: `the saved checkpoint names key ${String(saved?.keyId)}, which the log does not list` };
    const consistent = await verifyCheckpointConsistency(saved, checkpoint, log.saved.consistency, log.key.raw, savedKey);
    if (!consistent.ok) return { id: 'checkpoint', ok: false, detail: `the log's checkpoint does not extend the one saved: ${consistent.reason}` };
    detail += `, which extends the checkpoint saved at ${saved.treeSize} leaves`;
  }
  return { id: 'checkpoint', ok: true, detail };
}
