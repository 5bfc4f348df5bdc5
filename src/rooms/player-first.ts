import { Socket } from 'node:net';
import { ClientState, type Client, type Room } from '@colyseus/core';
import { SlicedSender } from './fan-out';

/**
 * Player first: nothing of a table reaches anyone else — a view for its watchers, a win on the
 * feed — before the player's client could see it. Every such thing waits in one queue, in order; the
 * queue is let through each time the player's frames so far have been written to their socket,
 * and kept shut while the player cannot see: their connection dropped (until the reconnected
 * client has its full state) or closed for flooding. When the player is gone for good, what
 * waited is told so (`seen` false).
 *
 * The one place that relies on Colyseus's private behaviour, checked against @colyseus/core
 * 0.18.17 and @colyseus/ws-transport 0.18.4; test/rooms/player-first.test.ts fails if an
 * upgrade changes any of it:
 * - a patch reaches each joined client through `client.raw(bytes)`, the bytes being one shared
 *   buffer that the next encoding overwrites (so a frame held in a corked socket is a copy);
 * - with the ws transport `client.ref` is a `ws` WebSocket whose `_socket` is the TCP socket;
 * - every frame a client sends goes through `room._onMessage(client, buffer)`, bound at join;
 * - a client's full state goes out through `room.sendFullState(client)`, on its first join and
 *   when it comes back after a drop.
 */
export class PlayerFirst {
  private player: Client | undefined;
  private playerSees = false;
  /** The player left for good: nothing waits any more (it would wait forever). */
  private playerLeft = false;
  private corked: Socket | undefined;
  /** What waits for the player, in order: views for the watchers and publications. */
  private waiting: ((seen: boolean) => void)[] = [];
  private readonly fanOut = new SlicedSender();
  /** The player's clients whose frames are copied (a corked socket keeps what it is given). */
  private readonly copying = new WeakSet<Client>();
  private readonly messageCounts = new WeakMap<Client, { resetsAt: number; count: number }>();
  private readonly flooders = new WeakSet<Client>();

  /**
   * Every client of `room` sending more than `maxMessagesPerSecond` is closed at once with
   * `FLOOD_CLOSE_CODE` (Colyseus's own limit keeps the socket open, unread, through the
   * reconnection delay); what it sent past the limit is not read.
   */
  constructor(
    room: Room,
    private readonly maxMessagesPerSecond: number,
  ) {
    room.maxMessagesPerSecond = Infinity;
    const internals = room as unknown as {
      _onMessage(client: Client, buffer: Uint8Array): void;
      sendFullState(client: Client): void;
      broadcastPatch(): boolean;
    };
    const onMessage = internals._onMessage.bind(room);
    internals._onMessage = (client, buffer) => {
      if (this.flooders.has(client)) return;
      if (this.overLimit(client)) return this.closeFlooder(client);
      onMessage(client, buffer);
    };
    const sendFullState = internals.sendFullState.bind(room);
    internals.sendFullState = (client) => {
      sendFullState(client);
      if (client === this.player) this.playerCanSee();
    };
  }

  /** The player's client (first join, or back after a drop: it sees once its full state is out). */
  seatPlayer(client: Client): void {
    this.player = client;
    this.playerSees = client.state === ClientState.JOINED;
  }

  /** The player's connection dropped: everything waits until they are back or gone. */
  playerDropped(): void {
    this.playerSees = false;
  }

  /** The player is gone for good: what waited learns it was not seen. */
  playerGone(): void {
    this.playerSees = false;
    this.playerLeft = true;
    this.player = undefined;
    for (const then of this.waiting.splice(0)) then(false);
  }

  /** True once `client` was closed for flooding: what it queued before is not to be applied. */
  flooded(client: Client): boolean {
    return this.flooders.has(client);
  }

  /**
   * Sends the state's changes to the player, corked with this turn's reply, so that both leave
   * in one write.
   */
  patch(broadcastPatch: () => boolean): boolean {
    this.corkPlayer();
    return broadcastPatch();
  }

  /** Runs `then(true)` once the player's frames so far are written; `then(false)` if never. */
  afterPlayer(then: (seen: boolean) => void): void {
    if (this.playerLeft) return then(false);
    this.waiting.push(then);
    this.letThrough();
  }

  private playerCanSee(): void {
    this.playerSees = true;
    this.letThrough();
  }

  private letThrough(): void {
    if (!this.playerSees || this.corked || this.waiting.length === 0) return;
    for (const then of this.waiting.splice(0)) this.fanOut.push(() => then(true));
    this.fanOut.flush();
  }

  /**
   * Holds the player's frames until this turn's work is done, so that a step's patch and the
   * reply to the request that made it leave in one write: the `ws` transport makes a system
   * call per frame. Without a TCP socket under the client (another transport) it does nothing.
   */
  private corkPlayer(): void {
    const player = this.player;
    if (this.corked || !player || !this.playerSees) return;
    const socket = (player.ref as { _socket?: unknown } | undefined)?._socket;
    if (!(socket instanceof Socket)) return;
    if (!this.copying.has(player)) {
      const raw = player.raw.bind(player);
      player.raw = (data, options, cb) => raw(Uint8Array.prototype.slice.call(data), options, cb);
      this.copying.add(player);
    }
    socket.cork();
    this.corked = socket;
    // After the microtasks now queued, among them the reply to the request being handled.
    process.nextTick(() => {
      this.corked = undefined;
      socket.uncork();
      this.letThrough();
    });
  }

  private overLimit(client: Client): boolean {
    const now = performance.now();
    let window = this.messageCounts.get(client);
    if (!window || now >= window.resetsAt) {
      window = { resetsAt: now + 1000, count: 0 };
      this.messageCounts.set(client, window);
    }
    return ++window.count > this.maxMessagesPerSecond;
  }

  private closeFlooder(client: Client): void {
    this.flooders.add(client);
    if (client === this.player) this.playerSees = false;
    client.ref.removeAllListeners('message');
    client.leave(FLOOD_CLOSE_CODE, `table/flood: more than ${this.maxMessagesPerSecond} messages in one second`);
  }
}

/** Close code of a client sent away for flooding (4000–4999: the application's own). */
export const FLOOD_CLOSE_CODE = 4429;
