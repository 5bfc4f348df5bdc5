import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited, spawnChild } from '../tools/child-processes';
import { UsageError } from '../tools/command-line';
import type { Report } from './report';
import { spread, type Spread } from './runs';

/**
 * `--beside DIR`: this checkout's load test and DIR's (another build of the project) run at the
 * same time, each with its own servers and no echo, `--runs` pairs one after another; each
 * pair's figures are compared as this ÷ DIR's. On these shared 2-core machines two runs one
 * after the other differ by ±15 % (docs/performance.md), two runs at the same time by a few
 * per cent: both share whatever else the machine does. The way to check "no worse than before".
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A checkout that can run `npm run loadtest`: its load test and its installed packages. */
export function checkoutToRunBeside(dir: string): string {
  const root = resolve(dir);
  if (!existsSync(join(root, 'loadtest', 'main.ts'))) throw new UsageError(`--beside ${dir}: no loadtest/main.ts there (a checkout of this project?)`);
  if (!existsSync(join(root, 'node_modules', 'tsx'))) {
    throw new UsageError(`--beside ${dir}: its packages are not installed (npm ci there, or link this checkout's node_modules)`);
  }
  if (root === ROOT) throw new UsageError('--beside names this very checkout: give another build');
  return root;
}

/** The arguments each side runs with: the user's, less what applies to the pair, with no echo. */
export function sideArguments(argv: readonly string[]): string[] {
  const pairOnly = new Set(['--beside', '--runs', '--out']);
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (pairOnly.has(argv[i]!)) i++;
    else if (argv[i] !== '--no-echo' && argv[i] !== '--quiet') args.push(argv[i]!);
  }
  return [...args, '--no-echo', '--quiet'];
}

/** One side's run: its report (the last line its load test prints), or why it has none. */
async function runSide(dir: string, args: readonly string[]): Promise<Report> {
  const child = spawnChild(process.execPath, ['--import', 'tsx', 'loadtest/main.ts', ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }, 'SIGTERM');
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
  await exited(child);
  const last = out.trimEnd().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last) as Report;
  } catch {
    throw new Error(`the load test in ${dir} gave no report (exit ${child.exitCode ?? child.signalCode}):\n${err || out.slice(-4000)}`);
  }
}

/** One pair's figures: this side's, the other's, and this ÷ other. */
export interface PairFigures {
  readonly cpuMsPerUnit: readonly [number, number, number];
  readonly systemCpuMsPerUnit: readonly [number, number, number];
  readonly bytesReceivedPerUnit: readonly [number, number, number];
  readonly unitsPerSecond: readonly [number, number, number];
  readonly p99Ms: readonly [number, number, number];
}

export interface BesideSummary {
  readonly format: 'loadtest-beside/v1';
  /** Every run of both sides exact in its books, with nothing failed. */
  readonly ok: boolean;
  readonly here: string;
  readonly beside: string;
  readonly pairs: readonly PairFigures[];
  /** This ÷ the other, per pair, with their median. */
  readonly ratios: {
    readonly cpuMsPerUnit: Spread;
    readonly bytesReceivedPerUnit: Spread;
    readonly unitsPerSecond: Spread;
  };
  readonly okPerPair: readonly (readonly [boolean, boolean])[];
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const triple = (here: number, other: number): [number, number, number] => [here, other, round(other === 0 ? 0 : here / other)];

export function pairFigures(here: Report, other: Report): PairFigures {
  const [a, b] = [here.efficiency.game, other.efficiency.game];
  return {
    cpuMsPerUnit: triple(a.cpuMsPerUnit, b.cpuMsPerUnit),
    systemCpuMsPerUnit: triple(a.systemCpuMsPerUnit, b.systemCpuMsPerUnit),
    bytesReceivedPerUnit: triple(a.bytesReceivedPerUnit ?? 0, b.bytesReceivedPerUnit ?? 0), // null: undici's clients count no bytes
    unitsPerSecond: triple(here.run.throughput.unitsPerSecond, other.run.throughput.unitsPerSecond),
    p99Ms: triple(here.run.latency.actionToPatch.p99, other.run.latency.actionToPatch.p99),
  };
}

export function summarizePairs(here: string, beside: string, reports: readonly (readonly [Report, Report])[]): BesideSummary {
  const pairs = reports.map(([a, b]) => pairFigures(a, b));
  const ratio = (pick: (p: PairFigures) => readonly [number, number, number]) => spread(pairs.map((p) => pick(p)[2]));
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
  s.pairs.forEach((p, i) => {
    const [ok, otherOk] = s.okPerPair[i]!;
    lines.push(
      `  pair ${i + 1}: CPU ms a unit ${p.cpuMsPerUnit[0]} beside ${p.cpuMsPerUnit[1]} (×${p.cpuMsPerUnit[2]}; kernel ${p.systemCpuMsPerUnit[0]} beside ${p.systemCpuMsPerUnit[1]}), ` +
        `bytes a unit ${p.bytesReceivedPerUnit[0]} beside ${p.bytesReceivedPerUnit[1]}, units/s ${p.unitsPerSecond[0]} beside ${p.unitsPerSecond[1]}, ` +
        `p99 ${p.p99Ms[0]} beside ${p.p99Ms[1]} ms${ok && otherOk ? '' : `; books or run FAILED ${ok ? 'beside' : 'here'}`}`,
    );
  });
  const line = (name: string, x: Spread) => `  ${name.padEnd(24)} median ×${x.median}  (${x.min}–${x.max})`;
  lines.push('this ÷ beside:', line('CPU ms a unit', s.ratios.cpuMsPerUnit), line('bytes a unit to clients', s.ratios.bytesReceivedPerUnit), line('units/s', s.ratios.unitsPerSecond));
  return lines.join('\n');
}

/** `runs` pairs, one after another, each side's load test (`here`'s and `dir`'s) started at the same moment. */
export async function runBeside(dir: string, argv: readonly string[], runs: number, progress: (line: string) => void, here = ROOT): Promise<BesideSummary> {
  const args = sideArguments(argv);
  const reports: [Report, Report][] = [];
  for (let i = 1; i <= runs; i++) {
    progress(`pair ${i} of ${runs}: ${here} and ${dir} at the same time`);
    reports.push(await Promise.all([runSide(here, args), runSide(dir, args)]));
  }
  return summarizePairs(here, dir, reports);
}
