/**
 * npm run bench:fairness -- [--game 500000-carats --stake 500] [--proofs 200] [--scheme 3]
 *
 * The costs of a scheme (docs/fairness.md, "Costs"; default 3) on one printed block of the table: the
 * whole tree (every page root and the block's root) as it would cost at printing, one page
 * root (what a dealer hashes ahead of the sales), one proof (what a recall costs), its size,
 * and what a block's published pages take; and, in the same run, one page root under the other
 * scheme, for their ratio on a shared machine; and verify-unit's whole check (WebCrypto, the
 * replay) of each recall of docs/recall-examples. Wall and CPU time; JSON on the last line.
 */
import { buildBlockTree, type LeafScheme, pageCount, pageOf, pagePositions, pageRange, pageRoot, pageRootOfProof, pageTree, proveUnit } from '../src/fairness/merkle';
import { readdirSync, readFileSync } from 'node:fs';
import { verifyUnit } from '../src/audit/verify-unit';
import { newBlockSeed, printBlock } from '../src/fairness/printing';
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
const version = Number(arg('scheme', '3'));
if (version !== 2 && version !== 3) throw new Error('--scheme is 2 or 3');
const schemeOf = (v: 2 | 3): LeafScheme => (v === 2 ? { version: 2 } : { version: 3, game: table.game, stake: table.stake, blockId: `${table.game}-${table.stake}.0` });
const scheme = schemeOf(version);
const domain = { game: table.game, stake: table.stake, blockId: `${table.game}-${table.stake}.0` };
const seed = newBlockSeed();
const units = printBlock(table, seed);
const size = units.length;
const slice = (page: number) => {
  const { from, count } = pageRange(size, page);
  return units.subarray(from, from + count);
};

const whole = timed(() => buildBlockTree(seed, units, scheme));
const pages = Math.min(50, pageCount(size));
const pageRoots = (leaves: LeafScheme) => timed(() => {
  for (let page = 0; page < pages; page++) pageRoot(seed, size, page, slice(page), leaves);
});
const onePage = pageRoots(scheme);
const otherPage = pageRoots(schemeOf(version === 3 ? 2 : 3));
const positions = Array.from({ length: proofs }, (_, i) => Math.floor(((i + 0.5) * size) / proofs));
// Each proof hashes its page afresh (the stores keep the last pages they hashed: a proof there costs no hashing).
const proving = timed(() => positions.map((p) => proveUnit(pageTree(seed, size, pageOf(size, p), slice(pageOf(size, p)), scheme), p)));
const kept = pageTree(seed, size, 0, slice(0), scheme);
const fromKept = timed(() => positions.map((p) => proveUnit(kept, p % pagePositions(size))));
const checking = timed(() => proving.value.map((proof) => pageRootOfProof(proof, domain)));
const proofJson = JSON.stringify(proving.value[0]).length;
const examples = new URL('../docs/recall-examples/', import.meta.url);
const recalls = readdirSync(examples).filter((f) => f.endsWith('.json') && !f.endsWith('.block.json'));
const read = (file: string) => JSON.parse(readFileSync(new URL(file, examples), 'utf8'));
const pairs = recalls.map((f) => ({ recall: read(f), published: read(f.replace(/\.json$/, '.block.json')) }));
const ROUNDS = 20;
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
for (let round = 0; round < ROUNDS; round++) {
  for (const { recall, published } of pairs) if (!(await verifyUnit(recall, { published })).ok) throw new Error('a recall example does not verify');
}
const verifyUnitMs = { wall: (performance.now() - wallBefore) / (ROUNDS * pairs.length), cpu: ((u) => (u.user + u.system) / 1000)(process.cpuUsage(cpuBefore)) / (ROUNDS * pairs.length) };
// Redis keeps each page as `<64 hex>|<13-digit ms>` in a hash field named by the page number.
const storedBytes = pageCount(size) * (32 + 8);
const result = {
  game: table.game,
  stake: table.stake,
  scheme: version,
  units: size,
  pages: pageCount(size),
  wholeTree: { wallS: +(whole.wallMs / 1000).toFixed(2), cpuS: +(whole.cpuMs / 1000).toFixed(2) },
  pageRoot: { wallMs: +(onePage.wallMs / pages).toFixed(2), cpuMs: +(onePage.cpuMs / pages).toFixed(2) },
  pageRootOtherScheme: { scheme: version === 3 ? 2 : 3, wallMs: +(otherPage.wallMs / pages).toFixed(2), cpuMs: +(otherPage.cpuMs / pages).toFixed(2) },
  proof: { wallMs: +(proving.wallMs / proofs).toFixed(2), cpuMs: +(proving.cpuMs / proofs).toFixed(2), jsonBytes: proofJson, siblings: proving.value[0]!.siblings.length },
  proofFromKeptPage: { wallMs: +(fromKept.wallMs / proofs).toFixed(3) },
  verifyProof: { wallMs: +(checking.wallMs / proofs).toFixed(3) },
  verifyUnit: { wallMs: +verifyUnitMs.wall.toFixed(2), cpuMs: +verifyUnitMs.cpu.toFixed(2), recalls: pairs.length },
  storagePerBlock: { rootsAndTimesBytes: storedBytes, redisHashValueBytes: pageCount(size) * 78 },
};
console.log(`${table.game} at ${table.stake}, scheme ${version}: ${size.toLocaleString('en')} units, ${result.pages} pages`);
console.log(`  whole tree (every leaf, as at printing): ${result.wholeTree.wallS} s wall, ${result.wholeTree.cpuS} s CPU`);
console.log(`  one page root (4,096 leaves):           ${result.pageRoot.wallMs} ms wall, ${result.pageRoot.cpuMs} ms CPU`);
console.log(`  one page root, scheme ${result.pageRootOtherScheme.scheme} (same run):   ${result.pageRootOtherScheme.wallMs} ms wall, ${result.pageRootOtherScheme.cpuMs} ms CPU`);
console.log(`  one proof:                              ${result.proof.wallMs} ms wall, ${result.proof.cpuMs} ms CPU; ${result.proof.siblings} siblings, ${proofJson} bytes of JSON`);
console.log(`  one proof from a page kept in memory:  ${result.proofFromKeptPage.wallMs} ms wall`);
console.log(`  checking a proof:                       ${result.verifyProof.wallMs} ms`);
console.log(`  verify-unit, a whole recall (WebCrypto): ${result.verifyUnit.wallMs} ms wall, ${result.verifyUnit.cpuMs} ms CPU (mean of the ${pairs.length} examples)`);
console.log(`  page roots of a block:                  ${storedBytes.toLocaleString('en')} bytes (32 + 8 a page); ${result.storagePerBlock.redisHashValueBytes.toLocaleString('en')} bytes of Redis hash values`);
console.log(JSON.stringify(result));
if (!checking.value.every((root, i) => root === Buffer.from(whole.value.pageRoots[pageOf(size, positions[i]!)]!).toString('hex'))) {
  throw new Error('a proof does not lead to its page root');
}
