import { pageHeight, pageOf } from '../../fairness/page-geometry';
import { prizeOfTier } from '../../games/prize-tables';
import type { PublicBlockDetail } from '../../protocol/fairness';
import type { UnitCheck, UnitVerification } from '../../protocol/verification';
import { completedByCheck, presentationCheck, purchaseCheck, timesCheck } from './agreement-checks';
import { checkpointCheck, type LogAnswers } from './checkpoint-check';
import { pageRootOf, unitSeedOf } from './hashing';
import { ledgerCheck } from './ledger-check';
import { readRecall, timeOf, type RecallRead } from './recall-shape';
import { replayChecks, scoredScenarioCheck } from './replay-checks';

export type { UnitCheck, UnitCheckId, UnitVerification } from '../../protocol/verification';
export type { LogAnswers } from './checkpoint-check';

/**
 * Checks a finished unit's recall (parsed JSON, untrusted) against its block as published
 * (`GET /fairness/blocks/:blockId`), as docs/fairness.md "Verifying a unit" says: the same code in
 * `npm run verify-unit` and in the page (WebCrypto, no `node:` import). Without `published` the
 * proof is checked against the recall's own page root only, which proves nothing unless `offline`
 * says the caller knows; the `published-root` check fails otherwise. A server asked for its log of
 * page roots that has none (`log.missing`: where it answered so) fails the `checkpoint` check:
 * every server keeps one, and without it nothing shows the root is the one published first.
 */
export async function verifyUnit(recall: unknown, sources: { published?: PublicBlockDetail; offline?: boolean; log?: LogAnswers | { readonly missing: string } }): Promise<UnitVerification> {
  const read = readRecall(recall);
  if (typeof read === 'string') return { ok: false, checks: [{ id: 'format', ok: false, detail: read }], notes: [] };
  const checks: UnitCheck[] = [{ id: 'format', ok: true, detail: `a finished ${read.game} unit at ${read.stake} cents, ${read.format}, scheme ${read.fairness.scheme}` }];
  const notes: string[] = [];
  checks.push(positionCheck(read));
  const height = pageHeight(read.table.blockSize);
  const root = read.proof.siblings.length === height ? await pageRootOf(read.proof, { game: read.game, stake: read.stake, blockId: read.blockId }) : undefined;
  checks.push(
    root === undefined
      ? { id: 'proof', ok: false, detail: `the proof has ${read.proof.siblings.length} siblings, a page of this block needs ${height}` }
      : root === read.fairness.pageRoot
        ? { id: 'proof', ok: true, detail: `the proof leads to the recalled page root ${root}` }
        : { id: 'proof', ok: false, detail: `the proof leads to ${root}, not to the recalled page root ${String(read.fairness.pageRoot)}` },
  );
  checks.push(...publishedChecks(read, root, sources, notes));
  if (sources.log && 'missing' in sources.log) {
    checks.push({ id: 'checkpoint', ok: false, detail: `the server has no log of page roots (${sources.log.missing}): nothing shows the page root is the one it published first` });
  } else if (sources.log) {
    const page = pageOf(read.table.blockSize, read.position);
    const published = sources.published?.pages?.find((p) => p.page === page)?.publishedAt;
    checks.push(await checkpointCheck({
      scheme: read.fairness.scheme,
      game: read.game,
      stake: read.stake,
      blockId: read.blockId,
      page,
      root: root ?? String(read.fairness.pageRoot),
      publishedAt: published === undefined ? undefined : Date.parse(published),
      soldAt: read.soldAt,
    }, sources.log));
  } else {
    notes.push('the log of page roots was not asked: nothing here shows the published root is the one published at first (give the server, and a checkpoint saved before)');
  }
  const provenPrize = prizeOf(read);
  checks.push(
    provenPrize !== undefined && provenPrize === read.prize
      ? { id: 'prize', ok: true, detail: `the proven tier ${read.proof.tierId} pays ${provenPrize} cents, the recalled prize` }
      : { id: 'prize', ok: false, detail: `the proven tier ${read.proof.tierId} pays ${String(provenPrize)} cents; the recall says ${read.prize}` },
  );
  const prize = provenPrize ?? read.prize;
  // Scheme 3 deals the purchase step again from the unit seed; scheme 2 has only the step recalled.
  let purchaseEvents: readonly unknown[] | undefined = read.steps[0]?.events;
  if (read.fairness.scheme === 3) {
    checks.push(await unitSeedCheck(read, sources.published));
    const replay = replayChecks(read, prize);
    checks.push(...replay.checks);
    purchaseEvents = replay.purchaseEvents;
  } else {
    checks.push(scoredScenarioCheck(read, prize));
    notes.push('scheme 2 binds the tier, not the unit seed: the scenario\'s origin and the steps shown cannot be checked before the block\'s seed is public, once it is closed and all its units settled (npm run verify-block re-generates them then)');
  }
  checks.push(ledgerCheck(read, prize), timesCheck(read), completedByCheck(read), purchaseCheck(read), presentationCheck(read, purchaseEvents));
  return { ok: checks.every((c) => c.ok), checks, notes };
}

