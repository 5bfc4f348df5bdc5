import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { syntheticPlayersEnv, randomToken } from './server-env';
import { DealerKeys } from '../src/dealer/redis/store';
import { exited, spawnChild } from '../tools/child-processes';
import { optionsOrExit, whole, type CommandLine } from '../tools/command-line';
import { ArchiveWriterProcess } from '../tools/archive-writer-process';
import { Fleet } from '../tools/fleet';

/**
 * `npm run soak`: a long run on Redis as an operator runs it (docs/reliability.md, "The soak"):
 * a private redis-server, the server processes, the archive writer as its own process
 * (`npm run archive -- run`), and the load test's players and spectators against them for
 * `--minutes`. Every `--every` seconds it samples each server's resident memory and event-loop
 * lag (its /metrics), Redis's memory (INFO) and the archive's lag (entries in the outbox not
 * yet archived, and the age of the oldest); at the end it waits for the writer to drain, then
 * runs `archive verify --books`: every journal line of every player in the archive, once. The
 * samples and the verdict go to `--out` (JSON) and a line per sample to stdout; exit 1 when the
 * archive does not verify. The load test's own books check (every recall re-scored) is bounded
 * at 5 minutes and does not finish an hour's units: its exit is recorded, not judged.
 */

interface SoakOptions {
  minutes: number;
  players: number;
  spectators: number;
  processes: number;
  everyS: number;
  out: string;
}

const COMMAND: CommandLine<SoakOptions> = {
  synopsis: 'npm run soak -- [options]',
  defaults: { minutes: 60, players: 300, spectators: 300, processes: 2, everyS: 30, out: `reports/soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json` },
  flags: [
    { name: '--minutes', value: 'M', help: 'minutes of load (default 60)', set: (o, v) => (o.minutes = whole(v, 1, 24 * 60)) },
    { name: '--players', value: 'N', help: 'synthetic players (default 300)', set: (o, v) => (o.players = whole(v, 1, 20_000)) },
    { name: '--spectators', value: 'M', help: 'spectators (default 300)', set: (o, v) => (o.spectators = whole(v, 0, 20_000)) },
    { name: '--processes', value: 'K', help: 'server processes (default 2)', set: (o, v) => (o.processes = whole(v, 1, 8)) },
    { name: '--every', value: 'S', help: 'seconds between samples (default 30)', set: (o, v) => (o.everyS = whole(v, 1, 3600)) },
    { name: '--out', value: 'FILE', help: 'the report (default reports/soak-<time>.json)', set: (o, v) => (o.out = v) },
  ],
};

const PREFIX = 'soak';
const OPERATOR_TOKEN = 'soak-operator-token';
/** How long the writer is given to archive what is left once the load stops. */
const DRAIN_S = 120;

interface Sample {
  /** Seconds since the load started. */
  readonly atS: number;
  readonly servers: readonly { readonly rssMiB: number; readonly lagP99Ms: number }[];
  readonly redisUsedMiB: number;
  /** Outbox entries not yet archived, and the age of the oldest (s). */
  readonly archiveBacklog: number;
  readonly archiveOldestS: number;
}

function metric(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}

async function sample(fleet: Fleet, redis: Redis, startedAt: number): Promise<Sample> {
  const servers = await Promise.all(fleet.endpoints.map(async (url) => {
    const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).text();
    return { rssMiB: Math.round(metric(text, 'lottery_process_resident_memory_bytes') / 2 ** 20), lagP99Ms: Math.round(metric(text, 'lottery_nodejs_eventloop_lag_p99_seconds') * 1000) };
  }));
  const info = await redis.info('memory');
  const keys = new DealerKeys(PREFIX);
  let backlog = 0;
  let oldest = Date.now();
  for (const stream of ['money', 'play']) {
    backlog += await redis.xlen(keys.outbox(stream));
    const [first] = await redis.xrange(keys.outbox(stream), '-', '+', 'COUNT', 1);
    if (first) oldest = Math.min(oldest, Number(first[0].split('-')[0]));
  }
  return {
    atS: Math.round((Date.now() - startedAt) / 1000),
    servers,
    redisUsedMiB: Math.round(metric(info.replace(/:/g, ' ').replace(/\r/g, ''), 'used_memory') / 2 ** 20),
    archiveBacklog: backlog,
    archiveOldestS: backlog === 0 ? 0 : Math.round((Date.now() - oldest) / 1000),
  };
}

