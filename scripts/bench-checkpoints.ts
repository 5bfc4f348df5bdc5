/**
 * npm run bench:checkpoints -- [--leaves 1000000] [--proofs 200] [--appends 5000]
 *
 * The costs of the log of page roots (docs/fairness.md, "Checkpoints"): building its RFC 9162
 * tree from `--leaves` page leaves (what a process does when it starts on a log that long) and
 * what it keeps, one root, one inclusion and one consistency proof at that size and their
 * sizes, signing a checkpoint, checking each with the isomorphic verifier (WebCrypto, as the
 * page does), and appending to the log on a private redis-server (appendLeaf-2.lua, one after
 * another, as dealers do: one per page). Wall and CPU time; JSON on the last line.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { checkpointBody, hashLeaf, keyIdOf, verifyCheckpoint, verifyConsistency, verifyInclusion } from '../src/audit/transparency-log';
import { LogTree } from '../src/fairness/log-tree';
import { encodeLeaf } from '../src/fairness/page-log';
import { DealerKeys } from '../src/dealer/redis/store';
import { appendLeaf } from '../src/dealer/scripts/append-leaf';
import { defineDealerScripts } from '../src/dealer/scripts/commands';
import { RedisServer } from '../tools/redis-server';

function arg(name: string, fallback: string): number {
  const i = process.argv.indexOf(`--${name}`);
  return Number(i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback);
}

async function timed<T>(run: () => T | Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return { value, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

const leaves = arg('leaves', '1000000');
const proofs = arg('proofs', '200');
const appends = arg('appends', '5000');
const round = (n: number, digits = 3) => +n.toFixed(digits);

const leafText = (i: number) =>
  encodeLeaf({ scheme: 2, game: '500000-carats', stake: 1000, blockId: `500000-carats-1000.${Math.floor(i / 196)}`, page: i % 196, root: (i * 2654435761 >>> 0).toString(16).padStart(64, '0'), publishedAt: 1_764_000_000_000 + i });

const memoryBefore = process.memoryUsage();
const tree = new LogTree();
const build = await timed(() => {
  for (let i = 0; i < leaves; i++) tree.append(new TextEncoder().encode(leafText(i)));
});
const memoryAfter = process.memoryUsage();
const root = await timed(() => tree.root());
const indices = Array.from({ length: proofs }, (_, i) => Math.floor(((i + 0.5) * leaves) / proofs));
const inclusion = await timed(() => indices.map((i) => tree.inclusionProof(i)));
const olders = indices.map((i) => Math.max(1, i));
const consistency = await timed(() => olders.map((m) => tree.consistencyProof(m)));
const nodes = (ps: Uint8Array[][]) => ({ max: Math.max(...ps.map((p) => p.length)), mean: round(ps.reduce((n, p) => n + p.length, 0) / ps.length, 1) });

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
const unsigned = { logId: 'page-roots', treeSize: leaves, rootHash: Buffer.from(root.value).toString('hex'), timestamp: Date.now(), keyId: await keyIdOf(raw) };
const signing = await timed(() => {
  let signature = '';
  for (let i = 0; i < proofs; i++) signature = sign(null, checkpointBody(unsigned), privateKey).toString('base64');
  return signature;
});
const checkpoint = { ...unsigned, signature: signing.value };
const verifySignature = await timed(async () => {
  for (let i = 0; i < proofs; i++) if (!(await verifyCheckpoint(checkpoint, raw)).ok) throw new Error('checkpoint refused');
});
const verifyIncluded = await timed(async () => {
  for (const [k, i] of indices.entries()) {
    const check = await verifyInclusion(await hashLeaf(new TextEncoder().encode(leafText(i))), i, leaves, inclusion.value[k]!, root.value);
    if (!check.ok) throw new Error(check.reason);
  }
});
const verifyConsistent = await timed(async () => {
  for (const [k, m] of olders.entries()) {
    const check = await verifyConsistency(m, leaves, tree.root(m), root.value, consistency.value[k]!);
    if (!check.ok) throw new Error(check.reason);
  }
});

const server = await RedisServer.start();
const redis = new Redis(server.url);
const keys = new DealerKeys('bench').pageLog;
const run = defineDealerScripts(redis);
const appending = await timed(async () => {
  for (let i = 0; i < appends; i++) await appendLeaf(run, keys, { leafId: `b.${i}:0`, leaf: leafText(i) });
});
const redisBytes = Number(await redis.memory('USAGE', keys.leaves)) + Number(await redis.memory('USAGE', keys.index));
await redis.quit();
await server.stop();

const result = {
  leaves,
  loadAverage: loadavg().map((l) => round(l, 2)),
  build: { wallS: round(build.wallMs / 1000, 2), cpuS: round(build.cpuMs / 1000, 2), perLeafUs: round((build.wallMs * 1000) / leaves, 2), arrayBuffersMB: round((memoryAfter.arrayBuffers - memoryBefore.arrayBuffers) / 2 ** 20, 1) },
  rootMs: round(root.wallMs),
  inclusion: { wallMs: round(inclusion.wallMs / proofs), nodes: nodes(inclusion.value), jsonBytes: JSON.stringify(inclusion.value[0]!.map((h) => Buffer.from(h).toString('hex'))).length },
  consistency: { wallMs: round(consistency.wallMs / proofs), nodes: nodes(consistency.value), jsonBytes: JSON.stringify(consistency.value[0]!.map((h) => Buffer.from(h).toString('hex'))).length },
  signMs: round(signing.wallMs / proofs),
  verify: { signatureMs: round(verifySignature.wallMs / proofs), inclusionMs: round(verifyIncluded.wallMs / proofs), consistencyMs: round(verifyConsistent.wallMs / proofs) },
  redisAppend: { appends, perAppendMs: round(appending.wallMs / appends), bytesPerLeaf: Math.round(redisBytes / appends) },
};
console.log(`log of ${leaves.toLocaleString('en')} page leaves (load average ${result.loadAverage.join(' ')})`);
console.log(`  tree built from the leaves:   ${result.build.wallS} s wall, ${result.build.cpuS} s CPU (${result.build.perLeafUs} µs a leaf), ${result.build.arrayBuffersMB} MB of hashes`);
console.log(`  root:                         ${result.rootMs} ms`);
console.log(`  inclusion proof:              ${result.inclusion.wallMs} ms, ${result.inclusion.nodes.max} hashes at most (${result.inclusion.jsonBytes} bytes of JSON)`);
console.log(`  consistency proof:            ${result.consistency.wallMs} ms, ${result.consistency.nodes.max} hashes at most (mean ${result.consistency.nodes.mean})`);
console.log(`  signing a checkpoint:         ${result.signMs} ms`);
console.log(`  verifying (WebCrypto):        signature ${result.verify.signatureMs} ms, inclusion ${result.verify.inclusionMs} ms, consistency ${result.verify.consistencyMs} ms`);
console.log(`  appending on Redis:           ${result.redisAppend.perAppendMs} ms an append (one after another), ${result.redisAppend.bytesPerLeaf} bytes a leaf`);
console.log(JSON.stringify(result));
