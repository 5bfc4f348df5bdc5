/**
 * npm run verify-unit -- <recall.json> [--url <server> | --block <block.json>]
 *
 * Checks one recall record (docs/recall.md) as docs/fairness.md says: its Merkle proof against
 * the page root it names and, with --url (GET /fairness/blocks/:blockId) or --block (that JSON
 * saved), against the published one and its publication time; its prize against the proven
 * tier; its scenario with the game's evaluator and rule checks; with a closed block's seed, the
 * salt and the page root. Exit 0 verified, 1 not verified, 2 bad command line, 3 source unreachable.
 */
import { readFileSync } from 'node:fs';
import { verifyRecall } from '../src/audit/verify-recall';
import type { PublicBlockDetail } from '../src/dealer/fairness-report';

const USAGE = `usage: npm run verify-unit -- <recall.json> [--url <server, e.g. http://127.0.0.1:2567> | --block <published block JSON>]

Checks a recall (unit-recall/v2) without the block's seed: its Merkle proof leads to its page's
root, published no later than the sale (with --url or --block); its tier pays its prize; its
scenario re-scores to that prize with the game's evaluator and breaks no rule. Once the block is
closed, the published seed also re-derives the salt and the page root. See docs/fairness.md.`;

function usage(problem?: string): never {
  if (problem) console.error(`verify-unit: ${problem}`);
  console.error(USAGE);
  process.exit(problem ? 2 : 0);
}

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    usage(`cannot read the ${what} ${file}: ${String(err)}`);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) usage();
  let file: string | undefined;
  let url: string | undefined;
  let blockFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--url' || arg === '--block') {
      const value = argv[++i];
      if (value === undefined) usage(`${arg} needs a value`);
      if (arg === '--url') url = value;
      else blockFile = value;
    } else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else if (file === undefined) file = arg;
    else usage(`one recall file at a time, got ${arg} too`);
  }
  if (!file) usage('give the recall file');
  if (url && blockFile) usage('--url or --block, not both');
  const recall = readJson(file, 'recall') as { blockId?: unknown };
  let published: PublicBlockDetail | undefined;
  if (blockFile) published = readJson(blockFile, 'published block') as PublicBlockDetail;
  if (url) {
    const address = `${url.replace(/\/$/, '')}/fairness/blocks/${encodeURIComponent(String(recall.blockId))}`;
    try {
      const res = await fetch(address);
      if (!res.ok) {
        console.error(`verify-unit: ${address} answered ${res.status}`);
        process.exit(res.status === 404 ? 1 : 3);
      }
      published = (await res.json()) as PublicBlockDetail;
    } catch (err) {
      console.error(`verify-unit: cannot reach ${address}: ${String(err)}`);
      process.exit(3);
    }
  }
  const result = verifyRecall(recall, published);
  for (const line of result.passed) console.log(`ok   ${line}`);
  for (const line of result.problems) console.log(`FAIL ${line}`);
  if (!published && result.ok) console.log('note: checked against the recall\'s own page root; give --url or --block to check it was published before the sale');
  console.log(result.ok ? 'verified' : 'NOT verified');
  process.exit(result.ok ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
