import WebSocket from 'ws';

/**
 * The SDK takes `globalThis.WebSocket` when there is one (undici's, in Node 22) and the `ws`
 * package otherwise. The harness shares the machine with the servers it measures, so its
 * clients use the cheaper of the two per message (measured in docs/performance.md), `ws`, as
 * the server does; `LOADTEST_CLIENT_WEBSOCKET=undici` keeps Node's own, for comparison.
 * Imported before `@colyseus/sdk` by every harness module that uses it.
 */
if (process.env['LOADTEST_CLIENT_WEBSOCKET'] !== 'undici') {
  (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
}
