import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnChild } from '../tools/child-processes';
import { UsageError } from '../tools/command-line';
import { round, type Report } from './report';
import { spread, type Spread } from './runs';

/**
 * `--beside DIR`: this checkout's load test and DIR's (another build of the project) run at the
 * same time, each with its own servers and no echo, `--runs` pairs one after another; each
 * pair's figures are compared as this ÷ DIR's. On these shared 2-core machines two runs one
 * after the other differ by ±15 % (docs/performance.md), two runs at the same time by a few
 * per cent: both share whatever else the machine does. The way to check "no worse than before".
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A checkout that can run `npm run loadtest`: its load test, its installed packages, and the
 * signal handling that stops its servers when it is stopped (loadtest/cli.ts). A relative `dir`
 * is taken from where the command was typed (`INIT_CWD` under npm).
 */
export function checkoutToRunBeside(dir: string, from = process.env['INIT_CWD'] ?? process.cwd()): string {
  const root = resolve(from, dir);
  if (!existsSync(join(root, 'loadtest', 'main.ts'))) throw new UsageError(`--beside ${dir}: no loadtest/main.ts in ${root} (a checkout of this project?)`);
  if (!existsSync(join(root, 'loadtest', 'cli.ts'))) throw new UsageError(`--beside ${dir}: its load test is too old to stop its servers when stopped (no loadtest/cli.ts)`);
  if (!existsSync(join(root, 'node_modules', 'tsx'))) {
    throw new UsageError(`--beside ${dir}: its packages are not installed (npm ci there, or link this checkout's node_modules)`);
  }
  if (realpathSync(root) === realpathSync(ROOT)) throw new UsageError('--beside names this very checkout: give another build');
  return root;
}

/** The pair's own options: not passed on to either side (each runs once, no echo, quietly). */
const PAIR_ONLY = new Set(['--beside', '--runs', '--out']);
const SIDE_SET = new Set(['--no-echo', '--quiet']);

/** The arguments each side runs with: the user's, less what applies to the pair, with no echo. */
export function sideArguments(argv: readonly string[]): string[] {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split('=')[0]!;
    if (PAIR_ONLY.has(name)) {
      if (!arg.includes('=')) i++; // its value, given as the next word
    } else if (!SIDE_SET.has(name)) {
      args.push(arg);
    }
  }
  return [...args, ...SIDE_SET];
}

/** Builds the checkout's server if its build is stale, so that no build runs inside the other side's window. */
function ensureBuilt(dir: string): void {
  const run = spawnSync(process.execPath, [join(dir, 'scripts', 'ensure-built.mjs')], { cwd: dir, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`the server in ${dir} could not be built (${run.status ?? run.signal})`);
}

/** One side's run: its report (the last line its load test prints), or why it has none. */
async function runSide(dir: string, args: readonly string[]): Promise<Report> {
  const child = spawnChild(process.execPath, ['--import', 'tsx', 'loadtest/main.ts', ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }, 'SIGTERM');
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
  // 'close', not 'exit': its last stdout line may still be on its way at 'exit'.
  await once(child, 'close');
  const last = out.trimEnd().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last) as Report;
  } catch {
    throw new Error(`the load test in ${dir} gave no report (exit ${child.exitCode ?? child.signalCode}):\n${err || out.slice(-4000)}`);
  }
}

/** One figure of a pair: this side's, the other's, and this ÷ other (null when either is missing or the other is 0). */
export type Compared = readonly [number | null, number | null, number | null];

/** One pair's figures. */
export interface PairFigures {
  readonly cpuMsPerUnit: Compared;
  readonly systemCpuMsPerUnit: Compared;
  /** Null with undici's clients, which count no bytes. */
  readonly bytesReceivedPerUnit: Compared;
  readonly unitsPerSecond: Compared;
  readonly p99Ms: Compared;
}

export interface BesideSummary {
  readonly format: 'loadtest-beside/v1';
  /** Every run of both sides exact in its books, with nothing failed. */
  readonly ok: boolean;
  readonly here: string;
  readonly beside: string;
  readonly pairs: readonly PairFigures[];
  /** This ÷ the other over the pairs that have the figure, with their median; null when none has it. */
  readonly ratios: {
    readonly cpuMsPerUnit: Spread | null;
    readonly bytesReceivedPerUnit: Spread | null;
    readonly unitsPerSecond: Spread | null;
  };
  readonly okPerPair: readonly (readonly [boolean, boolean])[];
}

