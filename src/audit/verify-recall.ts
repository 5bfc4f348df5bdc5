import { pageOf, pageRange, pageRoot, pageRootOfProof, leafSalts, type UnitProof } from '../dealer/merkle';
import { printBlock, unitSeed } from '../dealer/printing';
import type { PublicBlockDetail } from '../dealer/fairness-report';
import { findPrizeTable, prizeOfTier } from '../games/prize-tables';
import { rulesOf } from '../games/registry';
import { GAME_IDS, type GameId } from '../games/types';

/**
 * What `npm run verify-unit` checks in a recall (docs/fairness.md, "Verifying a unit"): its
 * Merkle proof leads to the page root it names, and to the one published for its block; the
 * page was published no later than the sale; the proven tier pays the recalled prize; the
 * scenario re-scores to that prize with the game's evaluator and breaks no rule. With the
 * block's revealed seed (a closed block), also: the salt and the page root derive from it.
 */

export interface RecallVerification {
  readonly ok: boolean;
  /** Each check that held, as a sentence. */
  readonly passed: string[];
  readonly problems: string[];
}

interface RecallShape {
  format?: unknown;
  unitId?: unknown;
  game?: unknown;
  stake?: unknown;
  blockId?: unknown;
  position?: unknown;
  status?: unknown;
  soldAt?: unknown;
  prize?: unknown;
  picks?: unknown;
  scenario?: unknown;
  fairness?: {
    scheme?: unknown;
    blockId?: unknown;
    blockSize?: unknown;
    position?: unknown;
    commitment?: unknown;
    page?: unknown;
    pageRoot?: unknown;
    pagePublishedAt?: unknown;
    proof?: unknown;
  };
}

function isGameId(game: unknown): game is GameId {
  return typeof game === 'string' && (GAME_IDS as readonly string[]).includes(game);
}

/**
 * Checks a recall record (parsed JSON, untrusted) against the published block when given
 * (`GET /fairness/blocks/:blockId`), else against what the recall itself names.
 */
