import { socketBytes } from './node-websocket';
import { Client } from '@colyseus/sdk';
import { Choices } from './mix';
import type { LoadtestOptions } from './options';
import { FinishBoard, SyntheticPlayer, type Target } from './player';
import type { MachineSampler, ProcSampler } from './processes';
import { FeedSpectator, TableWatcher, TIMED_FEED_SPECTATORS } from './spectator';
import { errorCode, Stats } from './stats';

/**
 * One load phase against one set of endpoints (the game servers, or the echo server): ramp the
 * players and spectators up at a bounded rate, open the measured window for `durationS`, then
 * stop buying and let the players finish the units in play (bounded by `drainS`). The players
 * are kept connected for the books; `close()` disconnects everyone.
 */

export interface PhaseResult {
  readonly target: Target;
  readonly stats: Stats;
  readonly players: readonly SyntheticPlayer[];
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
  close(): Promise<void>;
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
  /** Players that ride out faults (PlayerSettings.resilient): chaos runs. */
  readonly resilient?: boolean;
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

export async function drive(settings: DriveSettings): Promise<PhaseResult> {
  const { options, target, endpoints, log } = settings;
  const stats = new Stats();
  const board = new FinishBoard(options.players);
  const rampStarted = performance.now();
  const rampDeadline = rampStarted + options.rampTimeoutS * 1000;

  const feedCount = Math.round(options.spectators * options.feedShare);
  const watcherCount = options.spectators - feedCount;
  const watchedTables = watcherCount > 0 ? Math.min(options.players, Math.ceil(watcherCount / options.watchersPerTable)) : 0;

  const players = Array.from({ length: options.players }, (_, i) => new SyntheticPlayer(
    i,
    `${settings.prefix}${i}`,
    endpoints,
    {
      target,
      thinkMs: options.thinkMs,
      autoShare: options.autoShare,
      lampBothShare: options.lampBothShare,
      switchShare: options.switchShare,
      requestTimeoutMs: options.requestTimeoutMs,
      resilient: settings.resilient ?? false,
    },
    stats,
    board,
    new Choices((options.seed * 1_000_003 + i) >>> 0),
  ));
  // The SDK reports some failures on the console only (a join the server closed): count them.
  const consoleWarn = console.warn;
  console.warn = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    const closed = /closed unexpectedly \((\d+)\)/.exec(text);
    stats.error(closed ? `connection/join_closed_${closed[1]}` : 'sdk/warning', text);
  };
  const connected: SyntheticPlayer[] = [];
  const roomIds = new Map<number, string>();
  const spectatorClients = endpoints.map((e) => new Client(e));
  const feeds: FeedSpectator[] = [];
  const watchers: TableWatcher[] = [];
  let phase = 'ramp';

  const progress = options.progress ? setInterval(() => {
    const w = stats.window();
    const t = Math.round((performance.now() - rampStarted) / 1000);
    const cpu = settings.samplers.map((s) => `${s.name} ${Math.round(s.sampler.lastCpuPercent)}%`).join(' ');
    const errors = [...stats.allErrors.values()].reduce((a, b) => a + b, 0);
    log(`[${target} ${String(t).padStart(3)}s ${phase.padEnd(6)}] players ${connected.length}/${players.length}  spectators ${feeds.length + watchers.length}/${options.spectators}  units ${w.unitsBought}  units/s ${rate(w.unitsBought, stats)}  msgs/s ${rate(w.sent + w.received, stats)}  p99(1s) ${stats.takeSecondP99().toFixed(1)} ms  errors ${errors}  cpu ${cpu}`);
  }, 1000) : undefined;

  // Players: log in, open a table (open it to watchers for the first `watchedTables`), play.
  await paced(players, options.rampPerSecond, 64, rampDeadline, async (player) => {
    try {
      await player.login();
      await player.open();
      if (player.index < watchedTables) {
        try {
          roomIds.set(player.index, await player.openToWatchers());
        } catch (err) {
          stats.error(errorCode(err, 'watch/open_failed'), err);
        }
      }
      connected.push(player);
      player.running = player.play();
    } catch (err) {
      stats.error(errorCode(err, 'join/table_failed'), err);
    }
  });

