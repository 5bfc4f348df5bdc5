import { Room, Server, ServerError, type Client } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { loadConfig } from '../src/config';
import { Batcher } from '../src/feed/batcher';
import { sendPatchesAsStepsHappen, TableState, UnitState } from '../src/rooms/table-state';

/**
 * The framework's own ceiling: a bare Colyseus server whose rooms only echo, speaking the
 * table room's protocol with the table room's state schema, so that the same harness drives it.
 * No accounts, no dealing, no storage, no game rules: what is left is Colyseus, the WebSocket
 * transport, schema encoding and decoding, and the harness itself.
 *
 * - `table` `{ game, name }`: `buy` puts one unit (two for a lamp purchase with two picks) with
 *   an empty first step (with `end`: a `finished` event, the reveal ending at purchase) and
 *   answers `{ unitIds, wallet }`; `act { action, end }` appends a step echoing the action to
 *   every unfinished unit (one patch per unit, as the table room does), and with `end` a
 *   `finished` event and the unit's end, answered `{ unitIds, wallet }`. The harness's players
 *   say `end` where the game's rules would end the reveal (loadtest/mix.ts, `RevealLengths`);
 *   `wallet` answers; `watchers { open }` opens the table to watchers (`joinById(id, { watch })`).
 * - `feed`: `recent` on join, then `wins` `{ wins }` with each winning unit: one finished unit
 *   in four wins twice its stake (about the games' share of winners), batched as the game
 *   server's feed room batches them (FEED_BATCH_MS, same default), so that feed spectators cost
 *   about what they cost on the game server, and the feed delay can be timed the same way.
 *
 * Run as a child process by the harness: `PORT=… node --import tsx loadtest/echo-server.ts`.
 */

const feeds = new Set<EchoFeed>();
let finishedCount = 0;
/** The game server's setting, read and checked the same way (and the same default). */
const FEED_BATCH_MS = loadConfig({ FEED_BATCH_MS: process.env['FEED_BATCH_MS'] }).feedBatchMs;

type EchoWin = { game: string; stake: number; amount: number; pseudonym: string; at: string };

class EchoFeed extends Room {
  readonly batch = new Batcher<EchoWin>(FEED_BATCH_MS, (wins) => this.broadcast('wins', { wins }));

  override onCreate(): void {
    feeds.add(this);
  }

  override onJoin(client: Client): void {
    client.send('recent', { wins: [] });
  }

  override onDispose(): void {
    feeds.delete(this);
    this.batch.stop();
  }
}

/** One finished unit in four wins twice its stake (about the games' share of winning units). */
function prizeOfNextFinish(stake: number): number {
  return ++finishedCount % 4 === 0 ? stake * 2 : 0;
}

/** After the player's patch, as the game server does: a win never reaches the feed first. */
function publishWin(win: Omit<EchoWin, 'at'>): void {
  const message = { ...win, at: new Date().toISOString() };
  for (const feed of feeds) feed.batch.add(message);
}

class EchoTable extends Room<{ state: TableState }> {
  override maxClients = 10_001;
  private owner: Client | undefined;
  private open = false;
  private pseudonym = '';
  private counter = 0;

  override onCreate(options: { game?: string; name?: string }): void {
    this.setState(new TableState());
    this.state.game = String(options?.game ?? '');
    this.pseudonym = String(options?.name ?? 'echo');
    this.maxMessagesPerSecond = 10_000;
    sendPatchesAsStepsHappen(this);

    this.onMessage('buy', (client, message: { stake?: number; picks?: unknown; end?: boolean }) => {
      if (client !== this.owner) throw new ServerError(403, 'table/watcher: watchers cannot act');
      this.state.units.clear();
      const count = Array.isArray(message?.picks) ? Math.max(1, message.picks.length) : 1;
      const end = message?.end === true;
      const unitIds: string[] = [];
      for (let i = 0; i < count; i++) {
        const unit = new UnitState();
        unit.unitId = `echo-${this.roomId}-${++this.counter}`;
        unit.stake = Number(message?.stake) || 0;
        const prize = end ? prizeOfNextFinish(unit.stake) : 0;
        unit.steps.push(JSON.stringify({ seq: 0, by: 'purchase', events: end ? [{ type: 'finished', prize }] : [] }));
        if (end) this.finish(unit, prize);
        this.state.units.push(unit);
        unitIds.push(unit.unitId);
      }
      this.broadcastPatch();
      return { unitIds, wallet: { balance: 0, held: 0 } };
    });

    this.onMessage('act', (client, message: { action?: unknown; end?: boolean }) => {
      if (client !== this.owner) throw new ServerError(403, 'table/watcher: watchers cannot act');
      const end = message?.end === true;
      const unitIds: string[] = [];
      for (const unit of this.state.units) {
        if (unit.status === 'finished') continue;
        const prize = end ? prizeOfNextFinish(unit.stake) : 0;
        const events = end ? [message?.action ?? null, { type: 'finished', prize }] : [message?.action ?? null];
        unit.steps.push(JSON.stringify({ seq: unit.steps.length, by: 'player', events }));
        if (end) this.finish(unit, prize);
        unitIds.push(unit.unitId);
        this.broadcastPatch();
      }
      return end ? { unitIds, wallet: { balance: 0, held: 0 } } : { unitIds };
    });

    this.onMessage('wallet', () => ({ balance: 0, held: 0 }));
    // The scratch's word, answered as the game server does (its cost, not its effect on the feed).
    this.onMessage('uncovered', (_client, message: { unitId?: string; steps?: number }) => ({ unitId: message?.unitId, steps: message?.steps }));
    this.onMessage('watchers', (_client, message: { open?: boolean }) => {
      this.open = message?.open !== false;
      return { roomId: this.roomId, open: this.open };
    });
  }

  /** The unit's reveal ends; a win goes to the feed (after the patch of the turn, as the game server's). */
  private finish(unit: UnitState, prize: number): void {
    unit.status = 'finished';
    unit.prize = prize;
    if (prize > 0) queueMicrotask(() => publishWin({ game: this.state.game, stake: unit.stake, amount: prize, pseudonym: this.pseudonym }));
  }

  override onJoin(client: Client, options: { watch?: boolean }): void {
    if (options?.watch) {
      if (!this.open) throw new ServerError(403, 'watch/closed: this table is not open to watchers');
      return;
    }
    if (this.owner) throw new ServerError(403, 'table/not_yours: this table belongs to another player');
    this.owner = client;
  }
}

export async function startEchoServer(port: number, host = '127.0.0.1'): Promise<{ port: number; stop(): Promise<void> }> {
  const server = new Server({ transport: new WebSocketTransport(), gracefullyShutdown: false, greet: false });
  server.define('table', EchoTable);
  server.define('feed', EchoFeed);
  await server.listen(port, host);
  const address = (server.transport.server?.address() ?? null) as { port: number } | null;
  return { port: address?.port ?? port, stop: () => server.gracefullyShutdown(false) };
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isMain) {
  const port = Number(process.env['PORT'] ?? 2570);
  startEchoServer(port, process.env['HOST'] ?? '127.0.0.1').then(
    (echo) => {
      console.log(`echo server listening on ws://127.0.0.1:${echo.port}`);
      const stop = () => echo.stop().then(() => process.exit(0), () => process.exit(1));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
