import WebSocket from 'ws';

/**
 * The SDK takes `globalThis.WebSocket` when there is one (undici's, in Node 22) and the `ws`
 * package otherwise. Undici's client costs the harness about twice the CPU per message
 * (web streams, event targets, a copy into an ArrayBuffer), and the harness shares the
 * machine with the servers it measures: so the harness's clients use `ws`, as the server does.
 * Imported before `@colyseus/sdk` by every harness module that uses it.
 */
(globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
