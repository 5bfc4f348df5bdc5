import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import type { BooksResult } from './books';
import type { PhaseSummary } from './drive';
import type { LoadtestOptions } from './options';
import type { ProcUsage, ThreadsCpu } from './samplers';
import { summarize, type LatencySummary } from './stats';

/** The report of a run: what `npm run loadtest` prints, writes as JSON, and prints as its last line. */

export interface PhaseReport {
  readonly endpoints: readonly string[];
  readonly windowSeconds: number;
  readonly rampSeconds: number;
  readonly players: { readonly requested: number; readonly connected: number };
  readonly spectators: {
    readonly requested: number;
    readonly connected: number;
    readonly feed: number;
    readonly watchers: number;
    readonly watchedTables: number;
    /** Of the watched tables, how many `GET /tables` listed after the ramp (null: not asked). */
    readonly listedTables: number | null;
  };
  readonly throughput: {
    readonly unitsPerSecond: number;
    readonly unitsBought: number;
    readonly unitsFinished: number;
    /** Messages both ways (requests, replies, messages, patches; spectators included). */
    readonly messagesPerSecond: number;
    readonly sentPerSecond: number;
    readonly receivedPerSecond: number;
    readonly patchesPerSecond: number;
    readonly requestsPerUnit: number;
  };
  /**
   * What crossed the WebSockets over the window, counted at the clients: `requests` are the
   * `buy` and `act` messages (retries included), the same for the game server and the echo;
   * messages are every message each way (as `messagesPerSecond`); bytes are what the clients'
   * TCP sockets wrote and read (frames with their headers; null with undici's clients).
   */
  readonly traffic: {
    readonly requests: number;
    readonly messagesSent: number;
    readonly messagesReceived: number;
    readonly bytesSent: number | null;
    readonly bytesReceived: number | null;
  };
  /** Send of `buy`/`act` → the state patch with the resulting step, in ms. */
  readonly latency: {
    readonly actionToPatch: LatencySummary;
    readonly buy: LatencySummary;
    readonly act: LatencySummary;
    readonly tableSwitch: LatencySummary;
  };
  readonly spectatorDelays: {
    /** Player's client saw the result → a feed spectator got the win (in a `wins` batch), in ms. */
    readonly feed: LatencySummary;
    /** The win's `at` (server clock, when the reveal ended) → a feed spectator got it, in ms (1 ms resolution). */
    readonly feedAge: LatencySummary;
    readonly feedWinsReceived: number;
    readonly feedAheadOfPlayer: number;
    /** The most a win reached a spectator before the player's client saw the result, in ms. */
    readonly feedLeadMaxMs: number;
    readonly feedUnmatched: number;
    /** Player's client saw a step → a watcher of its table saw it, in ms. */
    readonly watch: LatencySummary;
    readonly watchAheadOfPlayer: number;
    readonly watchLeadMaxMs: number;
    /** Steps the watchers received, each once per watcher. */
    readonly watchStepsReceived: number;
    /** Feed spectators that received at least one win in the window (of `spectators.feed`). */
    readonly feedSpectatorsServed: number;
    /** Watchers that received at least one step in the window (of `spectators.watchers`). */
    readonly watchersServed: number;
  };
  readonly errors: {
    readonly total: number;
    readonly byCode: Record<string, number>;
    /** Errors before the window (ramp, warm-up) or after it (drain). */
    readonly outsideWindow: Record<string, number>;
    /** The first message of each code. */
    readonly samples: Record<string, string>;
  };
  readonly undrainedPlayers: number;
  /**
   * CPU over the window, in % of one core (this machine has `machine.cpus` cores): the whole
   * machine, the processes of the run (servers, Redis, harness), and the rest (other work).
   */
  readonly cpu: { readonly machine: number; readonly run: number; readonly others: number };
}

/**
 * What one unit costs in one phase (the game servers, or the echo), over the window. The
 * serving processes are the game servers and their Redis (or the echo server).
 */
