import { CloseCode, matchMaker, Room, type Client, type MessageContext } from '@colyseus/core';
import { z } from 'zod';
import { STREAM_HEARTBEAT_MS, type TableFrame, type TableStreams } from '../feed/table-stream';
import type { GameDescription } from '../protocol/catalog';
import type { TableMessages, TableRequestType, WatcherCloseReason } from '../protocol/table';
import { Coalescing } from './fan-out';
import { answerRefusal, joinRefused, readOnly } from './refusals';
import { sendPatchesAsStepsHappen, showWatchedUnits, TableState } from './table-state';

/** What a watch room needs, given when the room type is defined (`watchRoomType`). */
export interface WatchServices {
  readonly streams: TableStreams;
  readonly catalog: readonly GameDescription[];
  readonly maxMessagesPerSecond: number;
  /** Most watchers one table takes, over every relay (WATCHERS_MAX). */
  readonly watchersMax: number;
  /** Most watchers one relay room takes (WATCH_ROOM_MAX_CLIENTS): past it, another relay opens. */
  readonly maxClients: number;
  /** Bytes a watcher's socket may hold unsent before its updates are coalesced (SPECTATOR_MAX_UNSENT_BYTES). */
  readonly maxUnsent: number;
  /** Told of each frame dropped for a watcher held back (metrics). */
  readonly coalesced?: () => void;
  readonly logError: (message: string, err: unknown) => void;
}

/** The options of `joinOrCreate('watch', { table })`: the table's room id, as `GET /tables` lists it. */
const WATCH_OPTIONS = z.object({ table: z.string().regex(/^[\w-]{1,64}$/) });

/** Request types a watcher might try: each is answered `spectator/read_only`. */
const PLAYER_REQUESTS = ['buy', 'act', 'wallet', 'history', 'recall', 'watchers', 'uncovered'] as const satisfies readonly TableRequestType[];

/**
 * A relay of one table to its watchers on this process (`joinOrCreate('watch', { table })`, no
 * token): it follows the table's stream (src/feed/table-stream.ts) and shows each frame in its
 * own `TableState`, so its watchers get the table's state on joining and a patch per step, as
 * they would at the table itself. A patch is encoded once for all the room's watchers; a
 * watcher whose socket falls behind is held back and given the whole latest state when it has
 * caught up (`Coalescing`). The table's last frame sends the watchers away with its reason;
 * a table whose frame is no longer kept alive (its process died) sends them away with
 * `table/lost`. Whatever a watcher sends is refused with `spectator/read_only`.
 */
export abstract class WatchRoom extends Room<{ state: TableState }> {
  protected abstract readonly services: WatchServices;
  private tableId = '';
  private player: TableFrame['player'] = 'here';
  private stopFollowing: (() => void) | undefined;
  private coalescing!: Coalescing;
  private ending = false;
  private lastSource: Uint8Array | undefined;
  private lastCopy: Uint8Array | undefined;

  override async onCreate(options: unknown): Promise<void> {
    const { streams, maxClients, maxMessagesPerSecond, maxUnsent, coalesced } = this.services;
    // First: Colyseus calls onDispose (which stops it) even when onCreate fails.
    this.coalescing = new Coalescing(maxUnsent, (client) => this.catchUp(client), coalesced);
    const parsed = WATCH_OPTIONS.safeParse(options);
    if (!parsed.success) throw joinRefused(400, 'table/malformed', 'name the table to watch: { table: roomId }');
    this.tableId = parsed.data.table;
    this.maxClients = maxClients;
    this.maxMessagesPerSecond = maxMessagesPerSecond;
    this.setState(new TableState());
    sendPatchesAsStepsHappen(this);
    this.stopFollowing = await streams.follow(this.tableId, (frame) => this.show(frame));
    if (!this.stopFollowing) throw joinRefused(403, 'table/not_watchable', 'this table is not open to watchers');
    await streams.relayAlive(this.tableId, this.roomId);
    this.clock.setInterval(() => this.checkTableAlive(), STREAM_HEARTBEAT_MS);
    for (const type of PLAYER_REQUESTS) this.onMessage(type, (client, _message, ctx) => this.refuse(client, ctx));
    this.onMessage('*', (client) => this.refuse(client, undefined));
  }