export function verifyRecall(input: unknown, published?: PublicBlockDetail): RecallVerification {
  const passed: string[] = [];
  const problems: string[] = [];
  const check = (holds: boolean, ok: string, problem: string): boolean => {
    (holds ? passed : problems).push(holds ? ok : problem);
    return holds;
  };
  const done = () => ({ ok: problems.length === 0, passed, problems });

  const recall = (typeof input === 'object' && input !== null ? input : {}) as RecallShape;
  if (!check(recall.format === 'unit-recall/v2', 'format unit-recall/v2', `format ${String(recall.format)}: expected unit-recall/v2`)) return done();
  if (!check(recall.status === 'finished', 'the unit is finished', 'the unit is not finished: its outcome is not shown yet')) return done();
  const fairness = recall.fairness ?? {};
  if (!check(fairness.scheme === 2, 'scheme 2 (Merkle pages)', `scheme ${String(fairness.scheme)}: no per-unit proof; verify the whole block once it closes`)) return done();
  const { game, stake, position, blockId } = recall;
  const table = isGameId(game) && typeof stake === 'number' ? findPrizeTable(game, stake) : undefined;
  if (!check(table !== undefined, `${String(game)} is sold at ${String(stake)} cents`, `no prize table for ${String(game)} at ${String(stake)}`)) return done();
  const given = fairness.proof as UnitProof | null | undefined;
  if (!check(typeof given === 'object' && given !== null, 'the recall carries a proof', 'the recall carries no proof')) return done();
  const proof = given!;
  check(
    proof.position === position && fairness.position === position && fairness.blockId === blockId,
    `the proof is for position ${String(position)} of ${String(blockId)}`,
    `the proof's position ${String(proof.position)} is not the unit's (${String(position)} of ${String(blockId)})`,
  );
  check(proof.size === table!.blockSize && fairness.blockSize === table!.blockSize, `block size ${table!.blockSize}, as the table says`, `block size ${String(proof.size)} is not the table's ${table!.blockSize}`);

  const root = pageRootOfProof(proof);
  if (!check(root !== undefined, 'the proof is well formed', 'the proof is malformed (sibling count, hex, position or tier)')) return done();
  const page = pageOf(proof.size, proof.position);
  check(fairness.page === page, `page ${page}`, `the recall names page ${String(fairness.page)}, the position is in page ${page}`);
  check(root === fairness.pageRoot, `the proof leads to the recalled page root ${root}`, `the proof leads to ${root}, not to the recalled page root ${String(fairness.pageRoot)}`);

  if (published) {
    check(published.blockId === blockId && published.scheme === 2, 'the published block is the unit\'s, scheme 2', `the published block is ${published.blockId} (scheme ${published.scheme})`);
    check(published.commitment === fairness.commitment, 'the recalled commitment is the published one', `the recalled commitment ${String(fairness.commitment)} is not the published ${published.commitment}`);
    const publishedPage = published.pages.find((p) => p.page === page);
    if (check(publishedPage !== undefined && publishedPage.root === root, `the proof leads to the published root of page ${page}`, `the proof does not lead to the published root of page ${page} (${publishedPage?.root ?? 'not published'})`)) {
      const soldAt = typeof recall.soldAt === 'string' ? Date.parse(recall.soldAt) : Number.NaN;
      check(Date.parse(publishedPage!.publishedAt) <= soldAt, `page ${page} was published at ${publishedPage!.publishedAt}, before the sale at ${String(recall.soldAt)}`, `page ${page} was published at ${publishedPage!.publishedAt}, after the sale at ${String(recall.soldAt)}`);
    }
  }

  const prize = prizeOfTierOrUndefined(table!, proof.tierId);
  check(prize !== undefined && prize === recall.prize, `tier ${proof.tierId} pays ${String(prize)} cents, the recalled prize`, `tier ${proof.tierId} pays ${String(prize)} cents; the recall says ${String(recall.prize)}`);
  const rules = rulesOf(game as GameId);
  try {
    const scored = rules.evaluate(recall.scenario);
    check(scored === recall.prize, `the scenario re-scores to ${scored} cents with the ${String(game)} evaluator`, `the scenario scores ${scored} cents; the recall says ${String(recall.prize)}`);
    const broken = rules.ruleViolations(recall.scenario);
    check(broken.length === 0, 'the scenario breaks no rule of the game', `the scenario breaks rules: ${broken.join('; ')}`);
  } catch (err) {
    check(false, '', `the scenario cannot be scored: ${String(err)}`);
  }

  if (published?.seed) {
    const seed = Buffer.from(published.seed, 'hex');
    check(Buffer.from(leafSalts(seed, proof.position, 1)).toString('hex') === proof.salt, 'the salt derives from the revealed seed', 'the salt does not derive from the revealed seed');
    const units = printBlock(table!, seed);
    check(units[proof.position] === proof.tierId, `the re-print from the seed has tier ${proof.tierId} at position ${proof.position}`, `the re-print has tier ${units[proof.position]} at position ${proof.position}`);
    const { from, count } = pageRange(proof.size, page);
    const derived = Buffer.from(pageRoot(seed, proof.size, page, units.subarray(from, from + count))).toString('hex');
    check(derived === root, `the seed re-derives the root of page ${page}`, `the seed derives ${derived} for page ${page}`);
    if (typeof recall.prize === 'number') {
      const again = rules.generate({ stake: stake as number, prize: recall.prize }, unitSeed(seed, proof.position), choiceOf(game as GameId, recall));
      check(
        JSON.stringify(again) === JSON.stringify(recall.scenario),
        'the unit seed re-generates the scenario exactly',
        'the unit seed generates another scenario than the recalled one',
      );
    }
  }
  return done();
}

/** The player's choice a scenario was drawn for: Noël's symbol (in its scenario), the lamp's pick. */
function choiceOf(game: GameId, recall: RecallShape): unknown {
  if (game === 'noel-de-la-chance') return { symbol: (recall.scenario as { symbol?: unknown } | null)?.symbol };
  if (game === 'mysteres-de-la-lampe') return recall.picks;
  return undefined;
}

function prizeOfTierOrUndefined(table: Parameters<typeof prizeOfTier>[0], tierId: number): number | undefined {
  try {
    return prizeOfTier(table, tierId);
  } catch {
    return undefined;
  }
}
