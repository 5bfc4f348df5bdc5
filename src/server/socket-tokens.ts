import type { IncomingMessage } from 'node:http';
import type { Client } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { BEARER_SUBPROTOCOL } from '../protocol/table';
import { bearer } from './callers';

/**
 * The player token a WebSocket upgrade carries: in a subprotocol `bearer.<token>` (what the page
 * sends: a browser sets no header on a WebSocket, and a URL is what proxies log), else in
 * `Authorization: Bearer` (the Colyseus SDK in Node sends its client's headers), else in the
 * SDK's `_authToken` query (a client given `auth.token`).
 */
function upgradeToken(req: IncomingMessage): string | undefined {
  const offered = req.headers['sec-websocket-protocol']?.split(',').map((p) => p.trim()).find((p) => p.startsWith(BEARER_SUBPROTOCOL));
  if (offered) return offered.slice(BEARER_SUBPROTOCOL.length);
  return bearer(req) ?? new URL(req.url ?? '/', 'ws://server').searchParams.get('_authToken') ?? undefined;
}

/**
 * Colyseus's WebSocket transport, keeping the token each socket was opened with, for the table
 * to check that the socket taking a reserved seat is the player's who reserved it
 * (`TableServices.socketToken`): Colyseus checks the token at matchmaking only, so whoever held
 * an unused reservation (its session id travels in the socket's URL) would otherwise play with
 * the player's wallet.
 */
export class TokenKeepingTransport extends WebSocketTransport {
  private readonly tokens = new WeakMap<object, string>();

  constructor() {
    super();
    // Before Colyseus's own listener, which runs the room's onJoin in the same turn.
    this.wss.prependListener('connection', (socket: object, req: IncomingMessage) => {
      const token = upgradeToken(req);
      if (token !== undefined) this.tokens.set(socket, token);
    });
  }

  /** The token `client`'s socket was opened with; undefined when it carried none. */
  socketToken(client: Client): string | undefined {
    return this.tokens.get(client.ref as object);
  }
}