  override async onJoin(client: Client): Promise<void> {
    if (this.ending) throw joinRefused(403, 'table/not_watchable', 'this table is not open to watchers');
    if (!(await this.services.streams.admit(this.tableId, this.roomId, this.services.watchersMax))) {
      throw joinRefused(403, 'table/full', 'this table has all the watchers it takes');
    }
    const raw = client.raw.bind(client);
    client.raw = (data, options, cb) => (this.coalescing.holds(client) ? undefined : raw(this.lasting(data), options, cb));
    if (this.player === 'away') client.send('player', { state: 'away' } satisfies TableMessages['player']);
  }

  override async onLeave(client: Client): Promise<void> {
    this.coalescing.forget(client);
    await this.services.streams.leave(this.tableId, this.roomId).catch((err: unknown) => this.services.logError('watcher count failed', err));
  }

  override async onDispose(): Promise<void> {
    this.coalescing?.stop();
    this.stopFollowing?.();
    if (this.tableId) await this.services.streams.forget(this.tableId, this.roomId).catch(() => undefined);
  }

  /** A frame of the table: its units shown (one patch, encoded once for every watcher here), the player's state told. */
  private show(frame: TableFrame): void {
    if (this.ending) return;
    if (this.state.game !== frame.game) {
      this.state.game = frame.game;
      this.state.catalog = JSON.stringify(this.services.catalog.find((game) => game.id === frame.game));
    }
    showWatchedUnits(this.state, frame.units);
    this.broadcastPatch();
    if (frame.player !== this.player) {
      this.player = frame.player;
      this.broadcast('player', { state: frame.player === 'away' ? 'away' : 'back' } satisfies TableMessages['player']);
    }
    if (frame.end) this.end(frame.end);
  }

  /** A watcher back under the bound: the whole latest state at once, and the player's if away. */
  private catchUp(client: Client): void {
    if (this.ending || !this.clients.includes(client)) return;
    (this as unknown as { sendFullState(client: Client): void }).sendFullState(client);
    if (this.player === 'away') client.send('player', { state: 'away' } satisfies TableMessages['player']);
  }

  /**
   * A frame that outlives this turn: Colyseus encodes every patch (and full state) into one
   * buffer that the next encoding overwrites, and a socket that cannot send at once keeps what
   * it is given. One copy per frame serves every watcher of the room.
   */
  private lasting(data: Uint8Array): Uint8Array {
    if (data !== this.lastSource) {
      this.lastSource = data;
      this.lastCopy = Uint8Array.prototype.slice.call(data);
    }
    return this.lastCopy!;
  }

  /** The table is still there (else its watchers are sent away), and this relay too: its watchers keep counting. */
  private checkTableAlive(): void {
    if (this.ending) return;
    this.services.streams.relayAlive(this.tableId, this.roomId).catch((err: unknown) => this.services.logError('relay heartbeat failed', err));
    this.services.streams.latest(this.tableId).then(
      (frame) => frame === undefined && this.end('table/lost'),
      (err: unknown) => this.services.logError('watched table check failed', err),
    );
  }

  /** The watchers are sent away with the reason their page shows; the room goes. */
  private end(reason: WatcherCloseReason): void {
    this.ending = true;
    this.stopFollowing?.();
    this.stopFollowing = undefined;
    for (const client of [...this.clients]) client.leave(CloseCode.CONSENTED, reason);
    void this.disconnect().catch(() => undefined);
  }

  private refuse(client: Client, ctx: MessageContext | undefined): unknown {
    return answerRefusal(client, ctx, readOnly('this table'));
  }
}

/**
 * Where matchmaking creates a room: on the process with the fewest rooms (Colyseus's own rule),
 * but a table's relay on another process than the table's whenever there is one, so that its
 * watchers cost the player's process nothing but one publication per step.
 */
export async function processForNewRoom(roomName: string, options: { table?: unknown } | undefined): Promise<string> {
  const processes = (await matchMaker.stats.fetchAll()).sort((a, b) => a.roomCount - b.roomCount);
  let candidates = processes;
  if (roomName === 'watch' && typeof options?.table === 'string') {
    // A plain value with the in-memory driver, a promise with Redis's.
    const table = await Promise.resolve(matchMaker.getRoomById(options.table)).catch(() => undefined);
    const elsewhere = processes.filter((p) => p.processId !== table?.processId);
    if (elsewhere.length > 0) candidates = elsewhere;
  }
  return candidates[0]?.processId ?? matchMaker.processId;
}
