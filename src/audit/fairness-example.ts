import { createHash } from 'node:crypto';
import { domainTag, leafMessage, type LeafScheme } from '../fairness/leaf-domain';
import { buildBlockTree, pageRootOfProof, pageTree, proveUnit, treeDepth } from '../fairness/merkle';
import { commitmentOf, printBlock, tierCounts, unitSeed, unitSeeds } from '../fairness/printing';
import { NOEL_TABLES } from '../games/noel-de-la-chance/prize-table';
import { rulesOf } from '../games/registry';
import type { PrizeTable } from '../games/types';
import { nonceFor, Rng } from '../random/rng';

/**
 * The worked example of docs/fairness.md, computed: a 10-unit block of Le Noël de la chance's
 * shape under the seed 00 01 … 1f, scheme 3, from the shuffle to a unit's proof and scenario. The doc
 * holds this text between its example markers (`npm run fairness-example` rewrites it; a test
 * checks it is current), so every hex digit in the doc is what the code computes.
 */

const EXAMPLE_SEED = Uint8Array.from({ length: 32 }, (_, i) => i);
const EXAMPLE_POSITION = 4;
/** The example block's id: scheme 3 binds it in the commitment and every leaf. */
const EXAMPLE_BLOCK_ID = 'noel-example.0';

/** Le Noël de la chance at 0.50 € scaled to 10 units: 6 winners, 4 losing. */
export const EXAMPLE_TABLE: PrizeTable = {
  ...NOEL_TABLES[0]!,
  blockSize: 10,
  tiers: NOEL_TABLES[0]!.tiers.map((tier, i) => ({ prize: tier.prize, count: [0, 0, 1, 1, 1, 2, 1][i]! })),
};

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The shuffle's rows, one per swap: i, the keystream words drawn (rejections included), and j. */
function shuffleRows(seed: Uint8Array, n: number): string[] {
  const rng = new Rng(seed, nonceFor('block'));
  const swaps: string[] = [];
  for (let i = n - 1; i > 0; i--) {
    const words: number[] = [];
    const limit = 0x100000000 - (0x100000000 % (i + 1));
    let x = rng.nextU32();
    words.push(x);
    while (x >= limit) words.push((x = rng.nextU32()));
    swaps.push(`| ${i} | ${words.map((w) => `0x${w.toString(16).padStart(8, '0')}`).join(', ')} | ${x % (i + 1)} |`);
  }
  return swaps;
}

/** The leaves' rows: position, tier, unit seed and leaf (scheme 3, under the leaf tag). */
function leafTableRows(units: Uint8Array, seeds: Uint8Array, leafTag: Uint8Array): string[] {
  return [...units].map((tierId, p) => {
    const secret = seeds.subarray(32 * p, 32 * p + 32);
    const leaf = createHash('sha256').update(leafTag).update(leafTag).update(leafMessage(3, p, tierId, secret)).digest('hex');
    return `| ${p} | ${tierId} | ${hex(secret)} | ${leaf} |`;
  });
}