export interface PhaseEfficiency {
  readonly unitsBought: number;
  /** CPU of the serving processes over the window, in ms (from /proc, 10 ms resolution). */
  readonly serverCpuMs: number;
  readonly cpuMsPerUnit: number;
  /**
   * Of `cpuMsPerUnit`, the time in the kernel: the system calls (on loopback a socket write
   * also carries the packet to the receiving socket). The rest is JavaScript, V8 and its GC.
   */
  readonly systemCpuMsPerUnit: number;
  /**
   * `cpuMsPerUnit` by kind of thread, summed over the serving processes (loadtest/samplers.ts):
   * the main threads, V8's workers (collector, compiler), libuv's pools, any other thread.
   */
  readonly threadsCpuMsPerUnit: ThreadsCpu;
  /** Per `buy` or `act` request (PhaseReport.traffic.requests). */
  readonly cpuMsPerRequest: number;
  readonly requestsPerUnit: number;
  readonly messagesSentPerUnit: number;
  readonly messagesReceivedPerUnit: number;
  readonly bytesSentPerUnit: number | null;
  readonly bytesReceivedPerUnit: number | null;
  /**
   * The serving processes' RSS growth over the window (close − open, summed) per 1,000 units
   * sold in it, in MB: what the units sold leave in memory (negative when a GC freed more).
   */
  readonly rssGrowthMBPer1000Units: number;
  /** The harness's own CPU (all its threads) per unit, in ms. */
  readonly harnessCpuMsPerUnit: number;
  /**
   * Commands the run's own Redis ran per unit, those its Lua scripts ran included (`--redis`;
   * null otherwise, and on a Redis Cluster).
   */
  readonly redisCommandsPerUnit: number | null;
}

export interface Efficiency {
  readonly game: PhaseEfficiency;
  readonly echo: PhaseEfficiency | null;
  /** Game server ÷ echo, from the figures above. */
  readonly ratio: { readonly cpuMsPerUnit: number; readonly cpuMsPerRequest: number } | null;
}

export interface ServerUsage extends ProcUsage {
  readonly name: string;
  readonly url?: string;
}

export interface Report {
  readonly format: 'loadtest-report/v1';
  readonly ok: boolean;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly command: string;
  /** `loadAverageAtStart`: the 1-minute load average before the run (other work on the machine). */
  readonly machine: { readonly cpus: number; readonly node: string; readonly platform: string; readonly loadAverageAtStart: number };
  readonly options: LoadtestOptions;
  readonly mode: { readonly servers: 'started' | 'given'; readonly processes: number; readonly redis: boolean };
  readonly run: PhaseReport;
  readonly books: BooksResult | { readonly ok: false; readonly problems: readonly string[]; readonly problemCount: number };
  readonly processes: readonly ServerUsage[];
  readonly harness: { readonly cpuAvgPercent: number; readonly rssMB: number };
  readonly efficiency: Efficiency;
  readonly baseline: {
    readonly echo: PhaseReport | null;
    readonly processes: readonly ServerUsage[];
    /** Game server ÷ echo: throughput as a share of the framework's ceiling, latency as a multiple. */
    readonly ratio: {
      readonly unitsPerSecond: number;
      readonly messagesPerSecond: number;
      readonly p50: number;
      readonly p99: number;
    } | null;
    readonly note?: string;
  };
  /**
   * `--wallet seamless`: the same load on internal servers (the server's own wallet) and on
   * seamless ones (the reference operator's, answering after `latencyMs`), compared.
   */
  readonly wallet?: {
    readonly latencyMs: number;
    readonly internal: WalletRunFigures;
    readonly seamless: WalletRunFigures & { readonly ledgerDifferences: number | null };
    /** Seamless ÷ internal. */
    readonly ratio: { readonly p99ActionToPatch: number | null; readonly cpuMsPerUnit: number | null };
  };
  /** Why the run failed, besides the books. */
  readonly failures: readonly string[];
}

