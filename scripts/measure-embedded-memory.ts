/**
 * `npm run measure:embedded-memory [-- --every 10 --warmup 120] [-- <loadtest options>]`: the
 * embedded server's resident memory over a steady load. Runs `npm run loadtest` with the options
 * given after the second `--` (default: 300 players, think 200 ms, 600 s, no echo), reads the
 * game server's pid and the harness's phase and units from its output, samples
 * `/proc/<pid>/status` (VmRSS) and the V8 heap in use (`lottery_nodejs_heap_size_used_bytes`,
 * from `/metrics` on a loopback `METRICS_PORT` it gives the server) every `--every` seconds, and
 * prints the samples and the growth
 * within the measured window, from `--warmup` seconds after the server started to the last
 * sample of the window; the run is stopped when the books check starts. A measurement, not a
 * test: docs/performance.md holds the figures.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { decimal, optionsOrExit, whole } from '../tools/command-line';
import { freePort } from '../tools/redis-server';

const DEFAULT_LOADTEST = ['--players', '300', '--think-ms', '200', '--duration', '600', '--no-echo'];
const options = optionsOrExit<{ everyS: number; warmupS: number; loadtestArgs: readonly string[] }>({
  synopsis: 'npm run measure:embedded-memory -- [--every 10] [--warmup 120] [-- <loadtest options>]',
  defaults: { everyS: 10, warmupS: 120, loadtestArgs: DEFAULT_LOADTEST },
  flags: [
    { name: '--every', value: 'S', help: 'seconds between samples (default 10)', set: (o, v) => (o.everyS = decimal(v, 1, 3600)) },
    { name: '--warmup', value: 'S', help: 'seconds after the server started before growth is counted (default 120)', set: (o, v) => (o.warmupS = whole(v, 0, 86_400)) },
  ],
  rest: (o, args) => (o.loadtestArgs = args),
});
const EVERY_S = options.everyS;
const WARMUP_S = options.warmupS;
const loadtestArgs = options.loadtestArgs;

/** Resident memory of `pid` in MB, or undefined once it is gone. */
function rssMB(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A free loopback port for the server's `/metrics` (no token there). */
const metricsPort = await freePort();

/** The server's V8 heap in use, in MB (undefined when /metrics does not answer). */
async function heapUsedMB(): Promise<number | undefined> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
    const bytes = /^lottery_nodejs_heap_size_used_bytes (\d+)/m.exec(text);
    return bytes ? Number(bytes[1]) / 2 ** 20 : undefined;
  } catch {
    return undefined;
  }
}

const samples: { s: number; mb: number; heapMB: number | undefined; phase: string; units: number }[] = [];
/** The harness's phase and units bought so far, from its last progress line. */
let phase = 'start';
let units = 0;
// Its own process group, so that the whole run can be stopped at once.
const child = spawn('npx', ['tsx', 'loadtest/main.ts', ...loadtestArgs, '--server-env', `METRICS_PORT=${metricsPort}`], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
let pid: number | undefined;
let started = 0;
const watch = (chunk: Buffer) => {
  const text = chunk.toString();
  process.stderr.write(text);
  const found = /server-1 \(pid (\d+)\)/.exec(text);
  if (found && pid === undefined) {
    pid = Number(found[1]);
    started = Date.now();
  }
  for (const line of text.split('\n')) {
    const progress = /^\[\S+\s+\d+s (\w+)\s*\].*units (\d+) /.exec(line);
    if (progress) [phase, units] = [progress[1]!, Number(progress[2])];
    // The load is over. The books are not waited for: with the bound reached, units the
    // players bought are forgotten, and the books check says so unit by unit.
    if (line.startsWith('checking the books') && phase !== 'books') {
      phase = 'books';
      process.kill(-child.pid!, 'SIGTERM');
      // The server too (the harness, stopped by a signal, does not stop it), killed if still there after 20 s.
      const server = pid;
      if (server !== undefined) {
        process.kill(server, 'SIGTERM');
        setTimeout(() => rssMB(server) !== undefined && process.kill(server, 'SIGKILL'), 20_000);
      }
    }
  }
};
child.stdout.on('data', watch);
child.stderr.on('data', watch);
const round = (mb: number) => Math.round(mb * 10) / 10;
const timer = setInterval(() => {
  if (pid === undefined) return;
  const mb = rssMB(pid);
  const at = { s: Math.round((Date.now() - started) / 1000), phase, units };
  if (mb !== undefined) void heapUsedMB().then((heap) => samples.push({ ...at, mb: round(mb), heapMB: heap === undefined ? undefined : round(heap) }));
}, EVERY_S * 1000);

child.on('exit', (code) => {
  clearInterval(timer);
  // Under load: the measured window (the ramp and warm-up before it, the drain and books after).
  const during = samples.filter((x) => x.phase === 'run');
  const warm = during.find((x) => x.s >= WARMUP_S);
  const last = during[during.length - 1];
  console.log('\n      s    RSS MB   heap used MB   units in window  phase');
  for (const x of samples) console.log(`${String(x.s).padStart(7)}  ${x.mb.toFixed(1).padStart(8)}  ${(x.heapMB?.toFixed(1) ?? '–').padStart(13)}  ${String(x.units).padStart(15)}  ${x.phase}`);
  const summary = {
    loadtest: `npm run loadtest -- ${loadtestArgs.join(' ')}`,
    loadtestExit: code,
    unitsInWindow: last?.units ?? null,
    warmupS: WARMUP_S,
    rssAtWarmupMB: warm?.mb ?? null,
    rssLastUnderLoadMB: last?.mb ?? null,
    rssMaxUnderLoadMB: during.length > 0 ? Math.max(...during.map((x) => x.mb)) : null,
    growthAfterWarmupMB: warm && last ? round(last.mb - warm.mb) : null,
    heapAtWarmupMB: warm?.heapMB ?? null,
    heapLastUnderLoadMB: last?.heapMB ?? null,
  };
  console.log(JSON.stringify(summary));
});
