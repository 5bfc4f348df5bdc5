/**
 * npm run verify-block -- --game <id> --stake <cents> [--workers N] [--seed <64 hex>] [--block-id ID] [--out FILE]
 *
 * Prints a fresh block (or re-prints one from --seed), then generates and evaluates the
 * scenario of every unit in worker threads, and checks every rule. Progress on stderr; a JSON
 * summary on the last line of stdout. With --out, every unit as one JSON line, in order of
 * position (docs/verify-block.md). Exit code 1 if any mismatch or violation.
 */
import { closeSync, createReadStream, createWriteStream, openSync, rmSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { pipeline } from 'node:stream/promises';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { checkUnits, type CheckedUnit, type UnitsCheck } from '../src/audit/verify-units';
import { commitmentOf, newBlockSeed, printBlock, tierCounts } from '../src/fairness/printing';
import { findPrizeTable, stakesOf } from '../src/games/prize-tables';
import { GAME_IDS, type GameId, type PrizeTable } from '../src/games/types';

interface Job {
  game: GameId;
  stake: number;
  seed: Uint8Array;
  units: Uint8Array;
  from: number;
  to: number;
  /** Where this worker writes its units' lines (a part of --out), if asked. */
  out: string | undefined;
}

type FromWorker = { kind: 'progress'; done: number } | { kind: 'done'; result: UnitsCheck };

const HELP = `Prints a block of the game's table at that price from a fresh 256-bit seed (or re-prints
the block of --seed), generates every unit's scenario as the server would, scores it with the
game's evaluator and checks every rule. Progress on stderr, a JSON summary on the last line of
stdout; exit 1 if any unit is off.

  --workers N   worker threads (default: one per core)
  --seed HEX    re-print the block of this seed (a closed block's revealed seed)
  --block-id ID the block's id: its commitment is then scheme 3's, which names the block
  --out FILE    also write every unit as a JSON line, in order of position:
                {"position","tierId","prize","choice","scenario"} (docs/verify-block.md)`;

function usage(problem?: string): never {
  if (problem) console.error(`verify-block: ${problem}`);
  console.error('usage: npm run verify-block -- --game <id> --stake <cents> [--workers N] [--seed <64 hex>] [--block-id ID] [--out FILE]');
  if (!problem) console.error(HELP);
  console.error(`games: ${GAME_IDS.map((g) => `${g} (${stakesOf(g).join(', ')})`).join('; ')}`);
  process.exit(problem ? 2 : 0);
}

function parseArgs(argv: string[]): { table: PrizeTable; workers: number; seed: Uint8Array | undefined; out: string | undefined; blockId: string | undefined } {
  if (argv.includes('--help') || argv.includes('-h')) usage();
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]!;
    const value = argv[i + 1];
    if (!key.startsWith('--') || value === undefined) usage(`expected --name value pairs, got ${JSON.stringify(argv.slice(i).join(' '))}`);
    args.set(key.slice(2), value);
  }
  for (const key of args.keys()) if (!['game', 'stake', 'workers', 'seed', 'out', 'block-id'].includes(key)) usage(`unknown option --${key}`);
  const game = args.get('game');
  const stake = Number(args.get('stake'));
  if (!game) usage('--game is required');
  if (!Number.isInteger(stake)) usage('--stake must be a whole number of cents (e.g. 50)');
  const table = findPrizeTable(game, stake);
  if (!table) usage(`${game} is not sold at ${stake} cents`);
  const workers = args.has('workers') ? Number(args.get('workers')) : availableParallelism();
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) usage('--workers must be a whole number from 1 to 64');
  const seedHex = args.get('seed');
  if (seedHex !== undefined && !/^[0-9a-f]{64}$/i.test(seedHex)) usage('--seed must be 64 hex digits');
  return { table, workers, seed: seedHex ? new Uint8Array(Buffer.from(seedHex, 'hex')) : undefined, out: args.get('out'), blockId: args.get('block-id') };
}

