import { SignJWT } from 'jose';
import './node-websocket';
import './schema-strings';
import { Client, type Room } from '@colyseus/sdk';
import type { SchemaConstructor } from '@colyseus/sdk/serializer/SchemaSerializer';
import { coveredOnScreen } from '../src/games/catalog';
import type { GameId } from '../src/games/types';
import type { DevLoginReply } from '../src/protocol/http';
import type { RefusalMessage } from '../src/protocol/refusals';
import type { BuyReply, WatchersReply } from '../src/protocol/table';
import type { Wallet } from '../src/protocol/wallet';
import type { Choices, RevealLengths } from './mix';
import { errorCode, joinWithin, withTimeout, type Stats } from './stats';
import { StepClock } from './step-clock';
import { setHarnessStakeLimit } from '../tools/stake-limit';

/**
 * One synthetic player: logs in (dev login), opens a table, and plays units one after another
 * until told to stop, timing each `buy` and `act` from the send to the state patch that carries
 * its step. It keeps its own ledger (what it paid, what the reveal said it won) for the books.
 */

export type Target = 'game' | 'echo';

export interface PlayerSettings {
  readonly target: Target;
  readonly thinkMs: number;
  readonly autoShare: number;
  readonly lampBothShare: number;
  readonly switchShare: number;
  readonly requestTimeoutMs: number;
  /**
   * Chaos runs: servers die, Redis stalls, connections are cut. The player never gives up,
   * retries a purchase with the same request id until it is answered (even once stopping: its
   * units must reach the ledger), opens a new table on the next endpoint when its connection is
   * gone (no SDK reconnection: the unit resumes at the new table), and counts refusals
   * `server/unavailable` and `server/error`, timeouts and lost connections as retryable.
   */
  readonly resilient?: boolean;
  /**
   * Servers whose players' money is the operator's (WALLET_MODE=seamless): no dev login; the
   * player comes with a token the operator signs (HS256 with the servers' JWT secret, as an
   * operator's platform does), and the operator's opening balance.
   */
  readonly operatorSignIn?: OperatorSignIn;
}

export interface OperatorSignIn {
  readonly jwtSecret: string;
  /** The reference operator's opening balance of every account (START_BALANCE_CENTS). */
  readonly openingBalance: number;
}

/** A token the operator's platform signs for one of its players (the pseudonym is the account's id). */
export function operatorToken(jwtSecret: string, playerId: string): Promise<string> {
  return new SignJWT({ name: playerId }).setProtectedHeader({ alg: 'HS256' }).setSubject(playerId).setExpirationTime('12h').sign(new TextEncoder().encode(jwtSecret));
}

/**
 * Refusals that decide a purchase was not made (the operator's wallet's too, but `wallet/pending`:
 * its debit in another process's hands); a resilient player retries after anything else.
 */
const DEFINITIVE_PURCHASE_REFUSAL = /^(purchase|picks)\/|^wallet\/(?!pending$)/;
/** A resilient player's purchase is retried at most this many times (with back-off up to 2 s). */
const PURCHASE_ATTEMPTS = 90;

/** A unit this player bought, as its client saw it. */
export interface UnitRecord {
  readonly unitId: string;
  readonly game: GameId;
  readonly stake: number;
  readonly requestId: string;
  /** The prize its reveal ended with; null while unfinished. */
  prize: number | null;
}

/**
 * Wins seen by players, for timing the feed: for each player (by index), its wins in the
 * order its client saw them, numbered. A feed spectator matches the k-th win of a player (in
 * its `wins` batches) to the first win after the last one it matched with the same game and
 * amount (wins under the feed's minimum amount are never published, so some are skipped).
 */
/** The part of a run one thread drives (`--workers`): the players, tables and spectators whose index ≡ `index` mod `of`. */
export interface Share {
  readonly index: number;
  readonly of: number;
}

export const WHOLE: Share = { index: 0, of: 1 };

export const inShare = (share: Share, i: number): boolean => i % share.of === share.index;

