import { Socket } from 'node:net';
import { CloseCode, Room, ServerError, type Client, type MessageContext } from '@colyseus/core';
import { z } from 'zod';
import { AuthError, type Player } from '../auth/tokens';
import { GAME_IDS, type GameId } from '../games/types';
import type { LiveUnit } from '../play/play-service';
import { winFeed } from '../feed/win-feed';
import { toHistoryLine } from '../play/recall';
import { SlicedSender } from './fan-out';
import { services } from '../server/services';
import { sendPatchesAsStepsHappen, StepState, TableState, UnitState } from './table-state';

const CREATE = z.object({ game: z.enum(GAME_IDS) });
const BUY = z.object({ stake: z.number().int(), requestId: z.string(), picks: z.unknown().optional() }).strict();
const ACT = z.object({ action: z.unknown(), unitId: z.string().max(200).optional() }).strict();
const HISTORY = z.object({ offset: z.number().int().min(0).max(1_000_000).default(0), limit: z.number().int().min(1).max(100).default(20) }).strict();
const RECALL = z.object({ unitId: z.string().min(1).max(200) }).strict();
const WATCHERS = z.object({ open: z.boolean() }).strict();

/** What `onAuth` gives a spectator (`joinById(roomId, { watch: true })`, no token). */
interface SpectatorAuth {
  readonly spectator: true;
}

/** The table's listing in the matchmaker (`GET /tables` reads it, from any process). */
export interface TableMetadata {
  readonly game: string;
  readonly pseudonym: string;
  /** Open to watchers. */
  readonly watchable: boolean;
  readonly watchers: number;
}

/** How often at most the watcher count is written to the listing. */
const LISTING_EVERY_MS = 1000;

/** How long a dropped player's seat is kept; after that the unit still resumes in a new room. */
const RECONNECT_SECONDS = 30;

interface Refused {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
}

/**
 * One player's table for one game. Thin on purpose: validate the message, call the play
 * service (which calls the game's reducer and the stores), put the resulting steps into the
 * state, answer every refusal to the client that caused it. Messages of one table are handled
 * one at a time, in order.
 *
 * The player may open the table to watchers (`watchers`): spectators join without a token,
 * read-only, and get the same state patches as the player (only revealed values are ever in
 * the state), always after the player's: their frames of a patch are sent once the player's
 * has been written. The player's private messages (`wallet`, `resumed`, replies) go to the
 * player's client only.
 */
