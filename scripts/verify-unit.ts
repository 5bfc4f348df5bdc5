/**
 * npm run verify-unit -- <recall.json> [--url <server> | --block <block.json> | --offline]
 *
 * Checks one finished unit's recall (docs/recall.md) as docs/fairness.md "Verifying a unit" says,
 * with the same code as the page's « Vérifier » (src/audit/verify-unit/): the Merkle proof against
 * the page root the server published (fetched from the server the recall names, `fairness.server`,
 * or --url; or a saved answer, --block), the unit seed, the scenario and every step re-played,
 * the prize, the ledger, the picks. Without a published root it says so and fails, unless
 * --offline. Exit 0 verified, 1 not verified, 2 bad command line, 3 source unreachable.
 */
import { readFileSync } from 'node:fs';
import { verifyUnit } from '../src/audit/verify-unit';
import type { PublicBlockDetail } from '../src/protocol/fairness';

const USAGE = `usage: npm run verify-unit -- <recall.json> [--url <server, e.g. https://games.example.com> | --block <published block JSON> | --offline]

Checks a finished unit's recall (unit-recall/v3, or v2): its Merkle proof leads to the root its
server published for its page, no later than the sale; its unit seed re-generates the scenario
and every step shown; its prize is the table's for the proven tier; its ledger debits the stake
and credits exactly that prize. The published block is fetched from the server the recall names
(fairness.server) unless --url or --block says otherwise; --offline checks against the recall's
own page root only. See docs/fairness.md.`;

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

function parseArgs(argv: string[]): { file: string; url?: string; blockFile?: string; offline: boolean } {
  if (argv.includes('--help') || argv.includes('-h')) usage();
  let file: string | undefined;
  let url: string | undefined;
  let blockFile: string | undefined;
  let offline = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--offline') offline = true;
    else if (arg === '--url' || arg === '--block') {
      const value = argv[++i];
      if (value === undefined) usage(`${arg} needs a value`);
      if (arg === '--url') url = value;
      else blockFile = value;
    } else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else if (file === undefined) file = arg;
    else usage(`one recall file at a time, got ${arg} too`);
  }
  if (!file) usage('give the recall file');
  if ([url, blockFile, offline || undefined].filter((x) => x !== undefined).length > 1) usage('--url, --block or --offline: one of them');
  return { file, url, blockFile, offline };
}

/** GET <server>/fairness/blocks/:blockId; exits 3 when the server cannot be reached. */
async function fetchPublished(server: string, blockId: unknown): Promise<PublicBlockDetail | undefined> {
  if (!/^https?:\/\//.test(server)) usage(`the server ${server} is not an http(s) origin`);
  const address = `${server.replace(/\/$/, '')}/fairness/blocks/${encodeURIComponent(String(blockId))}`;
  try {
    const res = await fetch(address);
    if (res.status === 404) {
      console.log(`${address} answered 404: the server publishes no such block`);
      return undefined;
    }
    if (!res.ok) throw new Error(`answered ${res.status}`);
    return (await res.json()) as PublicBlockDetail;
  } catch (err) {
    console.error(`verify-unit: cannot fetch ${address}: ${String(err)}`);
    process.exit(3);
  }
}

async function main(): Promise<void> {
  const { file, url, blockFile, offline } = parseArgs(process.argv.slice(2));
  const recall = readJson(file, 'recall') as { blockId?: unknown; fairness?: { server?: unknown } };
  let published: PublicBlockDetail | undefined;
  if (blockFile) published = readJson(blockFile, 'published block') as PublicBlockDetail;
  else if (!offline) {
    const server = url ?? (typeof recall.fairness?.server === 'string' ? recall.fairness.server : undefined);
    if (server) published = await fetchPublished(server, recall.blockId);
    else console.log('the recall names no server (fairness.server): give --url, --block, or --offline');
  }
  const result = await verifyUnit(recall, { published, offline });
  for (const check of result.checks) console.log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.id.padEnd(17)} ${check.detail}`);
  for (const note of result.notes) console.log(`note: ${note}`);
  console.log(result.ok ? 'verified' : 'NOT verified');
  process.exit(result.ok ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