export class FinishBoard {
  private readonly wins: { seq: number; game: string; amount: number; at: number }[][];
  private readonly nextSeq: Int32Array;

  /** `share`: the players whose wins this thread sees (the others play in other threads). */
  constructor(readonly players: number, readonly share: Share = WHOLE) {
    this.wins = Array.from({ length: players }, () => []);
    this.nextSeq = new Int32Array(players);
  }

  finished(index: number, game: string, amount: number, at: number): void {
    const list = this.wins[index];
    if (!list) return;
    list.push({ seq: this.nextSeq[index]!++, game, amount, at });
    if (list.length > 64) list.shift();
  }

  /** Number of the last win the player has seen (-1: none yet). */
  lastSeq(index: number): number {
    return (this.nextSeq[index] ?? 0) - 1;
  }

  /**
   * The player's first win after `afterSeq` with this game and amount, seen at or after
   * `notBefore` (older ones are wins this spectator never got); undefined if not seen yet.
   */
  match(index: number, game: string, amount: number, afterSeq: number, notBefore: number): { seq: number; at: number } | undefined {
    const list = this.wins[index];
    if (!list) return undefined;
    for (const w of list) if (w.seq > afterSeq && w.at >= notBefore && w.game === game && w.amount === amount) return w;
    return undefined;
  }
}

interface UnitView {
  unitId: string;
  status: string;
  prize: number;
  steps: { length: number };
}

