import WebSocket from 'ws';

/**
 * The SDK takes `globalThis.WebSocket` when there is one (undici's, in Node 22) and the `ws`
 * package otherwise. The harness shares the machine with the servers it measures, so its
 * clients use the cheaper of the two per message (measured in docs/performance.md), `ws`, as
 * the server does; `LOADTEST_CLIENT_WEBSOCKET=undici` keeps Node's own, for comparison.
 * Imported before `@colyseus/sdk` by every harness module that uses it.
 *
 * The `ws` clients are counted: the bytes their TCP sockets read and wrote (WebSocket frames
 * with their headers, and each connection's HTTP upgrade), read from the socket's own counters
 * so that counting costs nothing per message.
 */

interface Counted {
  readonly _socket?: { bytesRead: number; bytesWritten: number } | null;
}

const open = new Set<CountingWebSocket>();
const closed = { sent: 0, received: 0 };
let constructed = 0;

class CountingWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    constructed++;
    open.add(this);
    this.once('close', () => {
      const socket = (this as unknown as Counted)._socket;
      closed.sent += socket?.bytesWritten ?? 0;
      closed.received += socket?.bytesRead ?? 0;
      open.delete(this);
    });
  }
}

const counting = process.env['LOADTEST_CLIENT_WEBSOCKET'] !== 'undici';
if (counting) (globalThis as { WebSocket?: unknown }).WebSocket = CountingWebSocket;

/**
 * Bytes this thread's WebSocket clients have sent and received so far; null when none of them
 * is counted: undici's clients, or an SDK that took `globalThis.WebSocket` before this module
 * set it (a process that imported the SDK first, as the test suite does).
 */
export function socketBytes(): { sent: number; received: number } | null {
  if (!counting || constructed === 0) return null;
  let sent = closed.sent;
  let received = closed.received;
  for (const ws of open) {
    const socket = (ws as unknown as Counted)._socket;
    sent += socket?.bytesWritten ?? 0;
    received += socket?.bytesRead ?? 0;
  }
  return { sent, received };
}
