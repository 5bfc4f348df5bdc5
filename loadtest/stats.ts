import * as hdr from 'hdr-histogram-js';

/**
 * What a run measures, counted only while the window is open: latencies in HDR histograms
 * (microseconds, 3 significant digits, up to 10 minutes), counters, and errors by code.
 */

export type Histogram = hdr.Histogram;

export function histogram(): Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3, autoResize: true });
}

/** Milliseconds with microsecond resolution. */
export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

const ms = (us: number) => Math.round(us) / 1000;

export function summarize(h: Histogram): LatencySummary {
  if (h.totalCount === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
  // A percentile is the top of its histogram bucket and may pass the exact maximum: capped.
  const at = (percentile: number) => ms(Math.min(h.getValueAtPercentile(percentile), h.maxValue));
  return { count: h.totalCount, p50: at(50), p95: at(95), p99: at(99), max: ms(h.maxValue), mean: ms(h.mean) };
}

export type Counters = Stats['count'];

const HISTOGRAMS = ['actionToPatch', 'buyToPatch', 'actToPatch', 'feedDelay', 'feedAge', 'watchDelay', 'tableSwitch'] as const;

/** What a worker thread measured over the window, in a form that crosses threads (Stats.snapshot). */
export interface StatsSnapshot {
  /** Each histogram, HDR-encoded (compressed, base64). */
  readonly histograms: Record<(typeof HISTOGRAMS)[number], string>;
  readonly window: Counters;
  readonly errors: readonly (readonly [string, number])[];
  readonly allErrors: readonly (readonly [string, number])[];
  readonly errorSamples: readonly (readonly [string, string])[];
  readonly feedLeadMaxMs: number;
  readonly watchLeadMaxMs: number;
}

export class Stats {
  /** Counting starts when the window opens; before and after, events are not counted. */
  measuring = false;
  windowStart = 0;
  windowEnd = 0;

  /** Send of `buy` or `act` → the state patch with the resulting step. */
  readonly actionToPatch = histogram();
  readonly buyToPatch = histogram();
  readonly actToPatch = histogram();
  /** Player's client saw `finished` → a feed spectator received the win (each win of a `wins` batch). */
  readonly feedDelay = histogram();
  /** The server's `at` of a win (when its reveal ended) → a feed spectator received it (ms clock). */
  readonly feedAge = histogram();
  /** Player's client saw a step → a watcher of its table saw it. */
  readonly watchDelay = histogram();
  /** Leaving a table and opening another one (a game switch), join included. */
  readonly tableSwitch = histogram();
  /** Per-second window for the progress line. */
  private secondLatency = histogram();

  /** Counters, counted all the time; the report takes their growth over the window. */
  readonly count = {
    unitsBought: 0,
    unitsFinished: 0,
    /** Client → server messages (requests). */
    sent: 0,
    /** `buy` and `act` requests sent (retries included): the requests a unit's work is made of. */
    requests: 0,
    /** Server → client: replies, messages, state patches; spectators included. */
    received: 0,
    patches: 0,
    /** Wins the feed spectators received (a `wins` message holds one or more; `received` counts it once). */
    feedWins: 0,
    /** Wins a spectator got before the player's own client saw the result (should be none). */
    feedAheadOfPlayer: 0,
    /** Wins of this run's players that matched no result a player saw within 10 s. */
    feedUnmatched: 0,
    /** Steps a watcher got before the player's own client (should be none). */
    watchAheadOfPlayer: 0,
    /** Steps the watchers received (each step once per watcher): their deliveries at saturation. */
    watchSteps: 0,
    /** Feed spectators that received at least one win in the window (none starved: all of them). */
    feedSpectatorsServed: 0,
    /** Watchers that received at least one step in the window. */
    watchersServed: 0,
  };
  private atStart: Counters = { ...this.count };
  private atStop: Counters | undefined;
  /** How far ahead of the player's client the earliest spectator was, at most (ms, window). */
  feedLeadMaxMs = 0;
  watchLeadMaxMs = 0;
  /** Errors in the window. */
  readonly errors = new Map<string, number>();
  /** Errors at any time (ramp, window, drain, books). */
  readonly allErrors = new Map<string, number>();

  /**
   * Counts `counter` once per spectator and window: `servedIn` is the window the spectator was
   * last counted in (`windowStart`); returns the window to keep.
   */
  served(counter: 'feedSpectatorsServed' | 'watchersServed', servedIn: number): number {
    if (!this.measuring || servedIn === this.windowStart) return servedIn;
    this.count[counter]++;
    return this.windowStart;
  }

  start(now: number): void {
    for (const h of [this.actionToPatch, this.buyToPatch, this.actToPatch, this.feedDelay, this.feedAge, this.watchDelay, this.tableSwitch, this.secondLatency]) h.reset();
    this.errors.clear();
    this.feedLeadMaxMs = this.watchLeadMaxMs = 0;
    this.atStart = { ...this.count };
    this.atStop = undefined;
    this.windowStart = now;
    this.measuring = true;
  }

  stop(now: number): void {
    this.measuring = false;
    this.windowEnd = now;
    this.atStop = { ...this.count };
  }

  /** Growth of every counter over the window (so far, while it is open). */
  window(): Counters {
    const end = this.atStop ?? this.count;
    const out = { ...end };
    for (const key of Object.keys(out) as (keyof Counters)[]) out[key] = end[key] - this.atStart[key];
    return out;
  }

  get windowSeconds(): number {
    return ((this.measuring ? performance.now() : this.windowEnd) - this.windowStart) / 1000;
  }

  snapshot(): StatsSnapshot {
    return {
      histograms: Object.fromEntries(HISTOGRAMS.map((name) => [name, hdr.encodeIntoCompressedBase64(this[name])])) as StatsSnapshot['histograms'],
      window: this.window(),
      errors: [...this.errors],
      allErrors: [...this.allErrors],
      errorSamples: [...this.errorSamples],
      feedLeadMaxMs: this.feedLeadMaxMs,
      watchLeadMaxMs: this.watchLeadMaxMs,
    };
  }

  /** Adds a worker's window to this one (opened and closed by the coordinating thread's clock). */
  absorb(s: StatsSnapshot): void {
    for (const name of HISTOGRAMS) this[name].add(hdr.decodeFromCompressedBase64(s.histograms[name]));
    for (const key of Object.keys(s.window) as (keyof Counters)[]) {
      this.count[key] += s.window[key];
      if (this.atStop) this.atStop[key] += s.window[key];
    }
    const add = (into: Map<string, number>, from: StatsSnapshot['errors']) => {
      for (const [code, n] of from) into.set(code, (into.get(code) ?? 0) + n);
    };
    add(this.errors, s.errors);
    add(this.allErrors, s.allErrors);
    for (const [code, text] of s.errorSamples) if (!this.errorSamples.has(code)) this.errorSamples.set(code, text);
    this.feedLeadMaxMs = Math.max(this.feedLeadMaxMs, s.feedLeadMaxMs);
    this.watchLeadMaxMs = Math.max(this.watchLeadMaxMs, s.watchLeadMaxMs);
  }

  latency(kind: 'buy' | 'act', ms: number): void {
    if (!this.measuring) return;
    const us = Math.max(1, Math.round(ms * 1000));
    this.actionToPatch.recordValue(us);
    this.secondLatency.recordValue(us);
    (kind === 'buy' ? this.buyToPatch : this.actToPatch).recordValue(us);
  }

  lead(kind: 'feed' | 'watch', ms: number): void {
    if (!this.measuring) return;
    if (kind === 'feed') this.feedLeadMaxMs = Math.max(this.feedLeadMaxMs, ms);
    else this.watchLeadMaxMs = Math.max(this.watchLeadMaxMs, ms);
  }

  record(h: Histogram, ms: number): void {
    if (this.measuring) h.recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  /** The first message seen for each error code (what went wrong, for the report). */
  readonly errorSamples = new Map<string, string>();

  error(code: string, detail?: unknown): void {
    if (!this.errorSamples.has(code) && this.errorSamples.size < 50) {
      const text = detail instanceof Error ? detail.message : detail === undefined ? '' : String(detail);
      if (text) this.errorSamples.set(code, text.slice(0, 300));
    }
    this.allErrors.set(code, (this.allErrors.get(code) ?? 0) + 1);
    if (this.measuring) this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }

  /** The p99 of the last second, in ms, and resets it. */
  takeSecondP99(): number {
    const p99 = this.secondLatency.totalCount ? this.secondLatency.getValueAtPercentile(99) / 1000 : 0;
    this.secondLatency.reset();
    return p99;
  }
}

/** The code of an error thrown by the SDK or the harness: `ctx.reject` reasons carry one. */
export function errorCode(err: unknown, fallback: string): string {
  const e = err as { name?: string; reason?: { code?: unknown }; code?: unknown; message?: string } | undefined;
  if (e?.reason && typeof e.reason.code === 'string') return e.reason.code;
  if (typeof e?.code === 'string' && e.code.includes('/')) return e.code;
  if (e?.message && /timed? ?out/i.test(e.message)) return 'harness/timeout';
  const m = e?.message?.match(/^([a-z_]+\/[a-z_]+)/);
  if (m) return m[1]!;
  return fallback;
}

/**
 * `promise`, or an error with `code` after `ms`: nothing the harness waits for can hang it.
 * (A join that completes after its timeout is left to the end of the run.)
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, code: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer in ${ms} ms`), { code })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A room join bounded by `ms` (`join/timeout`); a join that completes after its timeout is not
 * used: it is left at once.
 */
export async function joinWithin<R extends { leave(consented?: boolean): Promise<unknown> }>(joining: Promise<R>, ms: number): Promise<R> {
  try {
    return await withTimeout(joining, ms, 'join/timeout');
  } catch (err) {
    joining.then((late) => late.leave(true).catch(() => undefined), () => undefined);
    throw err;
  }
}
