/**
 * npm run bench:fairness -- [--game 500000-carats --stake 500] [--proofs 200]
 *
 * The costs of scheme 2 (docs/fairness.md, "Costs") on one printed block of the table: the
 * whole tree (every page root and the block's root) as it would cost at printing, one page
 * root (what a dealer hashes ahead of the sales), one proof (what a recall costs), its size,
 * and what a block's published pages take. Wall and CPU time; JSON on the last line.
 */
import { buildBlockTree, pageCount, pageOf, pagePositions, pageRange, pageRoot, pageRootOfProof, pageTree, proveUnit } from '../src/dealer/merkle';
import { newBlockSeed, printBlock } from '../src/dealer/printing';
import { findPrizeTable } from '../src/games/prize-tables';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

function timed<T>(run: () => T): { value: T; wallMs: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = run();
  const used = process.cpuUsage(cpu);
  return { value, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

const table = findPrizeTable(arg('game', '500000-carats'), Number(arg('stake', '500')));
if (!table) throw new Error('no such table');
const proofs = Number(arg('proofs', '200'));
const seed = newBlockSeed();
const units = printBlock(table, seed);
const size = units.length;
const slice = (page: number) => {
  const { from, count } = pageRange(size, page);
  return units.subarray(from, from + count);
};

const whole = timed(() => buildBlockTree(seed, units));
const pages = Math.min(50, pageCount(size));
const onePage = timed(() => {
  for (let page = 0; page < pages; page++) pageRoot(seed, size, page, slice(page));
});
const positions = Array.from({ length: proofs }, (_, i) => Math.floor(((i + 0.5) * size) / proofs));
// Each proof hashes its page afresh (the stores keep the last pages they hashed: a proof there costs no hashing).
const proving = timed(() => positions.map((p) => proveUnit(pageTree(seed, size, pageOf(size, p), slice(pageOf(size, p))), p)));
const kept = pageTree(seed, size, 0, slice(0));
const fromKept = timed(() => positions.map((p) => proveUnit(kept, p % pagePositions(size))));
const checking = timed(() => proving.value.map((proof) => pageRootOfProof(proof)));
const proofJson = JSON.stringify(proving.value[0]).length;
// Redis keeps each page as `<64 hex>|<13-digit ms>` in a hash field named by the page number.
const storedBytes = pageCount(size) * (32 + 8);
const result = {
  game: table.game,
  stake: table.stake,
  units: size,
  pages: pageCount(size),
  wholeTree: { wallS: +(whole.wallMs / 1000).toFixed(2), cpuS: +(whole.cpuMs / 1000).toFixed(2) },
  pageRoot: { wallMs: +(onePage.wallMs / pages).toFixed(2), cpuMs: +(onePage.cpuMs / pages).toFixed(2) },
  proof: { wallMs: +(proving.wallMs / proofs).toFixed(2), cpuMs: +(proving.cpuMs / proofs).toFixed(2), jsonBytes: proofJson, siblings: proving.value[0]!.siblings.length },
  proofFromKeptPage: { wallMs: +(fromKept.wallMs / proofs).toFixed(3) },
  verifyProof: { wallMs: +(checking.wallMs / proofs).toFixed(3) },
  storagePerBlock: { rootsAndTimesBytes: storedBytes, redisHashValueBytes: pageCount(size) * 78 },
};
console.log(`${table.game} at ${table.stake}: ${size.toLocaleString('en')} units, ${result.pages} pages`);
console.log(`  whole tree (every leaf, as at printing): ${result.wholeTree.wallS} s wall, ${result.wholeTree.cpuS} s CPU`);
console.log(`  one page root (4,096 leaves):           ${result.pageRoot.wallMs} ms wall, ${result.pageRoot.cpuMs} ms CPU`);
console.log(`  one proof:                              ${result.proof.wallMs} ms wall, ${result.proof.cpuMs} ms CPU; ${result.proof.siblings} siblings, ${proofJson} bytes of JSON`);
console.log(`  one proof from a page kept in memory:  ${result.proofFromKeptPage.wallMs} ms wall`);
console.log(`  checking a proof:                       ${result.verifyProof.wallMs} ms`);
console.log(`  page roots of a block:                  ${storedBytes.toLocaleString('en')} bytes (32 + 8 a page); ${result.storagePerBlock.redisHashValueBytes.toLocaleString('en')} bytes of Redis hash values`);
console.log(JSON.stringify(result));
if (!checking.value.every((root, i) => root === Buffer.from(whole.value.pageRoots[pageOf(size, positions[i]!)]!).toString('hex'))) {
  throw new Error('a proof does not lead to its page root');
}
