import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Decoder } from '@colyseus/schema';
import { TableState } from '../../src/rooms/table-state';

/** Colyseus's ROOM_STATE and ROOM_STATE_PATCH, the first byte of a full state and of a patch (@colyseus/shared-types Protocol). */
const ROOM_STATE = 14;
const ROOM_STATE_PATCH = 15;

export interface TappedPatch {
  /** performance.now() of this test process when the bytes came out of the server's socket. */
  readonly at: number;
  /** A full state (ROOM_STATE) or a patch (ROOM_STATE_PATCH), its first byte the protocol's code. */
  readonly bytes: Buffer;
}

/**
 * A TCP relay in front of the game server, one per browser context: the context's page loads
 * from the relay's port, so all it exchanges with the server (HTTP, WebSockets) goes through
 * here. The relay records every state patch the server sends down a WebSocket, with the time
 * this process read it: when the server sent it to that context, on one clock for all relays,
 * before any browser process had it. (A page's own clock is no judge of order: a busy renderer
 * can apply a patch it received first a few milliseconds after another renderer applies the
 * same patch.)
 */
export class WireTap {
  readonly patches: TappedPatch[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<WireTap> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const tap = new WireTap(server, (server.address() as AddressInfo).port);
    server.on('connection', (client) => tap.relay(client, targetPort));
    return tap;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket, targetPort: number): void {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());

    // A connection is a WebSocket when its request asks for the upgrade; then the server's
    // answer is the 101 head followed by frames.
    let request = Buffer.alloc(0);
    let websocket: boolean | undefined;
    client.on('data', (chunk: Buffer) => {
      if (websocket === undefined) {
        request = Buffer.concat([request, chunk]);
        const head = request.indexOf('\r\n\r\n');
        if (head >= 0) websocket = /^upgrade:\s*websocket\s*$/im.test(request.subarray(0, head).toString('latin1'));
      }
      upstream.write(chunk);
    });
    let down: Buffer = Buffer.alloc(0);
    let inFrames = false;
    upstream.on('data', (chunk: Buffer) => {
      const at = performance.now();
      client.write(chunk);
      if (!websocket) return;
      down = Buffer.concat([down, chunk]);
      if (!inFrames) {
        const head = down.indexOf('\r\n\r\n');
        if (head < 0) return;
        down = down.subarray(head + 4);
        inFrames = true;
      }
      down = this.readFrames(down, at);
    });
  }

  /** Records the complete frames at the front of `buffer`; returns what is left. */
  private readFrames(buffer: Buffer, at: number): Buffer {
    for (;;) {
      if (buffer.length < 2) return buffer;
      const opcode = buffer[0]! & 0x0f;
      if (buffer[0]! & 0x40) throw new Error('compressed WebSocket frame: the tap reads plain frames only');
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return buffer;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return buffer;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffer.length < offset + length) return buffer;
      const payload = buffer.subarray(offset, offset + length);
      if (opcode === 2 && (payload[0] === ROOM_STATE || payload[0] === ROOM_STATE_PATCH)) this.patches.push({ at, bytes: Buffer.from(payload) });
      buffer = buffer.subarray(offset + length);
    }
  }
}

/**
 * When each step of a table reached a client's wire: its full states and patches decoded in
 * order, as its SDK does, each step (`unitId#seq`) stamped with the time of the frame that first
 * held it.
 */
function stepsSent(frames: readonly TappedPatch[]): Map<string, number> {
  const state = new TableState();
  const decoder = new Decoder(state);
  const sent = new Map<string, number>();
  for (const { at, bytes } of frames) {
    decoder.decode(bytes, { offset: 1 });
    for (const unit of state.units) {
      for (let seq = 0; seq < unit.steps.length; seq++) {
        const key = `${unit.unitId}#${seq}`;
        if (!sent.has(key)) sent.set(key, at);
      }
    }
  }
  return sent;
}

/**
 * For each step the watcher was sent (a watch room relays it: its own encoding, on its own
 * connection), how long after the player was sent the same step (ms; negative: before). Steps
 * the watcher had in its first state, from before it joined, are not counted.
 */
export function watcherLags(player: readonly TappedPatch[], watcher: readonly TappedPatch[]): number[] {
  const playerSent = stepsSent(player);
  const first = stepsSent(watcher.slice(0, 1));
  const lags: number[] = [];
  for (const [key, at] of stepsSent(watcher)) {
    if (first.has(key)) continue;
    const playerAt = playerSent.get(key);
    if (playerAt === undefined) throw new Error(`the watcher was sent a step (${key}) the player never was`);
    lags.push(at - playerAt);
  }
  return lags;
}