export class TableRoom extends Room<{ state: TableState; metadata: TableMetadata }> {
  private game!: GameId;
  private owner: Player | undefined;
  /** The player's session (kept across a reconnection); every other client is a spectator. */
  private ownerSession: string | undefined;
  private readonly spectators = new Set<string>();
  private watchable = false;
  private live: LiveUnit[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** While a patch is being sent, spectators' frames wait here until the player's is out. */
  private patching = false;
  private readonly heldFrames = new SlicedSender();
  private ownerCorked = false;
  /** What waits for the player's corked frames to be written (see corkOwner). */
  private readonly afterUncork: (() => void)[] = [];
  /** The player's clients (one per connection) whose frames are copied (see corkOwner). */
  private readonly copyingClients = new WeakSet<Client>();
  private listingDue = false;
  private listingTimer: { clear(): void } | undefined;

  static override async onAuth(token: string, options: { token?: unknown; watch?: unknown } | undefined): Promise<Player | SpectatorAuth> {
    // A spectator needs no account and shows none: whatever token it carries is not used.
    if (options?.watch === true) return { spectator: true };
    try {
      return await services().verifier.verify(token || options?.token);
    } catch (err) {
      if (err instanceof AuthError) throw new ServerError(401, `${err.code}: ${err.message}`);
      throw err;
    }
  }

  override async onCreate(options: unknown): Promise<void> {
    const parsed = CREATE.safeParse(options);
    if (!parsed.success) throw new ServerError(400, `table/malformed: choose a game among ${GAME_IDS.join(', ')}`);
    this.game = parsed.data.game;
    const { config } = services();
    this.maxMessagesPerSecond = config.maxMessagesPerSecond;
    // The player and up to WATCHERS_MAX spectators, plus one spare seat so that one spectator
    // too many is answered `table/full` (by onJoin) rather than a bare "room is locked".
    // Private: matchmaking (join, joinOrCreate) never sends anyone here; the player creates
    // the table, spectators join it by id.
    this.maxClients = 2 + config.watchersMax;
    await this.setMatchmaking({ private: true, metadata: { game: this.game, pseudonym: '', watchable: false, watchers: 0 } });
    this.setState(new TableState());
    this.state.game = this.game;
    // Patches go out when a step is applied, not on a timer: each step reaches the client at once.
    sendPatchesAsStepsHappen(this);

    this.onMessage('buy', (client, message, ctx) => this.serial(client, ctx, () => this.buy(message)));
    this.onMessage('act', (client, message, ctx) => this.serial(client, ctx, () => this.act(client, message)));
    this.onMessage('wallet', (client, _message, ctx) => this.serial(client, ctx, () => this.wallet(client)));
    this.onMessage('history', (client, message, ctx) => this.serial(client, ctx, () => this.history(message)));
    this.onMessage('recall', (client, message, ctx) => this.serial(client, ctx, () => this.recall(message)));
    this.onMessage('watchers', (client, message, ctx) => this.serial(client, ctx, () => this.watchers(message)));
    this.onMessage('*', (client, type) => this.refuseTo(client, undefined, this.isSpectator(client)
      ? readOnly()
      : { ok: false, code: 'message/unknown_type', message: `unknown message type ${String(type)}` }));
  }

  override async onJoin(client: Client, _options: unknown, auth: Player | SpectatorAuth): Promise<void> {
    if ('spectator' in auth) return this.joinAsSpectator(client);
    const player = auth;
    if (this.owner && this.owner.playerId !== player.playerId) {
      throw new ServerError(403, 'table/not_yours: this table belongs to another player');
    }
    if (this.ownerSession) throw new ServerError(403, 'table/taken: this table already has its player; open a new one');
    this.owner = player;
    this.ownerSession = client.sessionId;
    void this.setMetadata({ ...this.metadata, pseudonym: player.pseudonym }).catch(() => undefined);
    await winFeed()?.rememberPseudonym(player.playerId, player.pseudonym).catch(() => undefined);
    await this.run(async () => {
      // GLI-19 4.16: an unfinished unit of this game comes back exactly where it stopped.
      const unfinished = await services().play.unfinished(player.playerId, this.game);
      if (unfinished.length > 0) {
        this.show(unfinished);
        client.send('resumed', { unitIds: unfinished.map((u) => u.sale.unitId) });
      }
      client.send('wallet', await services().play.wallet(player.playerId));
    });
  }

  override async onDrop(client: Client): Promise<void> {
    // The player's seat is kept for a while; spectators just go (onLeave follows).
    if (client.sessionId === this.ownerSession) await this.allowReconnection(client, RECONNECT_SECONDS);
  }

  override onReconnect(client: Client): void {
    if (client.sessionId === this.ownerSession) this.keepOwnerLast();
  }

  override onLeave(client: Client): void {
    if (this.spectators.delete(client.sessionId)) {
      this.listingChanged();
      return;
    }
    if (client.sessionId === this.ownerSession && this.spectators.size > 0) {
      // The player is gone for good: the table closes, and its spectators are sent away.
      this.watchable = false;
      void this.disconnect(CloseCode.CONSENTED);
    }
  }

  override async onDispose(): Promise<void> {
    this.listingTimer?.clear();
    // Let a purchase or an action in flight finish: nothing is left half-done.
    await this.queue.catch(() => undefined);
  }

  /**
   * Sends the state's changes to every client, the player first: spectators' frames are held
   * while the patch goes out, so no spectator is ever sent a step before the player, and are
   * then sent in slices (`SlicedSender`), so that a thousand watchers neither delay the reply
   * to the player nor hold up the other tables of this process.
   */
  override broadcastPatch(): boolean {
    this.corkOwner();
    this.patching = true;
    try {
      return super.broadcastPatch();
    } finally {
      this.patching = false;
      this.heldFrames.flush();
    }
  }

  /**
   * Holds the player's frames until this turn's work is done, so that a step's patch and the
   * reply to the request that made it leave in one write: the `ws` transport makes a system
   * call per frame, and on loopback the sender pays for the receiver's side too. Without a TCP
   * socket under the client (another transport) it does nothing.
   */
  private corkOwner(): void {
    if (this.ownerCorked || this.ownerSession === undefined) return;
    const owner = this.clients.getById(this.ownerSession);
    const socket = (owner?.ref as { _socket?: unknown } | undefined)?._socket;
    if (!owner || !(socket instanceof Socket)) return;
    if (!this.copyingClients.has(owner)) {
      // Colyseus encodes every patch into one buffer that the next patch overwrites, and a
      // socket that cannot write at once (corked, or backed up) keeps what it was given, not a
      // copy: the player's frames are copied (a few hundred bytes each).
      const raw = owner.raw.bind(owner);
      owner.raw = (data, options, cb) => raw(Uint8Array.prototype.slice.call(data), options, cb);
      this.copyingClients.add(owner);
    }
    socket.cork();
    this.ownerCorked = true;
    // After the microtasks now queued, among them the reply to the request being handled.
    process.nextTick(() => {
      this.ownerCorked = false;
      socket.uncork();
      for (const then of this.afterUncork.splice(0)) then();
    });
  }

  /**
   * Colyseus sends a patch to the clients from the last to the first: the player's client is
   * kept last, so that its frame is written before any spectator's is even looked at.
   * (Only a matter of speed: the order itself is guaranteed by holding spectators' frames.)
   */
  private keepOwnerLast(): void {
    const owner = this.ownerSession === undefined ? undefined : this.clients.getById(this.ownerSession);
    if (!owner || this.clients[this.clients.length - 1] === owner) return;
    this.clients.splice(this.clients.indexOf(owner), 1);
    this.clients.push(owner);
  }

  private joinAsSpectator(client: Client): void {
    if (!this.watchable) throw new ServerError(403, 'table/not_watchable: this table is not open to watchers');
    if (this.spectators.size >= services().config.watchersMax) throw new ServerError(403, 'table/full: this table has all the watchers it takes');
    this.spectators.add(client.sessionId);
    this.keepOwnerLast();
    const raw = client.raw.bind(client);
    // Frames of one patch share one buffer, reused by the next encoding: a held frame is a copy.
    let lastSource: Uint8Array | Buffer | undefined;
    let lastCopy: Uint8Array | undefined;
    client.raw = (data, options, cb) => {
      if (!this.patching) return raw(data, options, cb);
      if (data !== lastSource) {
        lastSource = data;
        lastCopy = Uint8Array.prototype.slice.call(data);
      }
      const copy = lastCopy!;
      this.heldFrames.push(() => raw(copy, options, cb));
    };
    this.listingChanged();
  }

  private isSpectator(client: Client): boolean {
    return client.sessionId !== this.ownerSession;
  }

  /** The watcher count in the listing, written at most once a second. */
  private listingChanged(): void {
    this.listingDue = true;
    if (this.listingTimer) return;
    this.writeListing();
    this.listingTimer = this.clock.setTimeout(() => {
      this.listingTimer = undefined;
      if (this.listingDue) this.listingChanged();
    }, LISTING_EVERY_MS);
  }

  private writeListing(): Promise<void> {
    this.listingDue = false;
    const metadata: TableMetadata = { game: this.game, pseudonym: this.owner?.pseudonym ?? '', watchable: this.watchable, watchers: this.spectators.size };
    return this.setMetadata(metadata).catch((err: unknown) => console.error(`table listing: ${String(err)}`));
  }

  private async buy(message: unknown): Promise<unknown> {
    const parsed = BUY.safeParse(message);
    if (!parsed.success) return malformed('purchase/malformed', parsed.error);
    const result = await services().play.buy(this.owner!, { game: this.game, ...parsed.data });
    if (!result.ok) return result;
    this.show(result.units);
    return { unitIds: result.units.map((u) => u.sale.unitId), wallet: await services().play.wallet(this.owner!.playerId) };
  }

  private async act(client: Client, message: unknown): Promise<unknown> {
    const parsed = ACT.safeParse(message);
    if (!parsed.success) return malformed('action/malformed', parsed.error);
    const { unitId, action } = parsed.data;
    const targets = this.live.filter((u) => !u.finished && (unitId === undefined || u.sale.unitId === unitId));
    if (targets.length === 0) {
      return unitId === undefined
        ? { ok: false, code: 'action/no_unit', message: 'no unit in play: buy one first' }
        : { ok: false, code: 'action/unknown_unit', message: `no unit ${unitId} in play at this table` };
    }
    const play = services().play;
    let refusal: Refused | undefined;
    for (const unit of targets) {
      const result = await play.act(this.owner!.playerId, unit, action);
      if (result.ok) this.replace(result.unit);
      else {
        if (result.code === 'action/conflict') {
          const reloaded = await play.load(unit.sale.unitId);
          if (reloaded) this.replace(reloaded);
        }
        refusal ??= result;
      }
    }
    const unitIds = targets.map((u) => u.sale.unitId);
    // Every target was unfinished: one that is finished now was finished by this action, and
    // its prize (if any) has just entered the balance.
    const ended = this.live.some((u) => u.finished && unitIds.includes(u.sale.unitId));
    const wallet = ended ? await play.wallet(this.owner!.playerId) : undefined;
    if (refusal) {
      // One lamp unit refused, the other ended: the refusal cannot carry the wallet.
      if (wallet) client.send('wallet', wallet);
      return refusal;
    }
    return wallet ? { unitIds, wallet } : { unitIds };
  }

  /** The player opens the table to watchers, or closes it (spectators present are sent away). */
  private async watchers(message: unknown): Promise<unknown> {
    const parsed = WATCHERS.safeParse(message);
    if (!parsed.success) return malformed('watchers/malformed', parsed.error);
    const { open } = parsed.data;
    if (open && services().config.watchersMax === 0) return { ok: false, code: 'watchers/off', message: 'this server takes no watchers (WATCHERS_MAX=0)' };
    this.watchable = open;
    if (!open) {
      for (const client of [...this.clients]) {
        if (this.spectators.has(client.sessionId)) client.leave(CloseCode.CONSENTED);
      }
    }
    await this.writeListing();
    return { roomId: this.roomId, open };
  }

  private async wallet(_client: Client): Promise<unknown> {
    return services().play.wallet(this.owner!.playerId);
  }

  private async history(message: unknown): Promise<unknown> {
    const parsed = HISTORY.safeParse(message ?? {});
    if (!parsed.success) return malformed('history/malformed', parsed.error);
    const sales = await services().play.history(this.owner!.playerId, parsed.data.offset, parsed.data.limit);
    return { units: sales.map(toHistoryLine) };
  }

  private async recall(message: unknown): Promise<unknown> {
    const parsed = RECALL.safeParse(message);
    if (!parsed.success) return malformed('recall/malformed', parsed.error);
    const record = await services().play.recall(this.owner!.playerId, parsed.data.unitId);
    return record ?? { ok: false, code: 'recall/not_found', message: `no unit ${parsed.data.unitId} in your history` };
  }

  /** Puts units on the table: their steps so far become the state the client sees. */
  private show(units: readonly LiveUnit[]): void {
    this.live = [...units];
    this.state.units.clear();
    for (const unit of units) this.state.units.push(toUnitState(unit));
    this.broadcastPatch();
    this.shown(units);
  }

  /** Swaps in a unit's next version, appending only the steps the client has not seen. */
  private replace(unit: LiveUnit): void {
    const i = this.live.findIndex((u) => u.sale.unitId === unit.sale.unitId);
    if (i < 0) return;
    this.live[i] = unit;
    const view = this.state.units[i]!;
    for (const step of unit.steps.slice(view.steps.length)) view.steps.push(toStepState(step));
    if (unit.finished) {
      view.prize = unit.sale.prize;
      view.status = 'finished';
    }
    this.broadcastPatch();
    this.shown([unit]);
  }

  /** The last steps of these units have gone out to the player: their wins may be published. */
  private shown(units: readonly LiveUnit[]): void {
    const feed = winFeed();
    const owner = this.owner;
    if (!feed || !owner) return;
    const finished = units.filter((u) => u.finished).map((u) => u.sale.unitId);
    if (finished.length === 0) return;
    const publish = () => {
      for (const unitId of finished) feed.shown(unitId, owner.pseudonym);
    };
    // A corked patch has not gone out yet: the wins wait for it (no spoilers).
    if (this.ownerCorked) this.afterUncork.push(publish);
    else publish();
  }

  /** Runs `task` after every earlier message of this table: one at a time, in order. */
  private run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async serial(client: Client, ctx: MessageContext, task: () => Promise<unknown>): Promise<unknown> {
    if (this.ownerSession !== undefined && this.isSpectator(client)) return this.refuseTo(client, ctx, readOnly());
    if (!this.owner) return this.refuseTo(client, ctx, { ok: false, code: 'table/not_joined', message: 'join the table first' });
    const reply = await this.run(task);
    if (isRefusal(reply)) return this.refuseTo(client, ctx, reply);
    return reply;
  }

  /** Every refusal reaches its client: as a rejected request, or as a `refused` message. */
  private refuseTo(client: Client, ctx: MessageContext | undefined, refusal: Refused): unknown {
    const reason = { code: refusal.code, message: refusal.message };
    if (ctx?.id !== undefined) return ctx.reject(reason);
    client.send('refused', reason);
    return undefined;
  }
}

function readOnly(): Refused {
  return { ok: false, code: 'spectator/read_only', message: 'spectators watch; only the player acts at this table' };
}

function isRefusal(value: unknown): value is Refused {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

function malformed(code: string, error: z.ZodError): Refused {
  const issue = error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, code, message: `${issue?.message ?? 'invalid message'}${where}` };
}

function toStepState(step: LiveUnit['steps'][number]): StepState {
  const state = new StepState();
  state.seq = step.seq;
  state.by = step.by;
  state.events = JSON.stringify(step.events);
  return state;
}

function toUnitState(unit: LiveUnit): UnitState {
  const state = new UnitState();
  state.unitId = unit.sale.unitId;
  state.stake = unit.sale.stake;
  for (const step of unit.steps) state.steps.push(toStepState(step));
  if (unit.finished) {
    state.status = 'finished';
    state.prize = unit.sale.prize;
  }
  return state;
}