function prizeOf(read: RecallRead): number | undefined {
  try {
    return prizeOfTier(read.table, read.proof.tierId);
  } catch {
    return undefined;
  }
}

function positionCheck(read: RecallRead): UnitCheck {
  const { fairness, proof, position, blockId, table } = read;
  const page = pageOf(table.blockSize, position);
  const problems = [
    proof.position !== position || fairness.position !== position ? `the proof's position ${proof.position} or the fairness record's ${String(fairness.position)} is not the unit's ${position}` : '',
    fairness.blockId !== blockId ? `the fairness record names block ${String(fairness.blockId)}, the unit ${blockId}` : '',
    read.unitId !== `${blockId}:${position}` ? `the unit id ${read.unitId} is not position ${position} of ${blockId}` : '',
    proof.size !== table.blockSize || fairness.blockSize !== table.blockSize ? `the proof's block size ${proof.size} or the fairness record's ${String(fairness.blockSize)} is not the table's ${table.blockSize}` : '',
    fairness.page !== page ? `the recall names page ${String(fairness.page)}, position ${position} is in page ${page}` : '',
  ].filter((p) => p !== '');
  return problems.length === 0
    ? { id: 'position', ok: true, detail: `position ${position} of block ${blockId} (page ${page}), in the proof and the recall alike` }
    : { id: 'position', ok: false, detail: problems[0]! };
}

function publishedChecks(read: RecallRead, root: string | undefined, sources: { published?: PublicBlockDetail; offline?: boolean }, notes: string[]): UnitCheck[] {
  const published = sources.published;
  if (!published) {
    if (!sources.offline) return [{ id: 'published-root', ok: false, detail: 'no published page root was given: without it the proof is checked only against the recall\'s own root (fetch the block, or accept offline)' }];
    notes.push('offline: checked against the recall\'s own page root, not against one the server published');
    return [];
  }
  const page = pageOf(read.table.blockSize, read.position);
  const publishedPage = published.pages?.find((p) => p.page === page);
  const mismatch = [
    published.blockId !== read.blockId || published.game !== read.game || published.stake !== read.stake ? `the published block is ${published.blockId} (${published.game} at ${published.stake} cents), not the unit's ${read.blockId}` : '',
    published.scheme !== read.fairness.scheme ? `the block is published under scheme ${published.scheme}, the recall says ${read.fairness.scheme}` : '',
    published.commitment !== read.fairness.commitment ? `the recalled commitment ${String(read.fairness.commitment)} is not the published ${published.commitment}` : '',
    !publishedPage || publishedPage.root !== root ? `the proof leads to ${String(root)}, the published root of page ${page} is ${publishedPage?.root ?? 'not published'}` : '',
  ].filter((p) => p !== '');
  const checks: UnitCheck[] = [
    mismatch.length === 0
      ? { id: 'published-root', ok: true, detail: `the proof leads to the published root of page ${page} of ${published.blockId}, under the published commitment` }
      : { id: 'published-root', ok: false, detail: mismatch[0]! },
  ];
  if (publishedPage) {
    const at = Date.parse(publishedPage.publishedAt);
    const recalled = timeOf(read.fairness.pagePublishedAt);
    checks.push(
      !(at <= read.soldAt)
        ? { id: 'published-in-time', ok: false, detail: `page ${page} was published at ${publishedPage.publishedAt}, after the sale at ${new Date(read.soldAt).toISOString()}` }
        : recalled !== at
          ? { id: 'published-in-time', ok: false, detail: `the recall says page ${page} was published at ${String(read.fairness.pagePublishedAt)}, the server publishes it at ${publishedPage.publishedAt}` }
          : { id: 'published-in-time', ok: true, detail: `page ${page} was published at ${publishedPage.publishedAt}, as the recall says, no later than the sale` },
    );
  }
  return checks;
}

/** The unit seed is bound by the leaf (the proof); once the block's seed is public (closed, every unit settled), it must derive from it. */
async function unitSeedCheck(read: RecallRead, published: PublicBlockDetail | undefined): Promise<UnitCheck> {
  if (published?.seed === undefined || published.seed === null) {
    return { id: 'unit-seed', ok: true, detail: 'the unit seed is the one the proof\'s leaf binds; its derivation from the block seed is checked once that seed is public (the block closed, all its units settled)' };
  }
  // A seed the block shows must be checked, never passed over: one that is not hex fails.
  if (typeof published.seed !== 'string' || !/^[0-9a-f]{64}$/.test(published.seed)) {
    return { id: 'unit-seed', ok: false, detail: `the block's published seed ${JSON.stringify(published.seed)?.slice(0, 80)} is not 32 bytes of lowercase hex` };
  }
  const derived = await unitSeedOf(published.seed, read.position);
  return derived === read.proof.secret
    ? { id: 'unit-seed', ok: true, detail: `the unit seed derives from the block's revealed seed at position ${read.position}` }
    : { id: 'unit-seed', ok: false, detail: `the block's revealed seed gives the unit seed ${derived} at position ${read.position}, not the recalled one` };
}