function runWorker(job: Job, onProgress: (done: number) => void): Promise<UnitsCheck> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job, execArgv: process.execArgv });
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'progress') onProgress(message.done);
      else resolve(message.result);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => code !== 0 && reject(new Error(`worker exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const { table, workers, seed: given, out, blockId } = parseArgs(process.argv.slice(2));
  const started = process.hrtime.bigint();
  const seed = given ?? newBlockSeed();
  const units = printBlock(table, seed);
  // Scheme 3 commitments name their block; without --block-id, scheme 2's (SHA-256(seed ‖ block)).
  const commitment = commitmentOf(seed, units, blockId ? { version: 3, game: table.game, stake: table.stake, blockId } : { version: 2 });
  const printedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.error(`printed ${table.game} at ${table.stake} cents: ${table.blockSize} units in ${printedSeconds.toFixed(2)} s; checking with ${workers} workers`);

  const size = Math.ceil(table.blockSize / workers);
  const done = new Array<number>(workers).fill(0);
  let lastReport = 0;
  const report = () => {
    const total = done.reduce((a, b) => a + b, 0);
    const now = Date.now();
    if (now - lastReport < 1000) return;
    lastReport = now;
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    console.error(`  ${total.toLocaleString('en')} / ${table.blockSize.toLocaleString('en')} units (${((100 * total) / table.blockSize).toFixed(1)} %), ${elapsed.toFixed(1)} s`);
  };
  const results = await Promise.all(
    Array.from({ length: workers }, (_, w) => {
      const job: Job = {
        game: table.game,
        stake: table.stake,
        seed,
        units,
        from: w * size,
        to: Math.min(table.blockSize, (w + 1) * size),
        out: out === undefined ? undefined : `${out}.part${w}`,
      };
      return runWorker(job, (n) => {
        done[w] = n;
        report();
      });
    }),
  );
  if (out !== undefined) {
    // The workers' parts, in order of position, make the file.
    const file = createWriteStream(out);
    for (let w = 0; w < workers; w++) {
      await pipeline(createReadStream(`${out}.part${w}`), file, { end: w === workers - 1 });
      rmSync(`${out}.part${w}`);
    }
    console.error(`wrote ${table.blockSize.toLocaleString('en')} lines to ${out}`);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const perTier = tierCounts(table).map((expected, tierId) => ({
    tierId,
    prize: tierId === 0 ? 0 : table.tiers[tierId - 1]!.prize,
    expected,
    generated: results.reduce((n, r) => n + r.perTier[tierId]!, 0),
  }));
  const summary = {
    game: table.game,
    stake: table.stake,
    units: results.reduce((n, r) => n + r.units, 0),
    commitment,
    seed: Buffer.from(seed).toString('hex'),
    ...(out === undefined ? {} : { out }),
    perTier,
    tiersMatchTable: perTier.every((t) => t.expected === t.generated),
    mismatches: results.reduce((n, r) => n + r.mismatches, 0),
    violations: results.reduce((n, r) => n + r.violations, 0),
    examples: results.flatMap((r) => r.examples).slice(0, 10),
    workers,
    seconds: Number(seconds.toFixed(2)),
  };
  console.log(JSON.stringify(summary));
  process.exit(summary.mismatches === 0 && summary.violations === 0 && summary.tiersMatchTable ? 0 : 1);
}

/** Lines to a file in 1 MB writes (a worker writes hundreds of thousands). */
class LineWriter {
  private readonly fd: number;
  private pending: string[] = [];
  private size = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  write(line: string): void {
    this.pending.push(line);
    this.size += line.length + 1;
    if (this.size >= 1 << 20) this.flush();
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    if (this.pending.length > 0) writeSync(this.fd, `${this.pending.join('\n')}\n`);
    this.pending = [];
    this.size = 0;
  }
}

if (isMainThread) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  const job = workerData as Job;
  const table = findPrizeTable(job.game, job.stake)!;
  const lines = job.out === undefined ? undefined : new LineWriter(job.out);
  const result = checkUnits(
    table,
    job.seed,
    job.units,
    job.from,
    job.to,
    (n) => parentPort!.postMessage({ kind: 'progress', done: n } satisfies FromWorker),
    lines && ((unit: CheckedUnit) => lines.write(JSON.stringify(unit))),
  );
  lines?.close();
  parentPort!.postMessage({ kind: 'done', result } satisfies FromWorker);
}