export interface WalletRunFigures {
  readonly p99ActionToPatchMs: number | null;
  readonly cpuMsPerUnit: number | null;
  readonly unitsPerSecond: number | null;
  readonly booksOk: boolean;
}

export const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

function mapOf(m: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...m.entries()].sort((a, b) => b[1] - a[1]));
}

export function phaseReport(phase: PhaseSummary, endpoints: readonly string[], options: LoadtestOptions, cpu: { machine: number; run: number } = { machine: 0, run: 0 }): PhaseReport {
  const { stats } = phase;
  const w = stats.window();
  const seconds = stats.windowSeconds;
  const per = (n: number) => (seconds > 0 ? round(n / seconds) : 0);
  const outside = new Map(stats.allErrors);
  for (const [code, n] of stats.errors) outside.set(code, (outside.get(code) ?? 0) - n);
  for (const [code, n] of outside) if (n <= 0) outside.delete(code);
  return {
    endpoints,
    windowSeconds: round(seconds, 2),
    rampSeconds: round(phase.rampSeconds, 2),
    players: { requested: options.players, connected: phase.playersConnected },
    spectators: {
      requested: options.spectators,
      connected: phase.spectatorsConnected,
      feed: phase.feedSpectators,
      watchers: phase.tableWatchers,
      watchedTables: phase.watchedTables,
      listedTables: phase.listedTables ?? null,
    },
    throughput: {
      unitsPerSecond: per(w.unitsBought),
      unitsBought: w.unitsBought,
      unitsFinished: w.unitsFinished,
      messagesPerSecond: per(w.sent + w.received),
      sentPerSecond: per(w.sent),
      receivedPerSecond: per(w.received),
      patchesPerSecond: per(w.patches),
      requestsPerUnit: w.unitsBought > 0 ? round(w.sent / w.unitsBought, 2) : 0,
    },
    traffic: {
      requests: w.requests,
      messagesSent: w.sent,
      messagesReceived: w.received,
      bytesSent: phase.bytes?.sent ?? null,
      bytesReceived: phase.bytes?.received ?? null,
    },
    latency: {
      actionToPatch: summarize(stats.actionToPatch),
      buy: summarize(stats.buyToPatch),
      act: summarize(stats.actToPatch),
      tableSwitch: summarize(stats.tableSwitch),
    },
    spectatorDelays: {
      feed: summarize(stats.feedDelay),
      feedAge: summarize(stats.feedAge),
      feedWinsReceived: w.feedWins,
      feedAheadOfPlayer: w.feedAheadOfPlayer,
      feedLeadMaxMs: round(stats.feedLeadMaxMs, 3),
      feedUnmatched: w.feedUnmatched,
      watch: summarize(stats.watchDelay),
      watchAheadOfPlayer: w.watchAheadOfPlayer,
      watchLeadMaxMs: round(stats.watchLeadMaxMs, 3),
      watchStepsReceived: w.watchSteps,
      feedSpectatorsServed: w.feedSpectatorsServed,
      watchersServed: w.watchersServed,
    },
    errors: {
      total: [...stats.errors.values()].reduce((a, b) => a + b, 0),
      byCode: mapOf(stats.errors),
      outsideWindow: mapOf(outside),
      samples: Object.fromEntries(stats.errorSamples),
    },
    undrainedPlayers: phase.undrained,
    cpu: { machine: cpu.machine, run: round(cpu.run), others: round(Math.max(0, cpu.machine - cpu.run)) },
  };
}

export function ratio(run: PhaseReport, echo: PhaseReport | null): Report['baseline']['ratio'] {
  if (!echo) return null;
  const div = (a: number, b: number) => (b > 0 ? round(a / b, 3) : 0);
  return {
    unitsPerSecond: div(run.throughput.unitsPerSecond, echo.throughput.unitsPerSecond),
    messagesPerSecond: div(run.throughput.messagesPerSecond, echo.throughput.messagesPerSecond),
    p50: div(run.latency.actionToPatch.p50, echo.latency.actionToPatch.p50),
    p99: div(run.latency.actionToPatch.p99, echo.latency.actionToPatch.p99),
  };
}

