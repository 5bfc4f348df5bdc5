import { readFileSync } from 'node:fs';

/**
 * `npx tsx loadtest/profile-summary.ts <file.cpuprofile> [files] [functions]`: where a V8 CPU
 * profile spent its time, by package or source file and by function (self time), as a share of
 * the profile. Enough to say what limits a load test without opening DevTools.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
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
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const root = process.cwd().replace(/\/$/, '');
  for (const [id, t] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url
      .replace(/^file:\/\//, '')
      .replace(`${root}/`, '')
      .replace(/.*node_modules\/(@[^/]+\/[^/]+|[^/]+)\/.*/, 'npm:$1');
    const file = where || `(${functionName || 'native'})`;
    byFile.set(file, (byFile.get(file) ?? 0) + t);
    const fn = `${functionName || '(anonymous)'}  ${where}${where ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + t);
  }
  const top = (m: Map<string, number>, n: number) => [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
  return `${(total / 1e6).toFixed(1)} s profiled\n-- self time by package or file\n${top(byFile, files)}\n-- self time by function\n${top(byFunction, functions)}`;
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const [file, files, functions] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: npx tsx loadtest/profile-summary.ts <file.cpuprofile> [files] [functions]\n');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  process.stdout.write(`${summarizeProfile(profile, Number(files ?? 25), Number(functions ?? 40))}\n`);
}
