import { formatEuros, type Cents } from '../money';
import type { GameId } from '../games/types';
import { buildBlockTree, leafSchemeOf, type LeafScheme } from '../fairness/merkle';
import { printBlock, verifyBlock } from '../fairness/printing';
import { seedIsPublic } from '../fairness/public-blocks';
import type { BlockState, DealerStore, EmissionInfo } from '../dealer/types';

/** What the operator's reports read of the dealer. */
export type ReportedBlocks = Pick<DealerStore, 'emissions' | 'pages'>;

/**
 * The operator's view of the dealer as JSON-safe reports, built from any DealerStore: the list
 * of emissions and blocks, and the verification of a closed block from its revealed seed. The
 * server serves them at `GET /admin/blocks` and `GET /admin/blocks/:blockId/verify`;
 * `npm run blocks` prints them, from Redis directly or from a server.
 */

export interface TierReport {
  /** 0: losing units. */
  readonly tierId: number;
  readonly prize: Cents;
  /** Units of this tier in a block (the table's count). */
  readonly count: number;
  readonly won: number;
  readonly left: number;
}

export interface BlockReport {
  readonly blockId: string;
  readonly index: number;
  readonly state: BlockState;
  readonly size: number;
  readonly sold: number;
  readonly unsold: number;
  readonly tiers: readonly TierReport[];
  /** Total of the prizes of the units sold, and of the units left. */
  readonly prizesWon: Cents;
  readonly prizesLeft: Cents;
  readonly commitment: string;
  /** Shown as the public routes show it: once the block is closed and every unit of it has ended. */
  readonly seed?: string;
}

export interface EmissionReport {
  readonly emissionId: string;
  readonly game: GameId;
  readonly stake: Cents;
  readonly state: 'selling' | 'closed';
  readonly blockCount: number;
  /** Blocks printed so far (the open one and the next, plus the closed ones). */
  readonly blocks: readonly BlockReport[];
}

export interface BlocksReport {
  readonly emissions: readonly EmissionReport[];
}

export interface BlockVerificationReport {
  readonly blockId: string;
  readonly emissionId: string;
  readonly game: GameId;
  readonly stake: Cents;
  readonly state: BlockState;
  readonly verified: boolean;
  readonly checkedUnits: number;
  readonly problems: readonly string[];
  readonly commitment: string;
  /** As in the list: withheld while a unit of the block is in play (it is verified all the same). */
  readonly seed?: string;
}

function emissionReport(emission: EmissionInfo): EmissionReport {
  const { table } = emission;
  const prizes = [0, ...table.tiers.map((t) => t.prize)];
  const counts = [table.blockSize - table.tiers.reduce((n, t) => n + t.count, 0), ...table.tiers.map((t) => t.count)];
  const blocks = emission.blocks.map((block): BlockReport => {
    const tiers = counts.map((count, tierId) => {
      const won = block.soldPerTier[tierId] ?? 0;
      return { tierId, prize: prizes[tierId]!, count, won, left: count - won };
    });
    return {
      blockId: block.blockId,
      index: block.index,
      state: block.state,
      size: block.size,
      sold: block.sold,
      unsold: block.size - block.sold,
      tiers,
      prizesWon: tiers.reduce((sum, t) => sum + t.prize * t.won, 0),
      prizesLeft: tiers.reduce((sum, t) => sum + t.prize * t.left, 0),
      commitment: block.commitment,
      ...(block.seed !== undefined && seedIsPublic(block) ? { seed: block.seed } : {}),
    };
  });
  const closed = blocks.length === emission.blockCount && blocks.every((b) => b.state === 'closed');
  return {
    emissionId: emission.emissionId,
    game: emission.game,
    stake: emission.stake,
    state: closed ? 'closed' : 'selling',
    blockCount: emission.blockCount,
    blocks,
  };
}

export async function blocksReport(store: ReportedBlocks): Promise<BlocksReport> {
  return { emissions: (await store.emissions.listEmissions()).map(emissionReport) };
}

/**
 * Re-prints a block from its revealed seed and checks its commitment and every sold unit, and
 * (schemes 2 and 3) that the seed re-derives every published page root. Undefined for an unknown
 * block; a block still selling is not verified (its seed is secret).
 */
