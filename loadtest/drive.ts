import { socketBytes } from './node-websocket';
import { Client } from '@colyseus/sdk';
import { Choices, RevealLengths } from './mix';
import type { LoadtestOptions } from './options';
import { collectBooks, type Collected, type Deadline } from './collect';
import { FinishBoard, inShare, SyntheticPlayer, WHOLE, type OperatorSignIn, type Share, type Target } from './player';
import type { MachineSampler, ProcSampler } from './samplers';
import { FeedSpectator, TableWatcher, TIMED_FEED_SPECTATORS } from './spectator';
import { playerPseudonym } from './pseudonyms';
import { errorCode, Stats } from './stats';

/**
 * One load phase against one set of endpoints (the game servers, or the echo server): ramp the
 * players and spectators up at a bounded rate, start the players once every client has joined,
 * open the measured window for `durationS`, then stop buying and let the players finish the
 * units in play (bounded by `drainS`). The players are kept connected for the books
 * (`collect()`); `close()` disconnects everyone. With `--workers`, each worker thread drives its
 * share of the clients (drive-worker.ts) on a clock the coordinating thread keeps (workers.ts).
 */

export interface PhaseResult {
  readonly target: Target;
  readonly stats: Stats;
  /** This thread's players (with worker threads: none here; `collect()` reads theirs). */
  readonly players: readonly SyntheticPlayer[];
  /** Units the players bought in the whole phase (ramp to drain). */
  readonly unitsBought: number;
  readonly playersConnected: number;
  readonly feedSpectators: number;
  readonly tableWatchers: number;
  readonly watchedTables: number;
  /** How many of them `GET /tables` listed after the ramp (undefined: not asked, or it failed). */
  readonly listedTables: number | undefined;
  readonly spectatorsConnected: number;
  readonly rampSeconds: number;
  /** Players whose unit in play did not finish within the drain. */
  readonly undrained: number;
  /** Bytes the WebSocket clients sent and received over the window (null: not counted, undici's clients). */
  readonly bytes: { readonly sent: number; readonly received: number } | null;
  /** What the books need of every player of the phase (collect.ts). */
  collect(endpoints: readonly string[], deadline: Deadline, timeoutMs: number): Promise<Collected>;
  close(): Promise<void>;
}

/** What the report reads of a phase. */
export type PhaseSummary = Omit<PhaseResult, 'players' | 'collect' | 'close'>;

/** When the phase moves on. One thread: at once, after the warm-up, after the window. */
export interface PhaseClock {
  /** This thread's clients have joined; resolves when the players may start (every thread's have joined). */
  ramped(): Promise<void>;
  /** Resolves when the measured window opens. */
  windowOpens(): Promise<void>;
  /** Resolves when it closes. */
  windowCloses(): Promise<void>;
}

/** What the progress line shows, per thread (summed over the worker threads). */
export interface ProgressFigures {
  readonly phase: string;
  readonly players: number;
  readonly spectators: number;
  /** Units and messages (both ways) in the window so far. */
  readonly units: number;
  readonly messages: number;
  /** p99 of the last second, ms (over worker threads: the highest). */
  readonly secondP99: number;
  readonly errors: number;
}