function line(s: Sample): string {
  const servers = s.servers.map((x, i) => `server-${i + 1} ${x.rssMiB} MiB lag p99 ${x.lagP99Ms} ms`).join(', ');
  return `${String(s.atS).padStart(5)} s  ${servers}; Redis ${s.redisUsedMiB} MiB; archive backlog ${s.archiveBacklog} (oldest ${s.archiveOldestS} s)`;
}

async function main(): Promise<number> {
  const o = optionsOrExit(COMMAND);
  const archiveDir = await mkdtemp(join(tmpdir(), 'soak-archive-'));
  const fleet = await Fleet.start({ processes: o.processes, redis: {}, env: { REDIS_PREFIX: PREFIX, ARCHIVE_DIR: archiveDir, ...syntheticPlayersEnv(randomToken(), OPERATOR_TOKEN), LOG_LEVEL: 'warn' }, log: console.log });
  const writerEnv = { ...fleet.redisEnv, REDIS_PREFIX: PREFIX, ARCHIVE_DIR: archiveDir };
  const env = { ...process.env, ...writerEnv };
  const writer = ArchiveWriterProcess.start(writerEnv);
  const redis = new Redis(fleet.redisEnv['REDIS_URL']!);
  const samples: Sample[] = [];
  const startedAt = Date.now();
  try {
    const load = spawnChild('npx', ['tsx', 'loadtest/main.ts', '--endpoint', fleet.endpoints.join(','), '--players', String(o.players), '--spectators', String(o.spectators), '--duration', String(o.minutes * 60), '--operator-token', OPERATOR_TOKEN, '--no-echo', '--quiet', '--out', `${o.out.replace(/\.json$/, '')}-loadtest.json`], { stdio: ['ignore', 'inherit', 'inherit'] }, 'SIGTERM');
    const timer = setInterval(() => void sample(fleet, redis, startedAt).then((s) => (samples.push(s), console.log(line(s))), (err) => console.error(`sample failed: ${(err as Error).message}`)), o.everyS * 1000);
    await exited(load);
    clearInterval(timer);
    const loadExit = load.exitCode ?? 3;
    for (let waited = 0; waited < DRAIN_S && (await sample(fleet, redis, startedAt)).archiveBacklog > 0; waited++) await new Promise((r) => setTimeout(r, 1000));
    const drained = await sample(fleet, redis, startedAt);
    samples.push(drained);
    console.log(`drained: ${line(drained)}`);
    let verified = 0;
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/archive.ts', 'verify', archiveDir, '--books'], { env, stdio: 'inherit' });
    } catch (err) {
      verified = (err as { status?: number }).status ?? 3;
    }
    const report = { options: o, commit: execFileSync('git', ['rev-parse', 'HEAD']).toString().trim(), startedAt: new Date(startedAt).toISOString(), samples, loadtestExit: loadExit, archiveVerifyExit: verified };
    await mkdir(join(o.out, '..'), { recursive: true });
    await writeFile(o.out, JSON.stringify(report, null, 2));
    console.log(`report: ${o.out}; load test (its books): exit ${loadExit}; archive verify --books: exit ${verified}`);
    return verified === 0 ? 0 : 1;
  } finally {
    redis.disconnect();
    await writer.stop();
    process.stdout.write(writer.output);
    await fleet.stop();
  }
}

process.exitCode = await main();