export async function verifyBlockReport(store: ReportedBlocks, blockId: string): Promise<BlockVerificationReport | undefined> {
  for (const emission of await store.emissions.listEmissions()) {
    const block = emission.blocks.find((b) => b.blockId === blockId);
    if (!block) continue;
    const base = {
      blockId,
      emissionId: emission.emissionId,
      game: emission.game,
      stake: emission.stake,
      state: block.state,
      commitment: block.commitment,
    };
    if (block.state !== 'closed' || block.seed === undefined) {
      return { ...base, verified: false, checkedUnits: 0, problems: [`block is ${block.state}: its seed is revealed only once it is sold out`] };
    }
    const recordedTiers = await store.pages.recordedTiers(blockId);
    if (!recordedTiers) return undefined;
    const seed = Buffer.from(block.seed, 'hex');
    const scheme = leafSchemeOf(block);
    const result = verifyBlock({ table: emission.table, seed, commitment: block.commitment, scheme, recordedTiers, requireAllSold: true });
    const problems = [...result.problems];
    if (block.scheme >= 2) problems.push(...(await pageProblems(store, blockId, seed, emission.table, scheme)));
    const shown = seedIsPublic(block) ? { seed: block.seed } : {};
    return { ...base, ...shown, verified: problems.length === 0, checkedUnits: result.checkedUnits, problems };
  }
  return undefined;
}

/** Every published page root against the one the seed derives (a closed block has them all). */
async function pageProblems(store: ReportedBlocks, blockId: string, seed: Uint8Array, table: EmissionInfo['table'], scheme: LeafScheme): Promise<string[]> {
  const published = (await store.pages.pageCommitments(blockId)) ?? [];
  const derived = buildBlockTree(seed, printBlock(table, seed), scheme).pageRoots.map((root) => Buffer.from(root).toString('hex'));
  const problems = published.flatMap((page) => (derived[page.page] === page.root ? [] : [`page ${page.page}: published root ${page.root}, the seed derives ${derived[page.page]}`]));
  if (published.length !== derived.length) problems.push(`${published.length} page roots published for ${derived.length} pages`);
  return problems;
}

function pad(text: string | number, width: number): string {
  return String(text).padStart(width);
}

export function formatBlocksReport(report: BlocksReport): string {
  if (report.emissions.length === 0) return 'no emissions';
  const lines: string[] = [];
  for (const e of report.emissions) {
    lines.push(`emission ${e.emissionId}: ${e.game} at ${formatEuros(e.stake)} €, ${e.state}, ${e.blocks.length} of ${e.blockCount} blocks printed`);
    for (const b of e.blocks) {
      lines.push(`  block ${b.blockId}  ${b.state}  sold ${b.sold} / ${b.size}  unsold ${b.unsold}`);
      lines.push(`    prizes won ${formatEuros(b.prizesWon)} €, left ${formatEuros(b.prizesLeft)} €`);
      lines.push(`    commitment ${b.commitment}`);
      if (b.seed) lines.push(`    seed       ${b.seed}`);
      lines.push(`    ${pad('tier', 4)} ${pad('prize €', 12)} ${pad('count', 10)} ${pad('won', 10)} ${pad('left', 10)}`);
      for (const t of b.tiers) {
        const prize = t.tierId === 0 ? 'losing' : formatEuros(t.prize);
        lines.push(`    ${pad(t.tierId, 4)} ${pad(prize, 12)} ${pad(t.count, 10)} ${pad(t.won, 10)} ${pad(t.left, 10)}`);
      }
    }
  }
  return lines.join('\n');
}

export function formatVerification(report: BlockVerificationReport): string {
  const head = `block ${report.blockId} (${report.game} at ${formatEuros(report.stake)} €, ${report.state})`;
  if (report.verified) {
    const seed = report.seed === undefined ? 'its seed (withheld while a unit of it is in play)' : `seed ${report.seed}`;
    return `${head}: verified. Re-printed from ${seed}, commitment ${report.commitment} matches, ${report.checkedUnits} sold units match the print.`;
  }
  return [`${head}: NOT verified`, ...report.problems.map((p) => `  - ${p}`)].join('\n');
}
