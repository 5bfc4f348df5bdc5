import { Worker } from 'node:worker_threads';
import type { Collected } from './collect';
import { closeWindow, openWindow, progressLine, type DriveSettings, type PhaseResult, type PhaseSummary, type ProgressFigures } from './drive';
import type { Share } from './player';
import { Stats, type StatsSnapshot } from './stats';

/**
 * The load generator on several threads (`--workers N`): N worker threads (drive-worker.ts)
 * each drive the players, tables and spectators whose index ≡ k mod N; this thread keeps the
 * clock (every thread has joined → the players start, the warm-up, the window), samples the
 * processes over the window, merges what the workers measured (histograms HDR-encoded, counters
 * summed) and gathers every player's books for one check over all of them.
 */

/** What a worker needs to drive its share (crosses threads: plain data only). */
export type WorkerSetup = Pick<DriveSettings, 'target' | 'endpoints' | 'durationS' | 'options' | 'prefix' | 'resilient'> & { readonly share: Share };

type WorkerSummary = Pick<PhaseSummary, 'unitsBought' | 'playersConnected' | 'feedSpectators' | 'tableWatchers' | 'watchedTables' | 'listedTables' | 'spectatorsConnected' | 'undrained' | 'bytes'> & {
  readonly stats: StatsSnapshot;
};

export type ToWorker =
  | { readonly type: 'start' }
  | { readonly type: 'open' }
  | { readonly type: 'close' }
  | { readonly type: 'leave' }
  | { readonly type: 'collect'; readonly endpoints: readonly string[]; readonly remainingMs: number; readonly timeoutMs: number };

export type FromWorker =
  | { readonly type: 'log'; readonly line: string }
  | { readonly type: 'progress'; readonly figures: ProgressFigures }
  | { readonly type: 'ramped' }
  | { readonly type: 'left' }
  | { readonly type: 'drained'; readonly summary: WorkerSummary }
  | { readonly type: 'collected'; readonly collected: Collected }
  | { readonly type: 'failed'; readonly message: string };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One worker thread and the messages it sends, awaited by type. */
class DriveWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<FromWorker['type'], { resolve: (m: FromWorker) => void; reject: (err: Error) => void }>();
  private readonly arrived: FromWorker[] = [];
  private failure: Error | undefined;
  figures: ProgressFigures | undefined;

  constructor(setup: WorkerSetup, log: (line: string) => void) {
    // Worker threads inherit the process's execArgv: tsx's loader, so the .ts entry loads.
    this.worker = new Worker(new URL('./drive-worker.ts', import.meta.url), { workerData: setup });
    this.worker.on('message', (m: FromWorker) => {
      if (m.type === 'log') return log(m.line);
      if (m.type === 'progress') return void (this.figures = m.figures);
      if (m.type === 'failed') return this.fail(new Error(`worker ${setup.share.index + 1}: ${m.message}`));
      const w = this.waiting.get(m.type);
      if (w) {
        this.waiting.delete(m.type);
        w.resolve(m);
      } else {
        this.arrived.push(m);
      }
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`worker ${setup.share.index + 1} exited (${code})`)));
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(this.failure);
    this.waiting.clear();
  }

  send(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  next<T extends FromWorker['type']>(type: T): Promise<Extract<FromWorker, { type: T }>> {
    const i = this.arrived.findIndex((m) => m.type === type);
    if (i >= 0) return Promise.resolve(this.arrived.splice(i, 1)[0] as Extract<FromWorker, { type: T }>);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiting.set(type, { resolve: resolve as (m: FromWorker) => void, reject }));
  }

  async terminate(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}

export async function driveOnWorkers(settings: DriveSettings, workers: number): Promise<PhaseResult> {
  const { options, log } = settings;
  const started = performance.now();
  const threads = Array.from({ length: workers }, (_, index) => new DriveWorker({
    target: settings.target,
    endpoints: settings.endpoints,
    durationS: settings.durationS,
    options,
    prefix: settings.prefix,
    ...(settings.resilient !== undefined ? { resilient: settings.resilient } : {}),
    share: { index, of: workers },
  }, log));
  const all = <T>(each: (w: DriveWorker) => Promise<T>) => Promise.all(threads.map(each));
  const stats = new Stats();
  let phase = 'ramp';
  const progress = options.progress ? setInterval(() => {
    const f = threads.map((w) => w.figures).filter((x): x is ProgressFigures => x !== undefined);
    const sum = (key: 'players' | 'spectators' | 'units' | 'messages' | 'errors') => f.reduce((n, x) => n + x[key], 0);
    const figures = { phase, players: sum('players'), spectators: sum('spectators'), units: sum('units'), messages: sum('messages'), errors: sum('errors'), secondP99: Math.max(0, ...f.map((x) => x.secondP99)) };
    log(progressLine(settings.target, started, figures, stats.windowSeconds, settings.samplers, options));
  }, 1000) : undefined;
  try {
    await all((w) => w.next('ramped'));
    const rampSeconds = (performance.now() - started) / 1000;
    for (const w of threads) w.send({ type: 'start' });
    phase = 'warmup';
    await sleep(options.warmupS * 1000);

    phase = 'run';
    // The players are in the worker threads: the window hooks (profiles) get none.
    await openWindow(settings, []);
    for (const w of threads) w.send({ type: 'open' });
    stats.start(performance.now());
    await sleep(settings.durationS * 1000);
    for (const w of threads) w.send({ type: 'close' });
    stats.stop(performance.now());
    await closeWindow(settings);

    phase = 'drain';
    const summaries = (await all((w) => w.next('drained'))).map((m) => m.summary);
    phase = 'books';
    if (progress) clearInterval(progress);
    for (const s of summaries) stats.absorb(s.stats);
    const sum = (key: 'unitsBought' | 'playersConnected' | 'feedSpectators' | 'tableWatchers' | 'watchedTables' | 'spectatorsConnected' | 'undrained') => summaries.reduce((n, s) => n + s[key], 0);
    const listed = summaries.filter((s) => s.listedTables !== undefined);
    const bytes = summaries.every((s) => s.bytes) ? { sent: summaries.reduce((n, s) => n + s.bytes!.sent, 0), received: summaries.reduce((n, s) => n + s.bytes!.received, 0) } : null;
    return {
      target: settings.target,
      stats,
      players: [],
      unitsBought: sum('unitsBought'),
      playersConnected: sum('playersConnected'),
      feedSpectators: sum('feedSpectators'),
      tableWatchers: sum('tableWatchers'),
      watchedTables: sum('watchedTables'),
      listedTables: listed.length > 0 ? listed.reduce((n, s) => n + s.listedTables!, 0) : undefined,
      spectatorsConnected: sum('spectatorsConnected'),
      rampSeconds,
      undrained: sum('undrained'),
      bytes,
      async collect(endpoints, deadline, timeoutMs) {
        for (const w of threads) w.send({ type: 'collect', endpoints, remainingMs: Math.max(0, deadline.at - performance.now()), timeoutMs });
        const parts = await all((w) => w.next('collected'));
        return { players: parts.flatMap((p) => p.collected.players), recalls: new Map(parts.flatMap((p) => [...p.collected.recalls])) };
      },
      async close() {
        for (const w of threads) w.send({ type: 'leave' });
        await all((w) => w.next('left')).catch(() => undefined);
        await all((w) => w.terminate());
      },
    };
  } catch (err) {
    if (progress) clearInterval(progress);
    await all((w) => w.terminate());
    throw err;
  }
}