export function phaseEfficiency(phase: PhaseReport, serving: readonly ProcUsage[], harness: ProcUsage, redisCommands: number | null = null): PhaseEfficiency {
  const units = phase.throughput.unitsBought;
  const t = phase.traffic;
  const per = (n: number, of = units, digits = 4) => (of > 0 ? round(n / of, digits) : 0);
  const perUnit = (n: number | null) => (n === null ? null : per(n, units, 1));
  const serverCpuMs = serving.reduce((sum, u) => sum + u.cpuMs, 0);
  return {
    unitsBought: units,
    serverCpuMs,
    cpuMsPerUnit: per(serverCpuMs),
    systemCpuMsPerUnit: per(serving.reduce((sum, u) => sum + u.systemCpuMs, 0)),
    threadsCpuMsPerUnit: perThreadKind(serving, per),
    cpuMsPerRequest: per(serverCpuMs, t.requests),
    requestsPerUnit: per(t.requests, units, 2),
    messagesSentPerUnit: per(t.messagesSent, units, 2),
    messagesReceivedPerUnit: per(t.messagesReceived, units, 2),
    bytesSentPerUnit: perUnit(t.bytesSent),
    bytesReceivedPerUnit: perUnit(t.bytesReceived),
    rssGrowthMBPer1000Units: per(serving.reduce((sum, u) => sum + u.rssGrowthMB, 0) * 1000, units, 3),
    harnessCpuMsPerUnit: per(harness.cpuMs),
    redisCommandsPerUnit: redisCommands === null ? null : per(redisCommands, units, 2),
  };
}

/** The serving processes' CPU by kind of thread, summed and scaled by `per`. */
function perThreadKind(serving: readonly ProcUsage[], per: (ms: number) => number): ThreadsCpu {
  const sums: Partial<Record<keyof ThreadsCpu, number>> = {};
  for (const usage of serving) {
    for (const [kind, ms] of Object.entries(usage.threadsCpuMs) as [keyof ThreadsCpu, number][]) sums[kind] = (sums[kind] ?? 0) + ms;
  }
  return Object.fromEntries(Object.entries(sums).map(([kind, ms]) => [kind, per(ms)]));
}

export function efficiency(game: PhaseEfficiency, echo: PhaseEfficiency | null): Efficiency {
  const div = (a: number, b: number) => (b > 0 ? round(a / b, 3) : 0);
  return {
    game,
    echo,
    ratio: echo ? { cpuMsPerUnit: div(game.cpuMsPerUnit, echo.cpuMsPerUnit), cpuMsPerRequest: div(game.cpuMsPerRequest, echo.cpuMsPerRequest) } : null,
  };
}

function lat(l: LatencySummary): string {
  return l.count === 0 ? 'none' : `p50 ${l.p50} ms  p95 ${l.p95} ms  p99 ${l.p99} ms  max ${l.max} ms  (${l.count})`;
}

const cores = (() => {
  try {
    return Math.max(1, availableParallelism());
  } catch {
    return 1;
  }
})();