interface Waiter {
  readonly check: (units: readonly UnitView[]) => boolean;
  at?: number;
  resolve: () => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A client that hands each room it makes to `prepare` before the room connects, so that the
 * handlers set there miss no message: the SDK dispatches every frame of one socket read in the
 * same turn (Node's `ws`), and the server's first `wallet` came in the read that answered the
 * join, before `create` resolved, where it drew the SDK's "onMessage() not registered" warning
 * (921 of them in a saturation run) and was not counted.
 */
export class PreparingClient extends Client {
  prepare: (room: Room) => void = () => undefined;

  protected override createRoom<T>(roomName: string, rootSchema?: SchemaConstructor<T>): Room<unknown, T> {
    const room = super.createRoom(roomName, rootSchema);
    this.prepare(room);
    return room;
  }
}

/** What a request of a halted player fails with: not an error of the run (the drain's timeout is). */
const HALTED = 'harness/halted';

export class SyntheticPlayer {
  playerId = '';
  token = '';
  initialBalance = 0;
  readonly units: UnitRecord[] = [];
  room: Room | undefined;
  game: GameId;
  /** Set by `stop()`: no new unit is bought; the one in play is finished. */
  private stopping = false;
  /** Set by `halt()`: no `buy` or `act` is sent any more (the books still read the wallet). */
  private halted = false;
  /** Ends the pause under way, if any. */
  private wake: (() => void) | undefined;
  /** Open to watchers: records when each step reached this client, and never changes table. */
  watched = false;
  /** When each step reached this client and its watchers (the watchers tell it theirs). */
  readonly stepClock = new StepClock();
  private waiter: Waiter | undefined;
  private requestCounter = 0;
  /** The steps of each unit on the table this player said it uncovered (`sayUncovered`). */
  private readonly uncoveredSteps = new Map<string, number>();
  private client: PreparingClient;
  private endpointIndex = 0;
  running: Promise<void> | undefined;

  constructor(
    readonly index: number,
    readonly pseudonym: string,
    private readonly endpoints: readonly string[],
    private readonly settings: PlayerSettings,
    private readonly stats: Stats,
    private readonly board: FinishBoard,
    private readonly choices: Choices,
    /** Against the echo: how long the game server would have played each unit. */
    private readonly reveals?: RevealLengths,
  ) {
    this.endpointIndex = index % endpoints.length;
    this.client = new PreparingClient(this.endpoint);
    this.game = choices.game();
  }

  get endpoint(): string {
    return this.endpoints[this.endpointIndex]!;
  }

  /** Dev login (game server) — a new demo account with the server's demo balance — or the operator's token. */
  async login(): Promise<void> {
    if (this.settings.target === 'echo') return;
    if (this.settings.operatorSignIn) return this.operatorLogin(this.settings.operatorSignIn);
    const res = await fetch(`${this.endpoint}/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: this.pseudonym }),
      signal: AbortSignal.timeout(this.settings.requestTimeoutMs),
    });
    if (!res.ok) throw Object.assign(new Error(`dev login: ${res.status} ${await res.text()}`), { code: 'harness/login_failed' });
    const body = (await res.json()) as DevLoginReply;
    await setHarnessStakeLimit(this.endpoint, body.token, AbortSignal.timeout(this.settings.requestTimeoutMs));
    this.token = body.token;
    this.playerId = body.playerId;
    this.initialBalance = body.balance;
    this.client.auth.token = body.token;
  }

  /** Signed in by the operator: a token of its own for the pseudonym's account, its opening balance. */
  private async operatorLogin({ jwtSecret, openingBalance }: OperatorSignIn): Promise<void> {
    const playerId = this.pseudonym;
    const token = await operatorToken(jwtSecret, playerId);
    await setHarnessStakeLimit(this.endpoint, token, AbortSignal.timeout(this.settings.requestTimeoutMs));
    this.token = token;
    this.playerId = playerId;
    this.initialBalance = openingBalance;
    this.client.auth.token = token;
  }

  /** Opens a table for `game`; resumed units (none in a fresh run) are played to the end first. */
  async open(game: GameId = this.game): Promise<void> {
    this.game = game;
    const options = this.settings.target === 'echo' ? { game, name: this.pseudonym } : { game };
    this.client.prepare = (room) => this.listen(room);
    const room = await joinWithin(this.client.create('table', options), this.settings.requestTimeoutMs);
    this.room = room;
    if (this.settings.resilient) room.reconnection.enabled = false;
  }

  /** The table's handlers, on the room before it connects (`PreparingClient`). */
  private listen(room: Room): void {
    room.onStateChange(() => this.onPatch());
    const count = () => this.stats.count.received++;
    room.onMessage('wallet', count);
    room.onMessage('resumed', count);
    room.onMessage('refused', (r: RefusalMessage | undefined) => {
      count();
      this.stats.error(r?.code ?? 'refused/unknown', r?.message);
    });
    room.onMessage('*', count);
    room.onLeave((code) => {
      if (this.room === room && code !== 1000 && code !== 4000) this.stats.error(`connection/left_${code}`, 'the table closed the connection');
    });
    room.onError((code, message) => this.stats.error(errorCode({ message }, `connection/error_${code}`), message));
  }

  /** Opens this table to watchers (spectators protocol); the room id watchers join. */
  async openToWatchers(): Promise<string> {
    const reply = (await this.request('watchers', { open: true })) as WatchersReply;
    this.watched = true;
    return reply.roomId;
  }

  /** The units on the table, as decoded (one or two: a plain loop is the cheapest read). */
  private get unitsView(): UnitView[] {
    const units = (this.room?.state as { units?: { length: number; at(i: number): UnitView | undefined } } | undefined)?.units;
    const out: UnitView[] = [];
    if (units) for (let i = 0; i < units.length; i++) out.push(units.at(i)!);
    return out;
  }

  private onPatch(): void {
    const now = performance.now();
    this.stats.count.patches++;
    this.stats.count.received++;
    const units = this.unitsView;
    if (this.watched) this.noteSteps(units, now);
    this.noteResults(units, now);
    const w = this.waiter;
    if (w && w.at === undefined && w.check(units)) {
      w.at = now;
      w.resolve();
    }
  }

  /** Results seen on this table: when each unit's `finished` reached the client. */
  private readonly resultsSeen = new Set<string>();
  /** unitId → when this client first saw the unit finished (harness clock), kept for the run. */
  readonly finishedSeen = new Map<string, number>();

  private noteResults(units: readonly UnitView[], now: number): void {
    for (const unit of units) {
      if (unit.status === 'finished' && !this.finishedSeen.has(unit.unitId)) this.finishedSeen.set(unit.unitId, now);
      if (unit.status !== 'finished' || this.resultsSeen.has(unit.unitId)) continue;
      this.resultsSeen.add(unit.unitId);
      if (unit.prize > 0) this.board.finished(this.index, this.game, unit.prize, now);
    }
    // Only the units on the table can finish: forget the others.
    if (this.resultsSeen.size > 8) {
      const current = new Set(units.map((u) => u.unitId));
      for (const id of this.resultsSeen) if (!current.has(id)) this.resultsSeen.delete(id);
    }
  }

  private noteSteps(units: readonly UnitView[], now: number): void {
    for (const unit of units) {
      for (let i = unit.steps.length - 1; i >= 0; i--) {
        const { isNew, leads } = this.stepClock.player(`${unit.unitId}:${i}`, now);
        if (!isNew) break;
        // One count per watcher served first, as the feed counts its spectators.
        for (const lead of leads) {
          this.stats.count.watchAheadOfPlayer++;
          this.stats.lead('watch', lead);
        }
      }
    }
  }

  private request(type: string, payload: unknown): Promise<unknown> {
    this.stats.count.sent++;
    return this.room!.request(type, payload, { timeout: this.settings.requestTimeoutMs }).then((reply: unknown) => {
      this.stats.count.received++;
      return reply;
    });
  }

  /**
   * Sends a request and waits for both its reply and the patch for which `check` holds.
   * Returns the time from the send to that patch, or throws the refusal.
   */
  private async timed(type: string, payload: unknown, check: (units: readonly UnitView[]) => boolean): Promise<{ reply: unknown; ms: number }> {
    if (this.halted) throw Object.assign(new Error('halted'), { code: HALTED });
    const sentAt = performance.now();
    let resolvePatch!: () => void;
    const patch = new Promise<void>((resolve) => (resolvePatch = resolve));
    const waiter: Waiter = { check, resolve: resolvePatch };
    this.waiter = waiter;
    this.stats.count.requests++;
    try {
      const reply = await this.request(type, payload);
      if (waiter.at === undefined && check(this.unitsView)) waiter.at = performance.now();
      if (waiter.at === undefined) {
        // The reply came first: the step must still arrive, within the request timeout.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          patch,
          new Promise<void>((_, reject) => (timer = setTimeout(() => reject(Object.assign(new Error('no patch'), { code: 'harness/no_patch' })), this.settings.requestTimeoutMs))),
        ]).finally(() => clearTimeout(timer));
      }
      return { reply, ms: waiter.at! - sentAt };
    } finally {
      if (this.waiter === waiter) this.waiter = undefined;
    }
  }

  /** No new unit from now on: the pause under way ends at once, the unit in play is finished without any. */
  stop(): void {
    this.stopping = true;
    this.wake?.();
  }

  /**
   * No `buy` or `act` from now on (the drain ran out): the one under way is answered, then the
   * player stops where it is, so that the books read units nobody moves any more.
   */
  halt(): void {
    this.halted = true;
    this.stop();
  }

  private think(): Promise<void> | undefined {
    if (this.stopping) return undefined;
    const ms = this.choices.think(this.settings.thinkMs);
    if (ms <= 0) return undefined;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.wake!(), ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  /** Plays units until `stopping`, then finishes the one in play. */
  async play(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      try {
        await this.finishUnitsInPlay();
        if (this.stopping) break;
        await this.playOneUnit();
        failures = 0;
        if (!this.watched && !this.stopping && this.choices.chance(this.settings.switchShare)) await this.switchGame();
      } catch (err) {
        const code = errorCode(err, 'harness/error');
        if (code === HALTED) return;
        this.stats.error(code, err);
        if (code === 'purchase/insufficient_funds') return;
        if (code === 'purchase/game_closed' && !this.watched) await this.switchGame().catch(() => undefined);
        // Back off (exponentially, up to 5 s; 2 s when resilient) so that a failing server is
        // not hammered; give up after 20 failures in a row (a resilient player never does).
        if (++failures >= 20 && !this.settings.resilient) {
          this.stats.error('harness/player_gave_up', `after 20 failures in a row, the last: ${code}`);
          return;
        }
        await sleep(Math.min(this.settings.resilient ? 2000 : 5000, 50 * 2 ** failures));
        await this.reopenIfClosed();
      }
    }
    // Then what is in play is finished; a resilient player rides out faults here too (10 tries).
    for (let tries = 1; ; tries++) {
      try {
        return await this.finishUnitsInPlay();
      } catch (err) {
        const code = errorCode(err, 'harness/error');
        if (code === HALTED) return;
        this.stats.error(code, err);
        if (!this.settings.resilient || tries === 10) return;
        await sleep(500);
        await this.reopenIfClosed();
      }
    }
  }

  /** Opens a new table when the connection is gone (a resilient player: on the next endpoint). */
  private async reopenIfClosed(): Promise<void> {
    if (this.room && this.room.connection?.isOpen !== false) return;
    const old = this.room;
    this.room = undefined;
    if (old) await withTimeout(old.leave(false), 1000, 'leave/timeout').catch(() => undefined);
    if (this.settings.resilient && this.endpoints.length > 1) {
      this.endpointIndex = (this.endpointIndex + 1) % this.endpoints.length;
      this.client = new PreparingClient(this.endpoint);
      this.client.auth.token = this.token;
    }
    try {
      await this.open(this.game);
    } catch (e) {
      this.stats.error(errorCode(e, 'join/table'), e);
    }
  }

  /**
   * Chaos: drops this client's connection at once, as a network cut: the `ws` package's
   * `terminate()` (no close handshake). Node's own WebSocket (the SDK's choice when it was
   * imported before loadtest/node-websocket.ts) has none: it closes, without the leave message,
   * which the server treats as the same dropped connection.
   */
  cut(): boolean {
    const ws = (this.room?.connection?.transport as { ws?: { terminate?: () => void; close?: () => void } } | undefined)?.ws;
    if (!ws || this.room?.connection.isOpen !== true) return false;
    if (ws.terminate) ws.terminate();
    else ws.close?.();
    return true;
  }

  private async switchGame(): Promise<void> {
    const started = performance.now();
    const old = this.room;
    this.room = undefined;
    if (old) await withTimeout(old.leave(true), this.settings.requestTimeoutMs, 'leave/timeout').catch(() => undefined);
    await this.open(this.choices.game(this.game));
    this.stats.record(this.stats.tableSwitch, performance.now() - started);
  }

  private nextRequestId(): string {
    return `lt${this.index}_${++this.requestCounter}`;
  }

  private async playOneUnit(): Promise<void> {
    const game = this.game;
    const stake = this.choices.stake(game);
    const picks = this.choices.picks(game, this.settings.lampBothShare);
    const auto = this.choices.chance(this.settings.autoShare);
    const fullScript = this.choices.script(game, auto);
    const script = this.reveals ? this.reveals.untilEnd(game, stake, picks, fullScript) : fullScript;
    const requestId = this.nextRequestId();
    await this.think();
    if (this.stopping) return;
    const before = new Set(this.unitsView.map((u) => u.unitId));
    const bought = (units: readonly UnitView[]) => units.length > 0 && units.every((u) => !before.has(u.unitId));
    // The echo ends its units when told: at purchase for a reveal that ends there.
    const endsAtPurchase = this.reveals && script.length === 0 ? { end: true } : {};
    const payload = { stake, requestId, ...(picks !== undefined ? { picks } : {}), ...endsAtPurchase };
    let result: { reply: unknown; ms: number } | undefined;
    // A purchase whose reply was lost may have been dealt: retry it with the same request id,
    // which the server answers with the same units, charged once (a resilient player until it
    // is answered: refusals that decide nothing, lost connections, timeouts).
    for (let attempt = 1; !result; attempt++) {
      try {
        result = await this.timed('buy', payload, bought);
      } catch (err) {
        const code = errorCode(err, 'connection/lost');
        if (code === HALTED) throw err;
        const retry = this.settings.resilient ? attempt < PURCHASE_ATTEMPTS && !DEFINITIVE_PURCHASE_REFUSAL.test(code) : attempt === 1 && code === 'harness/timeout';
        if (!retry) throw err;
        this.stats.error(code, `buy ${requestId}: ${(err as Error).message ?? code}, retried`);
        if (this.settings.resilient) {
          await sleep(Math.min(2000, 50 * 2 ** attempt));
          await this.reopenIfClosed();
        }
      }
    }
    const { unitIds } = result.reply as BuyReply;
    this.stats.latency('buy', result.ms);
    this.stats.count.unitsBought += unitIds.length;
    for (const unitId of unitIds) this.units.push({ unitId, game, stake, requestId, prize: null });
    await this.playScript(script);
  }

  /** Units left unfinished on the table (resumed, or a refused step): AUTO, or Noël's pick. */
  private async finishUnitsInPlay(): Promise<void> {
    if (!this.room) await this.open(this.game);
    const unfinished = this.unitsView.filter((u) => u.status !== 'finished');
    if (unfinished.length === 0) return;
    await this.playScript(this.choices.script(this.game, true));
  }

  private async playScript(script: readonly unknown[]): Promise<void> {
    const echo = this.settings.target === 'echo';
    this.noteFinished();
    await this.sayUncovered();
    for (const [i, action] of script.entries()) {
      const targets = this.unitsView.filter((u) => u.status !== 'finished');
      if (targets.length === 0) break;
      await this.think();
      const before = targets.map((u) => u.steps.length);
      const ids = targets.map((t) => t.unitId);
      const advanced = (units: readonly UnitView[]) => ids.every((id, k) => {
        for (const u of units) if (u.unitId === id) return u.steps.length > before[k]!;
        return false;
      });
      const payload = echo ? { action, end: i === script.length - 1 } : { action };
      const { ms } = await this.timed('act', payload, advanced);
      this.stats.latency('act', ms);
      this.noteFinished();
      await this.sayUncovered();
    }
    if (this.unitsView.some((u) => u.status !== 'finished')) {
      throw Object.assign(new Error('the script ended before the reveal'), { code: 'harness/unit_unfinished' });
    }
  }

  /**
   * As the page does in a game it draws under silver (Mine d'or, Le Noël), once the player has
   * scratched what the table shows: `uncovered`, without which the table's watchers and the
   * wins feed would wait for the sweeper's delay.
   */
  private async sayUncovered(): Promise<void> {
    if (!coveredOnScreen(this.game)) return;
    const units = this.unitsView;
    for (const unitId of this.uncoveredSteps.keys()) if (!units.some((u) => u.unitId === unitId)) this.uncoveredSteps.delete(unitId);
    for (const { unitId, steps } of units) {
      if ((this.uncoveredSteps.get(unitId) ?? 0) >= steps.length) continue;
      this.uncoveredSteps.set(unitId, steps.length);
      await this.request('uncovered', { unitId, steps: steps.length });
    }
  }

  /** Records the prize of each unit that finished in this player's ledger, once. */
  private noteFinished(): void {
    for (const unit of this.unitsView) {
      if (unit.status !== 'finished') continue;
      const record = this.units.find((u) => u.unitId === unit.unitId);
      if (!record || record.prize !== null) continue;
      record.prize = unit.prize;
      this.stats.count.unitsFinished++;
    }
  }

  /** The wallet as the server has it now. */
  async wallet(): Promise<Wallet> {
    return (await this.request('wallet', undefined)) as Wallet;
  }

  async leave(): Promise<void> {
    const room = this.room;
    this.room = undefined;
    if (room) await withTimeout(room.leave(true), this.settings.requestTimeoutMs, 'leave/timeout').catch(() => undefined);
  }
}
