import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * What the processes of a run cost (game servers, Redis, the echo server, the harness itself):
 * CPU and resident memory sampled from /proc once a second, and the whole machine's CPU, over
 * the measured window.
 */

let clockTicks: number | undefined;
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

export interface ProcUsage {
  readonly pid: number;
  /** Mean CPU over the window, in % of one core (200 % = both cores of this machine). */
  readonly cpuAvgPercent: number;
  /** Highest one-second CPU sample in the window. */
  readonly cpuMaxPercent: number;
  /** CPU time over the window (user + system, all threads), in ms (10 ms resolution). */
  readonly cpuMs: number;
  /** Of `cpuMs`, the time in the kernel (system calls: the sockets' reads and writes, the log's). */
  readonly systemCpuMs: number;
  readonly rssMaxMB: number;
  readonly rssLastMB: number;
  /** RSS at the window's close − at its opening, in MB. */
  readonly rssGrowthMB: number;
  readonly samples: number;
  /** `cpuMs` by thread (Linux; empty where /proc has no tasks). */
  readonly threadsCpuMs: ThreadsCpu;
}

/**
 * A Node process's CPU by kind of thread: its main thread (JavaScript, the event loop, the
 * sockets' system calls, the collector's work on the main thread), V8's worker threads (the
 * garbage collector's parallel and concurrent work, the optimizing compiler: named like the
 * process), libuv's pool (file system, crypto, DNS) and any other thread.
 */
export interface ThreadsCpu {
  readonly main?: number;
  readonly v8Workers?: number;
  readonly libuvPool?: number;
  readonly other?: number;
}

/**
 * One reading of /proc: CPU ticks (user + system; system alone), resident memory, and ticks per
 * kind of thread (read at the window's edges only, not for the progress samples).
 */
interface ProcSample {
  readonly t: number;
  readonly ticks: number;
  readonly systemTicks: number;
  readonly rssKB: number;
  readonly threadTicks?: Map<keyof ThreadsCpu, number>;
}

/** User + system ticks of a /proc stat line, and the thread's name. */
function statTicks(stat: string): { name: string; ticks: number; systemTicks: number } {
  // Fields after the command name (which may hold spaces) start at state (field 3).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const systemTicks = Number(fields[12]);
  return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(fields[11]) + systemTicks, systemTicks };
}

/** Ticks of each kind of thread of `pid`, summed: threads that ended since are not counted. */
function threadTicks(pid: number, processName: string): Map<keyof ThreadsCpu, number> {
  const byKind = new Map<keyof ThreadsCpu, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byKind;
  }
  for (const tid of tids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const { name, ticks } = statTicks(stat);
    const kind = Number(tid) === pid ? 'main' : name === 'libuv-worker' ? 'libuvPool' : name === processName ? 'v8Workers' : 'other';
    byKind.set(kind, (byKind.get(kind) ?? 0) + ticks);
  }
  return byKind;
}

/** CPU and RSS of a process from /proc/<pid>/stat and /proc/<pid>/status. */
export class ProcSampler {
  private timer: NodeJS.Timeout | undefined;
  private last: { t: number; ticks: number } | undefined;
  private windowStart: ProcSample | undefined;
  private windowEnd: ProcSample | undefined;
  private cpuMax = 0;
  private rssMax = 0;
  private rssLast = 0;
  private samples = 0;
  /** The last one-second CPU sample, for progress lines. */
  lastCpuPercent = 0;

  constructor(readonly pid: number) {}

  private read(withThreads = false): ProcSample | undefined {
    try {
      const { name, ticks, systemTicks } = statTicks(readFileSync(`/proc/${this.pid}/stat`, 'utf8'));
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const rss = /VmRSS:\s+(\d+)/.exec(status);
      return { t: performance.now(), ticks, systemTicks, rssKB: rss ? Number(rss[1]) : 0, ...(withThreads && { threadTicks: threadTicks(this.pid, name) }) };
    } catch {
      return undefined;
    }
  }

