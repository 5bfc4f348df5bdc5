import { BEARER_SUBPROTOCOL, TABLE_SUBPROTOCOL } from '../../src/protocol/table';

/**
 * A browser sets no header on a WebSocket: the socket that takes a table's seat shows whose it
 * is with the player's token in a subprotocol (src/protocol/table.ts), never in its URL. The
 * Colyseus SDK opens its sockets with the `WebSocket` it found when it loaded and offers no
 * subprotocol of its own: this module, imported before it (first in main.tsx), puts in its
 * place a `WebSocket` that offers the token while `withSeatToken` opens a seat's socket, and is
 * the page's own otherwise.
 */
let seatToken: string | undefined;

const PageWebSocket = globalThis.WebSocket;
globalThis.WebSocket = class SeatWebSocket extends PageWebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, seatToken === undefined ? protocols : [TABLE_SUBPROTOCOL, `${BEARER_SUBPROTOCOL}${seatToken}`]);
  }
};

/** Runs `open` (which opens a seat's socket at once, before anything it awaits) with `token` offered. */
export function withSeatToken<T>(token: string, open: () => T): T {
  seatToken = token;
  try {
    return open();
  } finally {
    seatToken = undefined;
  }
}