function compared(here: number | null, other: number | null): Compared {
  return [here, other, here === null || other === null || other === 0 ? null : round(here / other, 3)];
}

export function pairFigures(here: Report, other: Report): PairFigures {
  const [a, b] = [here.efficiency.game, other.efficiency.game];
  return {
    cpuMsPerUnit: compared(a.cpuMsPerUnit, b.cpuMsPerUnit),
    systemCpuMsPerUnit: compared(a.systemCpuMsPerUnit, b.systemCpuMsPerUnit),
    bytesReceivedPerUnit: compared(a.bytesReceivedPerUnit, b.bytesReceivedPerUnit),
    unitsPerSecond: compared(here.run.throughput.unitsPerSecond, other.run.throughput.unitsPerSecond),
    p99Ms: compared(here.run.latency.actionToPatch.p99, other.run.latency.actionToPatch.p99),
  };
}

export function summarizePairs(here: string, beside: string, reports: readonly (readonly [Report, Report])[]): BesideSummary {
  const pairs = reports.map(([a, b]) => pairFigures(a, b));
  const ratio = (pick: (p: PairFigures) => Compared) => {
    const values = pairs.map((p) => pick(p)[2]).filter((r): r is number => r !== null);
    return values.length > 0 ? spread(values) : null;
  };
  return {
    format: 'loadtest-beside/v1',
    ok: reports.every(([a, b]) => a.ok && b.ok),
    here,
    beside,
    pairs,
    ratios: { cpuMsPerUnit: ratio((p) => p.cpuMsPerUnit), bytesReceivedPerUnit: ratio((p) => p.bytesReceivedPerUnit), unitsPerSecond: ratio((p) => p.unitsPerSecond) },
    okPerPair: reports.map(([a, b]) => [a.ok, b.ok] as const),
  };
}

export function formatPairs(s: BesideSummary): string {
  const lines = [`${s.pairs.length} pair${s.pairs.length > 1 ? 's' : ''} ${s.ok ? 'PASSED' : 'FAILED'}: this checkout (${s.here}) beside ${s.beside}, at the same time`];
  const both = (c: Compared) => `${c[0] ?? 'not counted'} beside ${c[1] ?? 'not counted'}`;
  s.pairs.forEach((p, i) => {
    const failed = s.okPerPair[i]!.flatMap((ok, side) => (ok ? [] : [side === 0 ? 'here' : 'beside']));
    lines.push(
      `  pair ${i + 1}: CPU ms a unit ${both(p.cpuMsPerUnit)} (×${p.cpuMsPerUnit[2]}; kernel ${both(p.systemCpuMsPerUnit)}), ` +
        `bytes a unit ${both(p.bytesReceivedPerUnit)}, units/s ${both(p.unitsPerSecond)}, p99 ${both(p.p99Ms)} ms` +
        (failed.length > 0 ? `; books or run FAILED ${failed.join(' and ')}` : ''),
    );
  });
  const line = (name: string, x: Spread | null) => `  ${name.padEnd(24)} ${x ? `median ×${x.median}  (${x.min}–${x.max})` : 'not counted'}`;
  lines.push('this ÷ beside:', line('CPU ms a unit', s.ratios.cpuMsPerUnit), line('bytes a unit to clients', s.ratios.bytesReceivedPerUnit), line('units/s', s.ratios.unitsPerSecond));
  return lines.join('\n');
}

/** `runs` pairs, one after another, each side's load test (`here`'s and `dir`'s) started at the same moment. */
export async function runBeside(dir: string, argv: readonly string[], runs: number, progress: (line: string) => void, here = ROOT): Promise<BesideSummary> {
  const args = sideArguments(argv);
  // One after the other, before any pair: a build inside a pair would load the other side's window.
  for (const checkout of [here, dir]) ensureBuilt(checkout);
  const reports: [Report, Report][] = [];
  for (let i = 1; i <= runs; i++) {
    progress(`pair ${i} of ${runs}: ${here} and ${dir} at the same time`);
    reports.push(await Promise.all([runSide(here, args), runSide(dir, args)]));
  }
  return summarizePairs(here, dir, reports);
}
