/**
 * npm run verify-unit -- <recall.json> [--url <server> | --block <block.json> | --offline]
 *                         [--checkpoint <saved checkpoint.json>] [--save-checkpoint <file>] [--key <keyId>]
 *
 * Checks one finished unit's recall (docs/recall.md) as docs/fairness.md "Verifying a unit" says,
 * with the same code as the page's « Vérifier » (src/audit/verify-unit/): the Merkle proof against
 * the page root the server published (fetched from the server the recall names, `fairness.server`,
 * or --url; or a saved answer, --block), the unit seed, the scenario and every step re-played,
 * the prize, the ledger, the picks, and the recall's own times and labels against each other.
 * Without a published root it says so and fails, unless
 * --offline. From a server, also the log of page roots: the page root is a leaf under a signed
 * checkpoint and, with --checkpoint, that checkpoint extends the one saved (docs/fairness.md,
 * "Checkpoints"); --save-checkpoint writes the new one for next time; --key pins the log's key
 * (its id, from /fairness/log/key fetched once or from the operator). What it took on trust (the
 * recall's server, the key that server answered) it says in a note. Exit 0 verified, 1 not
 * verified (a log rolled back or forked below a saved checkpoint included: the `checkpoint`
 * check fails), 2 bad command line, 3 source unreachable.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { verifyUnit, type LogAnswers } from '../src/audit/verify-unit';
import type { PublicBlockDetail } from '../src/protocol/fairness';
import type { ConsistencyReply, SignedCheckpoint } from '../src/protocol/transparency-log';

const USAGE = `usage: npm run verify-unit -- <recall.json> [--url <server, e.g. https://games.example.com> | --block <published block JSON> | --offline]
                         [--checkpoint <checkpoint JSON saved before>] [--save-checkpoint <file>] [--key <keyId>]

Checks a finished unit's recall (unit-recall/v3, or v2): its Merkle proof leads to the root its
server published for its page, no later than the sale; its unit seed re-generates the scenario
and every step shown; its prize is the table's for the proven tier; its ledger debits the stake
and credits exactly that prize; its times, labels and links agree with each other (sale before
every step, finish after, completedBy, the pair link, the symbols offered, the format's label).
The published block is fetched from the server the recall names (fairness.server) unless --url
or --block says otherwise; --offline checks against the recall's own page root only. From a
server, the page root must also be a leaf of its log of page roots under a checkpoint signed by
the log's key; with --checkpoint, that checkpoint must extend the one saved before (a log
smaller than it was rolled back, one that no proof joins to it forked: either fails the
checkpoint check); --save-checkpoint writes it for next time; with --key, the log's key must be
that one (without it, the key is whatever the server answers). Whatever it took on the word of
the recall or of its server (the server the recall names, the key that server answered), it says
in a note. See docs/fairness.md.`;

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

interface Args {
  readonly file: string;
  readonly url?: string;
  readonly blockFile?: string;
  readonly offline: boolean;
  readonly checkpointFile?: string;
  readonly saveCheckpoint?: string;
  readonly keyId?: string;
}

function parseArgs(argv: string[]): Args {
  if (argv.includes('--help') || argv.includes('-h')) usage();
  let file: string | undefined;
  const values: Record<string, string> = {};
  let offline = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--offline') offline = true;
    else if (['--url', '--block', '--checkpoint', '--save-checkpoint', '--key'].includes(arg)) {
      const value = argv[++i];
      if (value === undefined) usage(`${arg} needs a value`);
      values[arg] = value;
    } else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else if (file === undefined) file = arg;
    else usage(`one recall file at a time, got ${arg} too`);
  }
  if (!file) usage('give the recall file');
  const [url, blockFile, checkpointFile, saveCheckpoint, keyId] = ['--url', '--block', '--checkpoint', '--save-checkpoint', '--key'].map((name) => values[name]);
  if ([url, blockFile, offline || undefined].filter((x) => x !== undefined).length > 1) usage('--url, --block or --offline: one of them');
  if ((checkpointFile || saveCheckpoint || keyId) && (blockFile || offline)) usage('--checkpoint, --save-checkpoint and --key ask the server\'s log: not with --block or --offline');
  if (keyId !== undefined && !/^[0-9a-f]{16}$/.test(keyId)) usage('--key takes a key id: 16 lowercase hex digits, as /fairness/log/key answers it');
  return { file, url, blockFile, offline, checkpointFile, saveCheckpoint, keyId };
}

/**
 * GET <server><path>: its JSON, or undefined (said) when it answers one of `none` (404: it has
 * no such thing); exits 3 when the server cannot be reached or answers anything else.
 */
