import { createHash } from 'node:crypto';
import { buildBlockTree, leafSalts, pageRootOfProof, pageTree, proveUnit, treeDepth } from '../dealer/merkle';
import { commitmentOf, printBlock, tierCounts, unitSeed } from '../dealer/printing';
import { NOEL_TABLES } from '../games/noel-de-la-chance/prize-table';
import { rulesOf } from '../games/registry';
import type { PrizeTable } from '../games/types';
import { nonceFor, Rng } from '../random/rng';

/**
 * The worked example of docs/fairness.md, computed: a 10-unit block of Le Noël de la chance's
 * shape under the seed 00 01 … 1f, from the shuffle to a unit's proof and scenario. The doc
 * holds this text between its example markers (`npm run fairness-example` rewrites it; a test
 * checks it is current), so every hex digit in the doc is what the code computes.
 */

export const EXAMPLE_SEED = Uint8Array.from({ length: 32 }, (_, i) => i);
export const EXAMPLE_POSITION = 4;

/** Le Noël de la chance at 0.50 € scaled to 10 units: 6 winners, 4 losing. */
export const EXAMPLE_TABLE: PrizeTable = {
  ...NOEL_TABLES[0]!,
  blockSize: 10,
  tiers: NOEL_TABLES[0]!.tiers.map((tier, i) => ({ prize: tier.prize, count: [0, 0, 1, 1, 1, 2, 1][i]! })),
};

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

export function fairnessExample(): string {
  const seed = EXAMPLE_SEED;
  const table = EXAMPLE_TABLE;
  const n = table.blockSize;
  const filled = tierCounts(table).flatMap((count, tierId) => new Array<number>(count).fill(tierId));
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
  const units = printBlock(table, seed);
  const salts = leafSalts(seed, 0, n);
  const tree = buildBlockTree(seed, units);
  const leafRows = [...units].map((tierId, p) => {
    const message = Buffer.alloc(39);
    message[1] = 0x02;
    message.writeUInt32BE(p, 2);
    message[6] = tierId;
    message.set(salts.subarray(32 * p, 32 * p + 32), 7);
    return `| ${p} | ${tierId} | ${hex(salts.subarray(32 * p, 32 * p + 32))} | ${createHash('sha256').update(message).digest('hex')} |`;
  });
  const proof = proveUnit(pageTree(seed, n, 0, units), EXAMPLE_POSITION);
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
    `Commitment = SHA-256(seed ‖ printed block): \`${commitmentOf(seed, units)}\``,
    '',
    'Salts (ChaCha20, key = seed, nonce = `"leaf-salt"` + 3 zero bytes, 32 bytes per position) and leaves',
    '(SHA-256 of `00 02 ‖ u32be(p) ‖ tierId ‖ salt`):',
    '',
    '| p | tier | salt | leaf |',
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
    `Checking it: h0 = leaf(${EXAMPLE_POSITION}) = SHA-256(\`00 02 ${EXAMPLE_POSITION.toString(16).padStart(8, '0')} ${tierId.toString(16).padStart(2, '0')} ‖ salt\`); then, for k = 0 … ${proof.siblings.length - 1},`,
    `bit k of ${EXAMPLE_POSITION} (${EXAMPLE_POSITION.toString(2).padStart(proof.siblings.length, '0')} in binary) says whether h(k) is a right child:`,
    proof.siblings.map((_, k) => (Math.floor(EXAMPLE_POSITION / 2 ** k) % 2 === 1 ? `h${k + 1} = SHA-256(s${k} ‖ h${k})` : `h${k + 1} = SHA-256(h${k} ‖ s${k})`)).join(', ') + ',',
    `and h${proof.siblings.length} = \`${pageRootOfProof(proof)}\`, the page root.`,
    '',
    `Unit seed of position ${EXAMPLE_POSITION} = HMAC-SHA256(seed, "unit-seed/v1/${EXAMPLE_POSITION}"): \`${hex(unitSeed(seed, EXAMPLE_POSITION))}\``,
    '',
    `Its scenario for the pick "star" (docs/games/noel-de-la-chance.md), which the evaluator scores ${rules.evaluate(scenario)} cents:`,
    '',
    '```json',
    JSON.stringify(scenario),
    '```',
  ];
  return lines.join('\n');
}

export const EXAMPLE_START = '<!-- example:start (npm run fairness-example) -->';
export const EXAMPLE_END = '<!-- example:end -->';

/** The doc with `example` between its markers. */
export function withExample(doc: string, example: string): string {
  const start = doc.indexOf(EXAMPLE_START);
  const end = doc.indexOf(EXAMPLE_END);
  if (start < 0 || end < start) throw new Error('docs/fairness.md has no example markers');
  return `${doc.slice(0, start + EXAMPLE_START.length)}\n${example}\n${doc.slice(end)}`;
}