function phaseLines(name: string, p: PhaseReport): string[] {
  const errors = Object.entries(p.errors.byCode).map(([c, n]) => `${c} ×${n}`).join(', ') || 'none';
  const outside = Object.entries(p.errors.outsideWindow).map(([c, n]) => `${c} ×${n}`).join(', ');
  return [
    `${name}: ${p.windowSeconds} s measured after a ${p.rampSeconds} s ramp, ${p.endpoints.join(', ')}`,
    `  players      ${p.players.connected}/${p.players.requested}   spectators ${p.spectators.connected}/${p.spectators.requested} (feed ${p.spectators.feed}, watchers ${p.spectators.watchers} on ${p.spectators.watchedTables} tables${p.spectators.listedTables !== null ? `, ${p.spectators.listedTables} listed by GET /tables` : ''})`,
    `  units/s      ${p.throughput.unitsPerSecond}  (${p.throughput.unitsBought} bought, ${p.throughput.requestsPerUnit} requests per unit)`,
    `  messages/s   ${p.throughput.messagesPerSecond}  (sent ${p.throughput.sentPerSecond}, received ${p.throughput.receivedPerSecond}, of which patches ${p.throughput.patchesPerSecond})`,
    `  action→patch ${lat(p.latency.actionToPatch)}`,
    `    buy        ${lat(p.latency.buy)}`,
    `    act        ${lat(p.latency.act)}`,
    `  feed delay   ${lat(p.spectatorDelays.feed)}; wins received ${p.spectatorDelays.feedWinsReceived} by ${p.spectatorDelays.feedSpectatorsServed}/${p.spectators.feed} feed spectators, ahead of the player ${p.spectatorDelays.feedAheadOfPlayer} (by ${p.spectatorDelays.feedLeadMaxMs} ms at most), unmatched ${p.spectatorDelays.feedUnmatched}`,
    `    by \`at\`   ${lat(p.spectatorDelays.feedAge)}`,
    `  watch delay  ${lat(p.spectatorDelays.watch)}; steps received ${p.spectatorDelays.watchStepsReceived} by ${p.spectatorDelays.watchersServed}/${p.spectators.watchers} watchers, ahead of the player ${p.spectatorDelays.watchAheadOfPlayer} (by ${p.spectatorDelays.watchLeadMaxMs} ms at most)`,
    `  machine CPU  ${p.cpu.machine}% of ${cores * 100}% (this run ${p.cpu.run}%, other work ${p.cpu.others}%)`,
    `  errors       ${p.errors.total}: ${errors}${outside ? `; outside the window: ${outside}` : ''}`,
    ...Object.entries(p.errors.samples).slice(0, 10).map(([code, text]) => `    ${code}: ${text}`),
  ];
}

function efficiencyLine(name: string, e: PhaseEfficiency): string {
  const bytes = e.bytesSentPerUnit === null ? 'bytes not counted' : `bytes ${e.bytesSentPerUnit} sent, ${e.bytesReceivedPerUnit} received`;
  const t = e.threadsCpuMsPerUnit;
  const threads = t.main === undefined ? '' : `; main thread ${t.main}, V8 workers ${t.v8Workers ?? 0}, libuv pool ${t.libuvPool ?? 0}, other ${t.other ?? 0}`;
  return `  ${name.padEnd(11)} ${e.cpuMsPerUnit} ms a unit (${e.systemCpuMsPerUnit} of it in the kernel${threads}), ${e.cpuMsPerRequest} ms a request (${e.requestsPerUnit} requests a unit); a unit: messages ${e.messagesSentPerUnit} sent, ${e.messagesReceivedPerUnit} received, ${bytes}; RSS ${e.rssGrowthMBPer1000Units} MB per 1,000 units; harness ${e.harnessCpuMsPerUnit} ms a unit${e.redisCommandsPerUnit === null ? '' : `; Redis ${e.redisCommandsPerUnit} commands a unit`}`;
}

function usageLine(u: ServerUsage): string {
  return `  ${u.name.padEnd(10)} pid ${u.pid}  cpu avg ${u.cpuAvgPercent}% max ${u.cpuMaxPercent}%  rss max ${u.rssMaxMB} MB (last ${u.rssLastMB} MB)`;
}