  /** Starts sampling every second (for progress); the window is what the report keeps. */
  start(): void {
    if (this.timer) return;
    this.last = this.read();
    this.timer = setInterval(() => this.sample(), 1000);
    this.timer.unref();
  }

  private sample(): void {
    const now = this.read();
    if (!now) return;
    if (this.last) {
      const cpu = ((now.ticks - this.last.ticks) / ticksPerSecond()) / ((now.t - this.last.t) / 1000) * 100;
      this.lastCpuPercent = cpu;
      if (this.windowStart && !this.windowEnd) {
        this.cpuMax = Math.max(this.cpuMax, cpu);
        this.rssMax = Math.max(this.rssMax, now.rssKB);
        this.rssLast = now.rssKB;
        this.samples++;
      }
    }
    this.last = now;
  }

  openWindow(): void {
    this.windowStart = this.read(true);
    this.windowEnd = undefined;
    this.cpuMax = this.rssMax = this.samples = 0;
  }

  closeWindow(): void {
    this.windowEnd = this.read(true);
    if (this.windowEnd) {
      this.rssMax = Math.max(this.rssMax, this.windowEnd.rssKB);
      this.rssLast = this.windowEnd.rssKB;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  usage(): ProcUsage {
    const a = this.windowStart;
    const b = this.windowEnd ?? this.read(true);
    const cpuMs = a && b ? ((b.ticks - a.ticks) / ticksPerSecond()) * 1000 : 0;
    const systemCpuMs = a && b ? ((b.systemTicks - a.systemTicks) / ticksPerSecond()) * 1000 : 0;
    const avg = a && b && b.t > a.t ? (cpuMs / (b.t - a.t)) * 100 : 0;
    const round = (x: number) => Math.round(x * 10) / 10;
    return {
      pid: this.pid,
      cpuAvgPercent: round(avg),
      cpuMaxPercent: round(Math.max(this.cpuMax, avg)),
      cpuMs: Math.round(cpuMs),
      systemCpuMs: Math.round(systemCpuMs),
      rssMaxMB: round(this.rssMax / 1024),
      rssLastMB: round(this.rssLast / 1024),
      rssGrowthMB: a && b ? round((b.rssKB - a.rssKB) / 1024) : 0,
      samples: this.samples,
      threadsCpuMs: a && b ? threadsCpuMs(a, b) : {},
    };
  }
}

function threadsCpuMs(a: ProcSample, b: ProcSample): ThreadsCpu {
  const byKind: Partial<Record<keyof ThreadsCpu, number>> = {};
  for (const [kind, ticks] of b.threadTicks ?? []) byKind[kind] = Math.round(((ticks - (a.threadTicks?.get(kind) ?? 0)) / ticksPerSecond()) * 1000);
  return byKind;
}

/**
 * The whole machine's CPU over the window, from /proc/stat, in % of one core (200 % = both
 * cores here): with the processes of the run subtracted, what other work took from it.
 */
export class MachineSampler {
  private start: { t: number; busy: number } | undefined;
  private end: { t: number; busy: number } | undefined;

  private read(): { t: number; busy: number } | undefined {
    try {
      const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
      // cpu user nice system idle iowait irq softirq steal ...
      const f = line.trim().split(/\s+/).slice(1).map(Number);
      const busy = f[0]! + f[1]! + f[2]! + (f[5] ?? 0) + (f[6] ?? 0) + (f[7] ?? 0);
      return { t: performance.now(), busy };
    } catch {
      return undefined;
    }
  }

  openWindow(): void {
    this.start = this.read();
    this.end = undefined;
  }

  closeWindow(): void {
    this.end = this.read();
  }

  /** Busy CPU of the whole machine over the window, in % of one core. */
  busyPercent(): number {
    const a = this.start;
    const b = this.end ?? this.read();
    if (!a || !b || b.t <= a.t) return 0;
    return Math.round((((b.busy - a.busy) / ticksPerSecond()) / ((b.t - a.t) / 1000)) * 1000) / 10;
  }
}
