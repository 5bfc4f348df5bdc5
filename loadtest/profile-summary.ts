import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npx tsx loadtest/profile-summary.ts <file.cpuprofile> [files] [functions]`: where a V8 CPU
 * profile spent its time, by package or source file and by function (self time), as a share of
 * the profile. Enough to say what limits a load test without opening DevTools. With
 * `--busy-share f,g`: the share of the busy time spent in f and what it called, and in g.
 * A `.heapprofile` (`--profile-heap`) is told the same way, by bytes allocated.
 * A bundled file with its source map beside it (dist/main.js) is told by its sources' names.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function summarizeProfile(profile: Profile, files = 25, functions = 40): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    self.set(id, (self.get(id) ?? 0) + dt);
  });
  const costs = [...self].map(([id, t]) => [byId.get(id)!.callFrame, t] as const);
  return `${(total / 1e6).toFixed(1)} s profiled\n${tally(costs, total, files, functions, 'self time')}`;
}

/** A sampling heap profile (`.heapprofile`, `--profile-heap`): its nodes' own allocations. */
interface HeapProfile {
  head: HeapNode;
}

interface HeapNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: HeapNode[];
}

/**
 * Where a sampling heap profile's bytes were allocated (each function's own allocations, kept or
 * collected since), by package or source file and by function, as shares of all of them.
 */
export function summarizeHeapProfile(profile: HeapProfile, files = 25, functions = 40): string {
  const costs: (readonly [ProfileNode['callFrame'], number])[] = [];
  let total = 0;
  const visit = (node: HeapNode) => {
    if (node.selfSize > 0) costs.push([node.callFrame, node.selfSize]);
    total += node.selfSize;
    node.children.forEach(visit);
  };
  visit(profile.head);
  return `${(total / 1e6).toFixed(1)} MB allocated\n${tally(costs, total, files, functions, 'allocated')}`;
}

/** Costs of call frames added up by package or source file and by function, as shares of `total`. */
function tally(costs: Iterable<readonly [ProfileNode['callFrame'], number]>, total: number, files: number, functions: number, what: string): string {
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const root = process.cwd().replace(/\/$/, '');
  const original = new OriginalPositions();
  for (const [frame, cost] of costs) {
    const { functionName, url, lineNumber } = original.of(frame);
    const where = url
      .replace(/^file:\/\//, '')
      .replace(`${root}/`, '')
      .replace(/.*node_modules\/(@[^/]+\/[^/]+|[^/]+)\/.*/, 'npm:$1');
    const file = where || `(${functionName || 'native'})`;
    byFile.set(file, (byFile.get(file) ?? 0) + cost);
    const fn = `${functionName || '(anonymous)'}  ${where}${where ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + cost);
  }
  const top = (m: Map<string, number>, n: number) => [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
  return `-- ${what} by package or file\n${top(byFile, files)}\n-- ${what} by function\n${top(byFunction, functions)}`;
}

/** Positions in a bundle (a file with its `.map` beside it) told as the source's file and line. */
class OriginalPositions {
  private readonly maps = new Map<string, SourceMap | undefined>();

  of(frame: ProfileNode['callFrame']): ProfileNode['callFrame'] {
    if (!frame.url.startsWith('file://')) return frame;
    const file = fileURLToPath(frame.url);
    let map = this.maps.get(file);
    if (!this.maps.has(file)) {
      map = existsSync(`${file}.map`) ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) : undefined;
      this.maps.set(file, map);
    }
    const entry = map?.findEntry(frame.lineNumber, frame.columnNumber ?? 0);
    if (!entry || !('originalSource' in entry)) return frame;
    const source = resolve(dirname(file), entry.originalSource.replace(/^file:\/\//, ''));
    return { ...frame, url: `file://${source}`, lineNumber: entry.originalLine };
  }
}

/**
 * For each function named, the share of the busy samples (not idle) in which it is on the stack:
 * its cost with everything it called. Functions of that name in any file count together.
 */
export function busyShares(profile: Profile, names: readonly string[]): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const shares = new Map(names.map((name) => [name, 0]));
  let busy = 0;
  profile.samples.forEach((id, i) => {
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) onStack.add(byId.get(at)!.callFrame.functionName);
    for (const name of names) if (onStack.has(name)) shares.set(name, shares.get(name)! + dt);
  });
  for (const name of names) shares.set(name, busy > 0 ? shares.get(name)! / busy : 0);
  return shares;
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const [file, second, third] = process.argv.slice(2);
  const usage = 'usage: npx tsx loadtest/profile-summary.ts <file.cpuprofile|file.heapprofile> [files] [functions]\n'
    + '       npx tsx loadtest/profile-summary.ts <file.cpuprofile> --busy-share <function>[,<function>…]\n';
  if (file === '--help' || file === '-h') {
    process.stdout.write(usage);
    process.exit(0);
  }
  if (!file) {
    process.stderr.write(usage);
    process.exit(2);
  }
  let profile: Profile | HeapProfile;
  try {
    profile = JSON.parse(readFileSync(file, 'utf8')) as Profile | HeapProfile;
  } catch (err) {
    process.stderr.write(`${file}: not a readable profile (${(err as Error).message})\n${usage}`);
    process.exit(2);
  }
  if ('head' in profile) {
    process.stdout.write(`${summarizeHeapProfile(profile, Number(second ?? 25), Number(third ?? 40))}\n`);
  } else if (second === '--busy-share') {
    const shares = busyShares(profile, (third ?? '').split(',').filter(Boolean));
    for (const [name, share] of shares) process.stdout.write(`${(100 * share).toFixed(1).padStart(5)}%  ${name}\n`);
  } else {
    process.stdout.write(`${summarizeProfile(profile, Number(second ?? 25), Number(third ?? 40))}\n`);
  }
}