export function formatReport(r: Report, file: string | undefined): string {
  const lines: string[] = [];
  lines.push(`load test ${r.ok ? 'PASSED' : 'FAILED'}: ${r.options.players} players, ${r.options.spectators} spectators, ${r.options.durationS} s, ${r.mode.servers === 'started' ? `${r.mode.processes} process${r.mode.processes > 1 ? 'es' : ''}${r.mode.redis ? ' on Redis' : ' (embedded)'}` : 'given endpoints'}, think ${r.options.thinkMs} ms`);
  if (r.machine.loadAverageAtStart > 0.5) lines.push(`note: load average ${r.machine.loadAverageAtStart} before the run: the machine was not idle`);
  lines.push(...phaseLines('game server', r.run));
  lines.push('  processes (over the window):');
  for (const u of r.processes) lines.push(usageLine(u));
  lines.push(`  harness    cpu avg ${r.harness.cpuAvgPercent}%  rss ${r.harness.rssMB} MB`);
  if (r.baseline.echo) {
    lines.push(...phaseLines('echo baseline', r.baseline.echo));
    for (const u of r.baseline.processes) lines.push(usageLine(u));
    const q = r.baseline.ratio!;
    lines.push(`  ratio to echo: units/s ×${q.unitsPerSecond}, messages/s ×${q.messagesPerSecond}, p50 ×${q.p50}, p99 ×${q.p99}`);
  } else if (r.baseline.note) {
    lines.push(`echo baseline: ${r.baseline.note}`);
  }
  lines.push('efficiency (server CPU over the window; per unit sold in it):');
  lines.push(efficiencyLine('game server', r.efficiency.game));
  if (r.efficiency.echo) lines.push(efficiencyLine('echo', r.efficiency.echo));
  if (r.efficiency.ratio) lines.push(`  game ÷ echo: CPU a unit ×${r.efficiency.ratio.cpuMsPerUnit}, CPU a request ×${r.efficiency.ratio.cpuMsPerRequest}`);
  const w = r.wallet;
  if (w) {
    const side = (name: string, f: WalletRunFigures) => `  ${name.padEnd(9)} p99 action→patch ${f.p99ActionToPatchMs ?? '–'} ms, ${f.cpuMsPerUnit ?? '–'} ms CPU a unit, ${f.unitsPerSecond ?? '–'} units/s, books ${f.booksOk ? 'exact' : 'WRONG'}`;
    lines.push(`wallet: seamless (the reference operator answering after ${w.latencyMs} ms) against internal, the same load:`);
    lines.push(side('internal', w.internal));
    lines.push(`${side('seamless', w.seamless)}, ledgers ${w.seamless.ledgerDifferences === 0 ? 'reconciled' : `${w.seamless.ledgerDifferences ?? 'not'} differences`}`);
    lines.push(`  seamless ÷ internal: p99 ×${w.ratio.p99ActionToPatch ?? '–'}, CPU a unit ×${w.ratio.cpuMsPerUnit ?? '–'}`);
  }
  const b = r.books;
  if ('checked' in b) {
    lines.push(`books ${b.ok ? 'EXACT' : 'WRONG'}: ${b.checked.players} players, ${b.checked.units} units (${b.checked.unitsFinished} finished), ${b.checked.recallsRescored} recalls re-scored, ${b.checked.blocks} blocks, stakes ${(b.checked.stakes / 100).toFixed(2)} €, prizes ${(b.checked.prizes / 100).toFixed(2)} €`);
    const rep = b.checked.reports;
    const how = rep?.mode === 'delta' ? 'after − before, the run' : 'whole, the servers';
    if (rep) lines.push(`operator's reports ${rep.differences === 0 ? 'EQUAL' : 'DIFFERENT'} to the recalls (${how}): ${rep.days} game × price × day figures, ${rep.blocks} blocks, ${rep.units} units${rep.prizesUnknown > 0 ? ` (${rep.prizesUnknown} unfinished: their prizes not compared)` : ''}`);
  } else {
    lines.push('books NOT CHECKED');
  }
  for (const p of b.problems) lines.push(`  - ${p}`);
  if (b.problemCount > b.problems.length) lines.push(`  … and ${b.problemCount - b.problems.length} more`);
  for (const f of r.failures) lines.push(`FAILURE: ${f}`);
  if (file) lines.push(`report: ${file}`);
  return lines.join('\n');
}

export function writeReport(report: Report, file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