export interface DriveSettings {
  readonly target: Target;
  readonly endpoints: readonly string[];
  readonly durationS: number;
  readonly options: LoadtestOptions;
  /** Processes whose CPU is shown on the progress line and measured over the window. */
  readonly samplers: readonly { readonly name: string; readonly sampler: ProcSampler }[];
  /** The whole machine's CPU over the window. */
  readonly machine?: MachineSampler;
  /** Prefix of this run's pseudonyms (letters, digits, `-`). */
  readonly prefix: string;
  readonly log: (line: string) => void;
  /** Called as the window opens and closes (window-only CPU profiles; a chaos run's faults). */
  readonly window?: { open(players: readonly SyntheticPlayer[]): Promise<void>; close(): Promise<void> };
  /** Servers in seamless mode: players signed in by the operator (PlayerSettings.operatorSignIn). */
  readonly operatorSignIn?: OperatorSignIn;
  /** Players that ride out faults (PlayerSettings.resilient): chaos runs. */
  readonly resilient?: boolean;
  /** The clients this thread drives (default: all). */
  readonly share?: Share;
  /** Default: this thread's own (no wait after the ramp, `warmupS`, `durationS`). */
  readonly clock?: PhaseClock;
  /** Called once a second instead of printing the progress line (worker threads). */
  readonly progress?: (figures: ProgressFigures) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `task` over `items` at most `perSecond` starts a second and `concurrency` at once. */
async function paced<T>(items: readonly T[], perSecond: number, concurrency: number, deadline: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < items.length && performance.now() < deadline) {
      const i = next++;
      const due = started + (i / perSecond) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** The clients of one thread's phase, as they join. */
interface Crowd {
  /** This thread's players, joined or not. */
  readonly players: SyntheticPlayer[];
  /** Those that joined (logged in, table open). */
  readonly connected: SyntheticPlayer[];
  /** Player index → its table's room id, for the first `watchedTables` players. */
  readonly roomIds: Map<number, string>;
  readonly feeds: FeedSpectator[];
  readonly watchers: TableWatcher[];
}

/** How many spectators of each kind, and how many tables they watch. */
function spectatorCounts(options: LoadtestOptions): { feedCount: number; watcherCount: number; watchedTables: number } {
  const feedCount = Math.round(options.spectators * options.feedShare);
  const watcherCount = options.spectators - feedCount;
  const watchedTables = watcherCount > 0 ? Math.min(options.players, Math.ceil(watcherCount / options.watchersPerTable)) : 0;
  return { feedCount, watcherCount, watchedTables };
}

/** This thread's players; each keeps its index (pseudonym, seed) whichever thread plays it. */
function makePlayers(settings: DriveSettings, share: Share, stats: Stats, board: FinishBoard): SyntheticPlayer[] {
  const { options, target } = settings;
  const players: SyntheticPlayer[] = [];
  for (let i = share.index; i < options.players; i += share.of) {
    players.push(new SyntheticPlayer(
      i,
      playerPseudonym(settings.prefix, i),
      settings.endpoints,
      {
        target,
        thinkMs: options.thinkMs,
        autoShare: options.autoShare,
        lampBothShare: options.lampBothShare,
        switchShare: options.switchShare,
        requestTimeoutMs: options.requestTimeoutMs,
        resilient: settings.resilient ?? false,
        ...(settings.operatorSignIn ? { operatorSignIn: settings.operatorSignIn } : {}),
      },
      stats,
      board,
      new Choices((options.seed * 1_000_003 + i) >>> 0),
      target === 'echo' ? new RevealLengths((options.seed * 1_000_033 + i) ^ 0x5eed) : undefined,
    ));
  }
  return players;
}

/** The SDK reports some failures on the console only (a join the server closed): counted as errors until `restore()`. */
function countSdkWarnings(stats: Stats): { restore(): void } {
  const consoleWarn = console.warn;
  console.warn = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    const closed = /closed unexpectedly \((\d+)\)/.exec(text);
    stats.error(closed ? `connection/join_closed_${closed[1]}` : 'sdk/warning', text);
  };
  return { restore: () => (console.warn = consoleWarn) };
}

/**
 * Players: log in, open a table (open it to watchers for the first `watchedTables`); they
 * start playing once every client has joined, so that the ramp does not wait for their load.
 */
async function rampPlayers(crowd: Crowd, watchedTables: number, stats: Stats, perSecond: number, rampDeadline: number): Promise<void> {
  await paced(crowd.players, perSecond, 64, rampDeadline, async (player) => {
    try {
      await player.login();
      await player.open();
      if (player.index < watchedTables) {
        try {
          crowd.roomIds.set(player.index, await player.openToWatchers());
        } catch (err) {
          stats.error(errorCode(err, 'watch/open_failed'), err);
        }
      }
      crowd.connected.push(player);
    } catch (err) {
      stats.error(errorCode(err, 'join/table_failed'), err);
    }
  });
}

/**
 * Spectators: the feed, and the watchers of the open tables, spread evenly over them (a
 * table's watchers in its player's thread); the two kinds join interleaved, so that a ramp
 * cut short leaves some of each.
 */
async function rampSpectators(settings: DriveSettings, crowd: Crowd, share: Share, stats: Stats, board: FinishBoard, perSecond: number, rampDeadline: number): Promise<void> {
  const { feedCount, watcherCount, watchedTables } = spectatorCounts(settings.options);
  const clients = settings.endpoints.map((e) => new Client(e));
  const feedJobs: (() => Promise<void>)[] = [];
  const watchJobs: (() => Promise<void>)[] = [];
  for (let i = share.index; i < feedCount; i += share.of) {
    feedJobs.push(async () => {
      const feed = new FeedSpectator(clients[i % clients.length]!, stats, board, settings.prefix, i < TIMED_FEED_SPECTATORS);
      await feed.join();
      crowd.feeds.push(feed);
    });
  }
  const byIndex = new Map(crowd.players.map((p) => [p.index, p]));
  for (let i = 0; i < watcherCount && watchedTables > 0; i++) {
    const index = i % watchedTables;
    if (!inShare(share, index)) continue;
    const roomId = crowd.roomIds.get(index);
    if (roomId === undefined) continue;
    watchJobs.push(async () => {
      const watcher = new TableWatcher(clients[i % clients.length]!, stats, byIndex.get(index)!, roomId, settings.target === 'echo');
      await watcher.join();
      crowd.watchers.push(watcher);
    });
  }
  if (watcherCount > 0 && crowd.roomIds.size === 0 && crowd.players.some((p) => p.index < watchedTables)) stats.error('watch/no_open_table');
  const jobs: (() => Promise<void>)[] = [];
  for (let i = 0; i < Math.max(feedJobs.length, watchJobs.length); i++) {
    if (i < feedJobs.length) jobs.push(feedJobs[i]!);
    if (i < watchJobs.length) jobs.push(watchJobs[i]!);
  }
  await paced(jobs, perSecond, 64, rampDeadline, async (job) => {
    try {
      await job();
    } catch (err) {
      stats.error(errorCode(err, 'join/spectator_failed'), err);
    }
  });
}

/** How many of this run's watched tables `GET /tables` lists, as spectators find them (undefined: not asked, or it failed). */
async function listedTables(settings: DriveSettings, crowd: Crowd, stats: Stats): Promise<number | undefined> {
  if (settings.target !== 'game' || crowd.roomIds.size === 0) return undefined;
  try {
    const res = await fetch(`${settings.endpoints[0]}/tables`, { signal: AbortSignal.timeout(settings.options.requestTimeoutMs) });
    if (!res.ok) throw new Error(`GET /tables: ${res.status}`);
    const tables = (await res.json()) as { roomId?: string }[];
    const ours = new Set(crowd.roomIds.values());
    return tables.filter((t) => t.roomId !== undefined && ours.has(t.roomId)).length;
  } catch (err) {
    stats.error('tables/unavailable', err);
    return undefined;
  }
}

/** The measured window: the hooks and samplers opened, `durationS` (or the clock's), closed; the sockets' bytes over it. */
async function measuredWindow(settings: DriveSettings, clock: PhaseClock, connected: readonly SyntheticPlayer[], stats: Stats): Promise<PhaseResult['bytes']> {
  await openWindow(settings, connected);
  const bytesAtOpen = socketBytes();
  stats.start(performance.now());
  await clock.windowCloses();
  stats.stop(performance.now());
  const bytesAtClose = socketBytes();
  await closeWindow(settings);
  return bytesAtOpen && bytesAtClose ? { sent: bytesAtClose.sent - bytesAtOpen.sent, received: bytesAtClose.received - bytesAtOpen.received } : null;
}

/** Drain: no new unit; the units in play are finished, within `drainS`. Returns how many players were halted still playing. */
async function drain(crowd: Crowd, settings: DriveSettings, stats: Stats): Promise<number> {
  const { drainS } = settings.options;
  for (const p of crowd.players) p.stop();
  const running = crowd.connected.map((p) => p.running ?? Promise.resolve());
  let drainTimer: NodeJS.Timeout | undefined;
  const drained = await Promise.race([
    Promise.all(running).then(() => true),
    new Promise<boolean>((resolve) => (drainTimer = setTimeout(() => resolve(false), drainS * 1000))),
  ]);
  clearTimeout(drainTimer);
  if (drained) return 0;
  let settled = 0;
  await Promise.all(running.map((r) => Promise.race([r.then(() => settled++), sleep(0)])));
  const undrained = crowd.connected.length - settled;
  stats.error('harness/drain_timeout');
  settings.log(`drain: ${undrained} players were still playing after ${drainS} s: halted`);
  // The books read what nobody moves any more: each halted player's request under way is
  // answered (or times out), and it sends no other.
  for (const p of crowd.connected) p.halt();
  await Promise.all(running);
  return undrained;
}

export async function drive(settings: DriveSettings): Promise<PhaseResult> {
  const { options, target, log } = settings;
  const share = settings.share ?? WHOLE;
  const clock = settings.clock ?? {
    ramped: async () => undefined,
    windowOpens: () => sleep(options.warmupS * 1000),
    windowCloses: () => sleep(settings.durationS * 1000),
  };
  const stats = new Stats();
  const board = new FinishBoard(options.players, share);
  const rampStarted = performance.now();
  const rampDeadline = rampStarted + options.rampTimeoutS * 1000;
  const crowd: Crowd = { players: makePlayers(settings, share, stats, board), connected: [], roomIds: new Map(), feeds: [], watchers: [] };
  const sdkWarnings = countSdkWarnings(stats);
  let phase = 'ramp';
  const figures = (): ProgressFigures => {
    const w = stats.window();
    return {
      phase,
      players: crowd.connected.length,
      spectators: crowd.feeds.length + crowd.watchers.length,
      units: w.unitsBought,
      messages: w.sent + w.received,
      secondP99: stats.takeSecondP99(),
      errors: [...stats.allErrors.values()].reduce((a, b) => a + b, 0),
    };
  };
  const progress = settings.progress || options.progress ? setInterval(() => {
    if (settings.progress) settings.progress(figures());
    else log(progressLine(target, rampStarted, figures(), stats.windowSeconds, settings.samplers, options));
  }, 1000) : undefined;

  const perSecond = options.rampPerSecond / share.of;
  await rampPlayers(crowd, spectatorCounts(options).watchedTables, stats, perSecond, rampDeadline);
  await rampSpectators(settings, crowd, share, stats, board, perSecond, rampDeadline);
  const listed = await listedTables(settings, crowd, stats);
  const { connected, feeds, watchers } = crowd;
  if (performance.now() >= rampDeadline) log(`ramp stopped after ${options.rampTimeoutS} s: ${connected.length} players and ${feeds.length + watchers.length} spectators joined${share.of > 1 ? ` in worker ${share.index + 1}` : ''}`);
  await clock.ramped();
  const rampSeconds = (performance.now() - rampStarted) / 1000;
  for (const player of connected) player.running = player.play();

  phase = 'warmup';
  await clock.windowOpens();
  phase = 'run';
  const bytes = await measuredWindow(settings, clock, connected, stats);
  phase = 'drain';
  const undrained = await drain(crowd, settings, stats);
  phase = 'books';
  if (progress) clearInterval(progress);

  return {
    target,
    stats,
    players: connected,
    unitsBought: connected.reduce((n, p) => n + p.units.length, 0),
    playersConnected: connected.length,
    feedSpectators: feeds.length,
    tableWatchers: watchers.length,
    watchedTables: crowd.roomIds.size,
    listedTables: listed,
    spectatorsConnected: feeds.length + watchers.length,
    rampSeconds,
    undrained,
    bytes,
    collect: (books, deadline, timeoutMs) => collectBooks(connected, books, deadline, timeoutMs),
    async close() {
      await Promise.all([...feeds, ...watchers].map((s) => s.leave()));
      await Promise.all(connected.map((p) => p.leave()));
      sdkWarnings.restore();
    },
  };
}

/** The process samplers, the machine's and the window hooks (profiles, faults), as the window opens. */
export async function openWindow(settings: DriveSettings, players: readonly SyntheticPlayer[]): Promise<void> {
  await settings.window?.open(players);
  for (const s of settings.samplers) s.sampler.openWindow();
  settings.machine?.openWindow();
}

export async function closeWindow(settings: DriveSettings): Promise<void> {
  for (const s of settings.samplers) s.sampler.closeWindow();
  settings.machine?.closeWindow();
  await settings.window?.close();
}

/** One progress line (stderr, once a second): this phase so far, and the CPU of each process. */
export function progressLine(target: Target, startedAt: number, f: ProgressFigures, windowSeconds: number, samplers: DriveSettings['samplers'], options: LoadtestOptions): string {
  const t = Math.round((performance.now() - startedAt) / 1000);
  const cpu = samplers.map((s) => `${s.name} ${Math.round(s.sampler.lastCpuPercent)}%`).join(' ');
  const rate = (count: number) => (windowSeconds > 0.5 ? Math.round(count / windowSeconds) : 0);
  return `[${target} ${String(t).padStart(3)}s ${f.phase.padEnd(6)}] players ${f.players}/${options.players}  spectators ${f.spectators}/${options.spectators}  units ${f.units}  units/s ${rate(f.units)}  msgs/s ${rate(f.messages)}  p99(1s) ${f.secondP99.toFixed(1)} ms  errors ${f.errors}  cpu ${cpu}`;
}
