import { strict as assert } from 'node:assert';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { socketBytes } from '../../loadtest/node-websocket';

/** The harness's WebSocket clients count the bytes their sockets carry, closed ones included. */

describe('harness WebSocket clients', () => {
  let server: WebSocketServer;
  let url: string;

  before(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    server.on('connection', (ws) => ws.on('message', (data) => ws.send(Buffer.concat([data as Buffer, data as Buffer]))));
    await new Promise<void>((resolve) => server.once('listening', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('counts the bytes a client sent and received, frames and handshake, after it closed too', async () => {
    const Socket = (globalThis as unknown as { WebSocket: new (url: string) => import('ws').WebSocket }).WebSocket;
    const before = socketBytes() ?? { sent: 0, received: 0 };
    const ws = new Socket(url);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const reply = new Promise((resolve) => ws.once('message', resolve));
    ws.send(Buffer.alloc(1000, 7));
    await reply;
    const open = socketBytes()!;
    // 1,000 bytes out (plus a masked frame's header and the upgrade request), 2,000 back (plus
    // its header and the upgrade answer): each HTTP upgrade is a few hundred bytes.
    const sent = open.sent - before.sent;
    const received = open.received - before.received;
    assert.ok(sent >= 1000 + 6 && sent < 1000 + 600, `sent ${sent}`);
    assert.ok(received >= 2000 + 4 && received < 2000 + 600, `received ${received}`);
    ws.close();
    await new Promise((resolve) => ws.once('close', resolve));
    const closed = socketBytes()!;
    assert.ok(closed.sent >= open.sent && closed.received >= open.received, 'a closed client still counts');
  });
});