async function fetchJson<T>(server: string, path: string, none: readonly number[] = [404]): Promise<T | undefined> {
  if (!/^https?:\/\//.test(server)) usage(`the server ${server} is not an http(s) origin`);
  const address = `${server.replace(/\/$/, '')}${path}`;
  try {
    const res = await fetch(address);
    if (none.includes(res.status)) {
      console.log(`${address} answered ${res.status}`);
      return undefined;
    }
    if (!res.ok) throw new Error(`answered ${res.status}`);
    return (await res.json()) as T;
  } catch (err) {
    console.error(`verify-unit: cannot fetch ${address}: ${String(err)}`);
    process.exit(3);
  }
}

/** The log's key, the page's inclusion, and the consistency from a saved checkpoint; `missing` when the server has no log. */
async function fetchLog(server: string, blockId: unknown, page: unknown, saved: SignedCheckpoint | undefined): Promise<LogAnswers | { missing: string }> {
  const key = await fetchJson<LogAnswers['key']>(server, '/fairness/log/key');
  const query = new URLSearchParams({ blockId: String(blockId), page: String(page) });
  if (!key) return { missing: `${server.replace(/\/$/, '')}/fairness/log/key answered 404` };
  const inclusion = await fetchJson<LogAnswers['inclusion']>(server, `/fairness/log/inclusion?${query}`);
  if (!saved || !inclusion) return { key, inclusion };
  const to = inclusion.checkpoint?.treeSize;
  // A log smaller than the checkpoint saved has no proof to give (the route answers 400 for
  // from > to): the checkpoint check says it was rolled back. A refusal of the proof asked is
  // a log that does not show it extends what it signed: that check fails too, with its table.
  const consistency = Number(saved.treeSize) > Number(to)
    ? undefined
    : await fetchJson<ConsistencyReply>(server, `/fairness/log/consistency?from=${Number(saved.treeSize)}&to=${Number(to)}`, [400, 404]);
  return { key, inclusion, saved: { checkpoint: saved, consistency } };
}

/**
 * What the run took on the word of the recall or of its server, said next to the verdict: a forged
 * recall can name a server of its own, whose block, log and key all agree with it. Only --url (the
 * operator's address) and --key or --checkpoint (the log's key held from before) anchor them.
 */
function trusted(server: string | undefined, url: string | undefined, log: LogAnswers | undefined, keyId: string | undefined, saved: SignedCheckpoint | undefined): string[] {
  const notes: string[] = [];
  if (server && !url) notes.push(`the published block and the log were asked of ${server}, the server the recall itself names: a recall that does not come from the operator can name a server of its own; give --url with the operator's address to hold the recall to it`);
  if (server && log && !keyId && !saved) notes.push(`the log's key ${String(log.key.keyId)} is the one ${server} answered; give --key with the key id the operator publishes, or --checkpoint with one saved before, to hold the log to it`);
  return notes;
}

async function main(): Promise<void> {
  const { file, url, blockFile, offline, checkpointFile, saveCheckpoint, keyId } = parseArgs(process.argv.slice(2));
  const recall = readJson(file, 'recall') as { blockId?: unknown; fairness?: { server?: unknown; page?: unknown } };
  const saved = checkpointFile ? (readJson(checkpointFile, 'saved checkpoint') as SignedCheckpoint) : undefined;
  let published: PublicBlockDetail | undefined;
  let log: LogAnswers | { missing: string } | undefined;
  let server: string | undefined;
  if (blockFile) published = readJson(blockFile, 'published block') as PublicBlockDetail;
  else if (!offline) {
    server = url ?? (typeof recall.fairness?.server === 'string' ? recall.fairness.server : undefined);
    if (server) {
      published = await fetchJson<PublicBlockDetail>(server, `/fairness/blocks/${encodeURIComponent(String(recall.blockId))}`);
      log = await fetchLog(server, recall.blockId, recall.fairness?.page, saved);
    } else console.log('the recall names no server (fairness.server): give --url, --block, or --offline');
  }
  // The log's answers, when the server has a log.
  const answered = log && !('missing' in log) ? log : undefined;
  if ((saved || keyId) && !answered) usage('--checkpoint and --key need the server\'s log of page roots, which did not answer');
  const result = await verifyUnit(recall, { published, offline, ...(log ? { log: answered && keyId ? { ...answered, pinnedKeyId: keyId } : log } : {}) });
  const checkpoint = answered?.inclusion && result.ok ? answered.inclusion.checkpoint : undefined;
  if (saveCheckpoint && checkpoint) writeFileSync(saveCheckpoint, `${JSON.stringify(checkpoint, null, 2)}\n`);
  if (saveCheckpoint && !checkpoint) console.log(`nothing written to ${saveCheckpoint}: no verified checkpoint`);
  for (const check of result.checks) console.log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.id.padEnd(17)} ${check.detail}`);
  for (const note of [...result.notes, ...trusted(server, url, answered, keyId, saved)]) console.log(`note: ${note}`);
  console.log(result.ok ? 'verified' : 'NOT verified');
  process.exit(result.ok ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