export function fairnessExample(): string {
  const seed = EXAMPLE_SEED;
  const table = EXAMPLE_TABLE;
  const n = table.blockSize;
  const filled = tierCounts(table).flatMap((count, tierId) => new Array<number>(count).fill(tierId));
  const swaps = shuffleRows(seed, n);
  const units = printBlock(table, seed);
  const scheme: LeafScheme = { version: 3, game: table.game, stake: table.stake, blockId: EXAMPLE_BLOCK_ID };
  const seeds = unitSeeds(seed, 0, n);
  const tree = buildBlockTree(seed, units, scheme);
  const leafTagText = domainTag('unit-leaf', scheme);
  const leafTag = createHash('sha256').update(leafTagText, 'utf8').digest();
  const commitmentTagText = domainTag('block-commitment', scheme);
  const leafRows = leafTableRows(units, seeds, leafTag);
  const proof = proveUnit(pageTree(seed, n, 0, units, scheme), EXAMPLE_POSITION);
  const tierId = units[EXAMPLE_POSITION]!;
  const prize = tierId === 0 ? 0 : table.tiers[tierId - 1]!.prize;
  const rules = rulesOf('noel-de-la-chance');
  const scenario = rules.generate({ stake: table.stake, prize }, unitSeed(seed, EXAMPLE_POSITION), { symbol: 'star' });
  const lines = [
    `Table: ${n} units of Le Noël de la chance at 0.50 €; tier ids and counts: ${tierCounts(table)
      .map((count, t) => `${t} × ${count}${t === 0 ? ' (losing)' : ` (${table.tiers[t - 1]!.prize} cents)`}`)
      .join(', ')}.`,
    '',
    `Seed: \`${hex(seed)}\``,
    '',
    `Filled in tier order: \`[${filled.join(', ')}]\``,
    '',
    'Shuffle (key = seed, nonce = `"block"` + 7 zero bytes): for each i, the keystream words drawn (a word is',
    'rejected while ≥ ⌊2³²/(i+1)⌋·(i+1)), and j = the last word mod (i+1); swap bytes i and j.',
    '',
    '| i | words | j |',
    '|---|---|---|',
    ...swaps,
    '',
    `Printed block (byte p = tier id at position p): \`[${[...units].join(', ')}]\``,
    '',
    `Block id \`${EXAMPLE_BLOCK_ID}\`. Commitment tag C = SHA-256(\`${commitmentTagText}\`) = \`${hex(createHash('sha256').update(commitmentTagText, 'utf8').digest())}\`;`,
    `commitment = SHA-256(C ‖ C ‖ seed ‖ printed block): \`${commitmentOf(seed, units, scheme)}\``,
    '',
    `Leaf tag T = SHA-256(\`${leafTagText}\`) = \`${hex(leafTag)}\`. Unit seeds (HMAC-SHA256(seed, \`unit-seed/v1/<p>\`))`,
    'and leaves (SHA-256 of `T ‖ T ‖ 00 03 ‖ u32be(p) ‖ tierId ‖ unitSeed(p)`):',
    '',
    '| p | tier | unit seed | leaf |',
    '|---|---|---|---|',
    ...leafRows,
    '',
    `Depth ⌈log2 ${n}⌉ = ${treeDepth(n)}, so the block is one page of height ${treeDepth(n)} (16 leaves, the 6 past the end`,
    `are 32 zero bytes). Page 0's root, published when the block was printed, is also the block's root:`,
    `\`${hex(tree.pageRoots[0]!)}\``,
    '',
    `Proof of position ${EXAMPLE_POSITION} (tier ${tierId}, ${prize} cents), as a recall carries it:`,
    '',
    '```json',
    JSON.stringify(proof, null, 2),
    '```',
    '',
    `Checking it: h0 = leaf(${EXAMPLE_POSITION}) = SHA-256(\`T ‖ T ‖ 00 03 ${EXAMPLE_POSITION.toString(16).padStart(8, '0')} ${tierId.toString(16).padStart(2, '0')} ‖ unitSeed\`); then, for k = 0 … ${proof.siblings.length - 1},`,
    `bit k of ${EXAMPLE_POSITION} (${EXAMPLE_POSITION.toString(2).padStart(proof.siblings.length, '0')} in binary) says whether h(k) is a right child:`,
    proof.siblings.map((_, k) => (Math.floor(EXAMPLE_POSITION / 2 ** k) % 2 === 1 ? `h${k + 1} = SHA-256(s${k} ‖ h${k})` : `h${k + 1} = SHA-256(h${k} ‖ s${k})`)).join(', ') + ',',
    `and h${proof.siblings.length} = \`${pageRootOfProof(proof, scheme)}\`, the page root.`,
    '',
    `The proof's unit seed (HMAC-SHA256(seed, "unit-seed/v1/${EXAMPLE_POSITION}"), revealed once the unit is finished) re-generates`,
    `its scenario for the pick "star" (docs/games/noel-de-la-chance.md), which the evaluator scores ${rules.evaluate(scenario)} cents:`,
    '',
    '```json',
    JSON.stringify(scenario),
    '```',
  ];
  return lines.join('\n');
}

const EXAMPLE_START = '<!-- example:start (npm run fairness-example) -->';
const EXAMPLE_END = '<!-- example:end -->';

/** The doc with `example` between its markers. */
export function withExample(doc: string, example: string): string {
  const start = doc.indexOf(EXAMPLE_START);
  const end = doc.indexOf(EXAMPLE_END);
  if (start < 0 || end < start) throw new Error('docs/fairness.md has no example markers');
  return `${doc.slice(0, start + EXAMPLE_START.length)}\n${example}\n${doc.slice(end)}`;
}