  // Spectators: the feed, and the watchers of the open tables, spread evenly over them; the
  // two kinds join interleaved, so that a ramp cut short leaves some of each.
  const feedJobs: (() => Promise<void>)[] = [];
  const watchJobs: (() => Promise<void>)[] = [];
  for (let i = 0; i < feedCount; i++) {
    feedJobs.push(async () => {
      const feed = new FeedSpectator(spectatorClients[i % spectatorClients.length]!, stats, board, settings.prefix, i < TIMED_FEED_SPECTATORS);
      await feed.join();
      feeds.push(feed);
    });
  }
  const tables = [...roomIds.entries()];
  for (let i = 0; i < watcherCount && tables.length > 0; i++) {
    const [index, roomId] = tables[i % tables.length]!;
    watchJobs.push(async () => {
      const watcher = new TableWatcher(spectatorClients[i % spectatorClients.length]!, stats, players[index]!, roomId);
      await watcher.join();
      watchers.push(watcher);
    });
  }
  if (watcherCount > 0 && tables.length === 0) stats.error('watch/no_open_table');
  const spectatorJobs: (() => Promise<void>)[] = [];
  for (let i = 0; i < Math.max(feedJobs.length, watchJobs.length); i++) {
    if (i < feedJobs.length) spectatorJobs.push(feedJobs[i]!);
    if (i < watchJobs.length) spectatorJobs.push(watchJobs[i]!);
  }
  await paced(spectatorJobs, options.rampPerSecond, 64, rampDeadline, async (job) => {
    try {
      await job();
    } catch (err) {
      stats.error(errorCode(err, 'join/spectator_failed'), err);
    }
  });
  const rampSeconds = (performance.now() - rampStarted) / 1000;

  // The open tables as spectators find them (`GET /tables`): this run's watched tables.
  let listedTables: number | undefined;
  if (target === 'game' && roomIds.size > 0) {
    try {
      const res = await fetch(`${endpoints[0]}/tables`, { signal: AbortSignal.timeout(options.requestTimeoutMs) });
      if (!res.ok) throw new Error(`GET /tables: ${res.status}`);
      const tables = (await res.json()) as { roomId?: string }[];
      const ours = new Set(roomIds.values());
      listedTables = tables.filter((t) => t.roomId !== undefined && ours.has(t.roomId)).length;
    } catch (err) {
      stats.error('tables/unavailable', err);
    }
  }
  if (performance.now() >= rampDeadline) log(`ramp stopped after ${options.rampTimeoutS} s: ${connected.length} players and ${feeds.length + watchers.length} spectators joined`);

  if (options.warmupS > 0) {
    phase = 'warmup';
    await sleep(options.warmupS * 1000);
  }

  // The measured window.
  phase = 'run';
  await settings.window?.open(connected);
  for (const s of settings.samplers) s.sampler.openWindow();
  settings.machine?.openWindow();
  const bytesAtOpen = socketBytes();
  stats.start(performance.now());
  await sleep(settings.durationS * 1000);
  stats.stop(performance.now());
  const bytesAtClose = socketBytes();
  for (const s of settings.samplers) s.sampler.closeWindow();
  settings.machine?.closeWindow();
  await settings.window?.close();

  // Drain: no new unit; the units in play are finished (bounded).
  phase = 'drain';
  for (const p of players) p.stopping = true;
  const running = connected.map((p) => p.running ?? Promise.resolve());
  let undrained = 0;
  let drainTimer: NodeJS.Timeout | undefined;
  const drained = await Promise.race([
    Promise.all(running).then(() => true),
    new Promise<boolean>((resolve) => (drainTimer = setTimeout(() => resolve(false), options.drainS * 1000))),
  ]);
  clearTimeout(drainTimer);
  if (!drained) {
    let settled = 0;
    await Promise.all(running.map((r) => Promise.race([r.then(() => settled++), sleep(0)])));
    undrained = connected.length - settled;
    stats.error('harness/drain_timeout');
    log(`drain: ${undrained} players were still playing after ${options.drainS} s`);
  }
  phase = 'books';
  if (progress) clearInterval(progress);

  return {
    target,
    stats,
    players: connected,
    playersConnected: connected.length,
    feedSpectators: feeds.length,
    tableWatchers: watchers.length,
    watchedTables: roomIds.size,
    listedTables,
    spectatorsConnected: feeds.length + watchers.length,
    rampSeconds,
    undrained,
    bytes: bytesAtOpen && bytesAtClose ? { sent: bytesAtClose.sent - bytesAtOpen.sent, received: bytesAtClose.received - bytesAtOpen.received } : null,
    async close() {
      await Promise.all([...feeds, ...watchers].map((s) => s.leave()));
      await Promise.all(connected.map((p) => p.leave()));
      console.warn = consoleWarn;
    },
  };
}

function rate(count: number, stats: Stats): number {
  const seconds = stats.windowSeconds;
  return seconds > 0.5 ? Math.round(count / seconds) : 0;
}
