import { CloseCode, Room, type Client, type Delayed, type MessageContext } from '@colyseus/core';
import type { TokenVerifier, VerifiedPlayer } from '../auth/tokens';
import type { TableStreams, WatchedUnit } from '../feed/table-stream';
import type { WinFeed } from '../feed/win-feed';
import type { GameDescription } from '../protocol/catalog';
import type { HistoryPage, RecallRecord } from '../protocol/recall';
import type { ActReply, BuyReply, TableMessages, UncoveredReply, WatchersReply } from '../protocol/table';
import { GAME_IDS, refuse, type GameId, type Refusal } from '../games/types';
import type { EndedReveal, LiveUnit } from '../play/live-unit';
import type { PlayService } from '../play/play-service';
import type { Pacer } from '../play/pacing';
import { toHistoryLine } from '../play/recall';
import { PlayerFirst } from './player-first';
import { Serial } from './serial';
import { answerRefusal, isRefusal, joinRefused, readOnly } from './refusals';
import type { Seats } from './seats';
import { authenticate, parseMessage, TABLE_MESSAGES as M } from './table-messages';
import { sendPatchesAsStepsHappen, showUnits, TableState, watchedUnits, type ShownSteps } from './table-state';
import { Watchers, type TableMetadata } from './watchers';

/** What a table needs, given when the room type is defined (`tableRoomType`). */
export interface TableServices {
  readonly verifier: TokenVerifier;
  readonly play: PlayService;
  readonly feed: WinFeed;
  /** Where the table publishes what its watchers see (the watch rooms of every process relay it). */
  readonly streams: TableStreams;
  readonly seats: Seats;
  /** The server's pace: no two units of a player start closer than their game's (src/play/pacing.ts). */
  readonly pacer: Pacer;
  /** The games, their prices, prize tables, choices and actions (`GET /games`), sent on joining. */
  readonly catalog: readonly GameDescription[];
  readonly maxMessagesPerSecond: number;
  /** Spectators a table open to watchers takes, over every relay (0: tables cannot be opened). */
  readonly watchersMax: number;
  /** Told how long each action took from its message received to its patch sent (metrics). */
  readonly actionShown?: (game: GameId, seconds: number) => void;
  /** The server's log; every line a table writes carries its `roomId`. */
  readonly log: RoomLog;
  /** Records each exchange with the player for the regulator's archive (docs/archive.md); unset: none. */
  readonly trace?: TableTrace;
  /** The player token `client`'s socket was opened with (src/server/socket-tokens.ts); undefined without one. */
  readonly socketToken: (client: Client) => string | undefined;
}

/**
 * A table's exchange with its player, as the regulator's archive records it (archive-trace.ts):
 * `payload` what the player sent and was answered, `shown` the steps the exchange put in front
 * of them (the server's own, kept whole).
 */
export type TableTrace = (exchange: {
  readonly kind: string;
  readonly player: string;
  readonly session: string;
  readonly table: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly shown?: readonly ShownSteps[];
}) => void;

/** What a table writes to the server's log (pino's logger is one). */
export interface RoomLog {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** How long a dropped player's seat is kept; after that the unit still resumes in a new room. */
const RECONNECT_SECONDS = 30;

/** Close code of the player's connection when their token expires (4000–4999: the application's own). */
const EXPIRED_CLOSE_CODE = 4401;
/** Close code of the player's connection when the operator ends their session. */
const SESSION_ENDED_CLOSE_CODE = 4403;
/** The longest a timer may wait (setTimeout's limit, ≈ 24.8 days); a token living longer is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One player's table for one game: parse each message, call the play service, show the steps it
 * returns, answer every refusal to the client that caused it. Messages are handled one at a
 * time, in order. Open to watchers, the table publishes each view its player has seen to the
 * watch rooms (`Watchers`, ./watch-room.ts); nothing reaches them, or the wins feed, before the
 * player's client could see it (`PlayerFirst`), nor, in a game whose page covers what the server
 * reveals (`coveredOnScreen`: Mine d'or, Le Noël), before the player said they uncovered it.
 */
export abstract class TableRoom extends Room<{ state: TableState; metadata: TableMetadata }> {
  protected abstract readonly services: TableServices;
  private game!: GameId;
  /** The player, as the token of their latest join says (its expiry ends play here). */
  private owner: VerifiedPlayer | undefined;
  /** The player's session (kept while their dropped seat waits); another client is a former connection being replaced. */
  private ownerSession: string | undefined;
  private ownerClient: Client | undefined;
  /** The seat of a dropped player, kept for RECONNECT_SECONDS: their next join takes it back. */
  private droppedSeat: ReturnType<Room['allowReconnection']> | undefined;
  private expiry: Delayed | undefined;
  private units: readonly LiveUnit[] = [];
  private readonly logError = (message: string, err: unknown): void => this.services.log.error({ roomId: this.roomId, err }, message);
  private readonly serial = new Serial((err) => this.logError('table message failed', err));
  private playerFirst!: PlayerFirst;
  private watchers!: Watchers;
  /** With the archive on, while a traced message is handled: the steps it showed, for its record. */
  private shownByMessage: ShownSteps[] | undefined;
  /** The page draws the game's reveal under silver: watchers and the feed wait for `uncovered`. */
  private coveredOnScreen = false;
  /** In such a game, how many steps of each unit on the table the player has seen uncovered. */
  private readonly uncovered = new Map<string, number>();

  override async onCreate(options: unknown): Promise<void> {
    const parsed = M.create.safeParse(options);
    if (!parsed.success) throw joinRefused(400, 'table/malformed', `choose a game among ${GAME_IDS.join(', ')}`);
    this.game = parsed.data.game;
    const { maxMessagesPerSecond, watchersMax, streams } = this.services;
    this.playerFirst = new PlayerFirst(this, maxMessagesPerSecond);
    this.watchers = new Watchers(this, this.game, streams, watchersMax, this.logError);
    // The player, and the same player's next connection while it replaces the former one.
    // Private: matchmaking never sends anyone here; watchers join a watch room.
    this.maxClients = 2;
    await this.setMatchmaking({ private: true, metadata: { game: this.game, pseudonym: '', watchable: false, watchers: 0 } });
    this.setState(new TableState());
    this.state.game = this.game;
    const entry = this.services.catalog.find((game) => game.id === this.game);
    this.state.catalog = JSON.stringify(entry);
    this.coveredOnScreen = entry?.coveredOnScreen === true;
    sendPatchesAsStepsHappen(this);

    this.onMessage('buy', (client, message, ctx) => this.handle(client, ctx, () => this.buy(message), 'buy', message));
    // An action is timed from its arrival (`performance.now()` bound now): its wait in the queue counts.
    this.onMessage('act', (client, message, ctx) => this.handle(client, ctx, this.act.bind(this, client, message, performance.now()), 'act', message));
    this.onMessage('wallet', (client, _message, ctx) => this.handle(client, ctx, () => this.services.play.wallet(this.owner!.playerId)));
    this.onMessage('history', (client, message, ctx) => this.handle(client, ctx, () => this.history(message)));
    this.onMessage('recall', (client, message, ctx) => this.handle(client, ctx, () => this.recall(message), 'recall', message));
    this.onMessage('watchers', (client, message, ctx) => this.handle(client, ctx, () => this.openToWatchers(message)));
    this.onMessage('uncovered', (client, message, ctx) => this.handle(client, ctx, () => this.uncover(message), 'uncovered', message));
    const unknownType = (type: unknown) => refuse('message/unknown_type', `unknown message type ${String(type)}`);
    this.onMessage('*', (client, type) => answerRefusal(client, undefined, client.sessionId !== this.ownerSession ? readOnly('this table') : unknownType(type)));
  }

  override async onJoin(client: Client, _options: unknown, auth: VerifiedPlayer): Promise<void> {
    // The seat was reserved at matchmaking for `auth`'s player: the socket taking it must be
    // theirs too, or whoever held the reservation would play with their wallet.
    const { verifier, socketToken, play, feed, seats } = this.services;
    const socketPlayer = await authenticate(verifier, socketToken(client) ?? '', undefined);
    if (socketPlayer.playerId !== auth.playerId) throw joinRefused(403, 'table/not_yours', 'this seat was reserved for another player');
    if (this.owner && this.owner.playerId !== auth.playerId) throw joinRefused(403, 'table/not_yours', 'this table belongs to another player');
    // The line that ties this room to its player and game: the lines about its units carry
    // their own ids, not the room's (docs/operations.md, "Logs").
    if (!this.owner) this.services.log.info({ roomId: this.roomId, playerId: auth.playerId, game: this.game }, 'table opened');
    // The same player again (a token verified at matchmaking, never a reconnection token): this
    // connection takes the seat; a dropped one stops waiting, a live one is closed, told why.
    const former = this.ownerClient;
    this.owner = auth;
    this.ownerSession = client.sessionId;
    this.ownerClient = client;
    if (this.droppedSeat) this.droppedSeat.reject(false);
    else former?.leave(CloseCode.CONSENTED, 'table/replaced: this table was opened again from another connection');
    this.droppedSeat = undefined;
    this.trace(former ? 'resumption' : 'sign_in', client.sessionId, { game: this.game });
    this.endPlayWhenTokenExpires(auth.expiresAt);
    this.playerFirst.seatPlayer(client);
    if (former) this.watchers.playerIs('here');
    await Promise.all([this.watchers.setPseudonym(auth.pseudonym), seats.take(auth.playerId, this.game, this.roomId), feed.rememberPseudonym(auth.playerId, auth.pseudonym)]);
    const resumed = await this.serial.run(async () => {
      // GLI-19 4.16: an unfinished unit of this game comes back exactly where it stopped; else
      // the last one whose end the player did not see (its win waits for that).
      const unseen = await feed.lastUnseen(auth.playerId, this.game);
      const { units, ended } = await play.resume(auth.playerId, this.game, unseen);
      if (unseen !== undefined && units.some((u) => u.sale.unitId === unseen)) this.releaseWhenSeen(unseen);
      if (units.length > 0) {
        this.update(units, ended);
        client.send('resumed', { unitIds: units.map((u) => u.sale.unitId) } satisfies TableMessages['resumed']);
      }
      // A page that joins shows the units already on the table whole, with no silver (docs/client.md).
      this.seeUncovered(this.units.map((u) => [u, u.steps.length]));
      client.send('wallet', (await play.wallet(auth.playerId)) satisfies TableMessages['wallet']);
    });
    if (isRefusal(resumed)) throw joinRefused(503, resumed.code, resumed.message); // the client joins again
  }

  override async onDrop(client: Client): Promise<void> {
    // The player's seat is kept for a while (not a flooder's).
    if (client.sessionId !== this.ownerSession) return;
    this.trace('interruption', client.sessionId, { game: this.game });
    this.playerFirst.playerDropped();
    this.watchers.playerIs('away');
    if (this.playerFirst.flooded(client)) return;
    // Taken back only by the player joining again (onJoin): the edge refuses reconnection tokens.
    this.droppedSeat = this.allowReconnection(client, RECONNECT_SECONDS);
    await this.droppedSeat.catch(() => undefined);
  }

  override onLeave(client: Client): void {
    if (client.sessionId !== this.ownerSession) return;
    this.droppedSeat = undefined;
    this.expiry?.clear();
    // The player is gone for good: the table closes, its watchers are sent away, told why.
    this.playerFirst.playerGone();
    void this.watchers.close('table/player_left');
  }

  /**
   * Play here lasts as long as the player's token: when it expires, the player's connection is
   * closed (`auth/expired`, the page asks to sign in again) and every message still coming is
   * refused; a join with a fresh token takes the seat back.
   */
  private endPlayWhenTokenExpires(expiresAt: number): void {
    this.expiry?.clear();
    const wait = expiresAt - this.services.verifier.now();
    this.expiry = this.clock.setTimeout(() => {
      if (this.services.verifier.now() < expiresAt) return this.endPlayWhenTokenExpires(expiresAt);
      this.ownerClient?.leave(EXPIRED_CLOSE_CODE, 'auth/expired: the token has expired: sign in again');
    }, Math.min(Math.max(0, wait), MAX_TIMER_MS));
  }

  /**
   * The operator ended the player's sessions (POST /operator/sessions/end, on any process): a
   * launched session's connection closes, told why, and what it still sends is refused; the
   * player's next launch joins with a new token.
   */
  endSession(): void {
    if (this.owner?.sessionId === undefined) return;
    this.owner = { ...this.owner, expiresAt: 0 };
    this.expiry?.clear();
    this.ownerClient?.leave(SESSION_ENDED_CLOSE_CODE, 'auth/session_ended: the operator ended this session');
  }

  override async onDispose(): Promise<void> {
    this.watchers?.stop(); // absent when onCreate refused the table
    // Let a purchase or an action in flight finish: nothing is left half-done.
    await this.serial.idle();
    if (this.owner) await this.services.seats.leave(this.owner.playerId, this.game, this.roomId).catch(() => undefined);
  }

  /** The sweeper (any process) finishes an abandoned unit here, shown first to its player; false if not shown here. */
  async completeAbandoned(unitId: string): Promise<boolean> {
    const done = this.serial.run(async () => {
      const unit = this.units.find((u) => u.sale.unitId === unitId && !u.finished);
      const completed = unit && (await this.services.play.complete(unit));
      if (completed?.ok) this.update(this.units.map((u) => (u === unit ? completed.unit : u)), completed.ended);
      return completed?.ok === true;
    });
    return (await done) === true;
  }

  private async buy(message: unknown): Promise<BuyReply | Refusal> {
    const parsed = parseMessage(M.buy, 'purchase/malformed', message);
    if (!parsed.ok) return parsed;
    const paced = await this.services.pacer.start(this.owner!.playerId, this.game);
    if (!paced.ok) return paced;
    const bought = await this.services.play.buy(this.owner!, { game: this.game, ...parsed.value });
    if (!bought.ok) {
      // A release that fails (the store out) leaves the start held: the player waits the pace.
      await paced.release().catch(() => undefined);
      return bought;
    }
    this.update(bought.units, bought.ended);
    return { unitIds: bought.units.map((u) => u.sale.unitId), wallet: bought.wallet };
  }

  private async act(client: Client, message: unknown, receivedAt: number): Promise<ActReply | Refusal> {
    const parsed = parseMessage(M.act, 'action/malformed', message);
    if (!parsed.ok) return parsed;
    const acted = await this.services.play.act(this.owner!.playerId, this.units, parsed.value);
    this.update(acted.units, acted.ended);
    this.services.actionShown?.(this.game, (performance.now() - receivedAt) / 1000);
    if (!acted.refusal) return acted.wallet ? { unitIds: acted.unitIds, wallet: acted.wallet } : { unitIds: acted.unitIds };
    // One lamp unit refused, the other ended: the refusal cannot carry the wallet.
    if (acted.wallet) client.send('wallet', acted.wallet satisfies TableMessages['wallet']);
    return acted.refusal;
  }

  /** The player opens the table to watchers, or closes it (its watchers, on every relay, are sent away). */
  private async openToWatchers(message: unknown): Promise<WatchersReply | Refusal> {
    const parsed = parseMessage(M.watchers, 'watchers/malformed', message);
    if (!parsed.ok) return parsed;
    const { open } = parsed.value;
    if (open && this.watchers.max === 0) return refuse('watchers/off', 'this server takes no watchers (WATCHERS_MAX=0)');
    // The player has seen the table as it is now (this message came after its last patch).
    if (open) await this.watchers.openWith(this.watched());
    else await this.watchers.close('table/closed_to_watchers');
    return { roomId: this.roomId, open };
  }

  private async history(message: unknown): Promise<HistoryPage | Refusal> {
    const parsed = parseMessage(M.history, 'history/malformed', message ?? {});
    if (!parsed.ok) return parsed;
    const { sales, ended } = await this.services.play.history(this.owner!.playerId, parsed.value.offset, parsed.value.limit);
    this.update(this.units, ended);
    return { units: sales.map(toHistoryLine) };
  }

  private async recall(message: unknown): Promise<RecallRecord | Refusal> {
    const parsed = parseMessage(M.recall, 'recall/malformed', message);
    if (!parsed.ok) return parsed;
    const { unitId } = parsed.value;
    const recalled = await this.services.play.recall(this.owner!.playerId, unitId);
    if (!recalled) return refuse('recall/not_found', `no unit ${unitId} in your history`);
    // The player is shown the unit's end now: a win kept for that may go out after the reply.
    this.update(this.units, recalled.ended);
    if (recalled.record.status === 'finished') this.releaseWhenSeen(unitId);
    return recalled.record;
  }

  /** The player has seen steps of a unit on this table uncovered (`UncoveredRequest`). */
  private async uncover(message: unknown): Promise<UncoveredReply | Refusal> {
    const parsed = parseMessage(M.uncovered, 'uncovered/malformed', message);
    if (!parsed.ok) return parsed;
    const { unitId, steps } = parsed.value;
    // Only a unit on this table, the player's own: another's, or one gone from it, is unknown here.
    const unit = this.units.find((u) => u.sale.unitId === unitId);
    if (!unit) return refuse('uncovered/unknown_unit', `no unit ${unitId} on this table`);
    if (steps > unit.steps.length) return refuse('uncovered/not_shown', `the table has shown ${unit.steps.length} steps of unit ${unitId}`);
    this.seeUncovered([[unit, steps]]);
    return { unitId, steps: this.uncovered.get(unitId) ?? steps };
  }

  /**
   * Counts steps as seen uncovered by the player (in a game covered on screen): the watchers
   * are shown them, and a finished unit seen whole has its kept win go out, after the player's
   * frames so far.
   */
  private seeUncovered(seen: readonly (readonly [LiveUnit, number])[]): void {
    if (!this.coveredOnScreen) return;
    let more = false;
    for (const [unit, steps] of seen) {
      const { unitId, prize } = unit.sale;
      if (steps <= (this.uncovered.get(unitId) ?? 0)) continue;
      this.uncovered.set(unitId, steps);
      more = true;
      if (unit.finished && steps === unit.steps.length && prize > 0) this.releaseWhenSeen(unitId);
    }
    if (more) this.showWatchers();
  }

  /** The table as its watchers may see it: in a game covered on screen, only what the player uncovered. */
  private watched(): WatchedUnit[] {
    return watchedUnits(this.state, this.coveredOnScreen ? (unitId) => this.uncovered.get(unitId) ?? 0 : undefined);
  }

  /** The watchers are shown the table as they may see it now, once the player's frames so far are out. */
  private showWatchers(): void {
    if (!this.watchers.isOpen) return;
    const shown = this.watched();
    this.playerFirst.afterPlayer((seen) => seen && this.watchers.show(shown));
  }

  /** A win kept until the player saw its unit's end goes out once they have. */
  private releaseWhenSeen(unitId: string): void {
    this.playerFirst.afterPlayer((seen) => {
      if (seen) this.services.feed.releaseUnseen({ unitIds: [unitId] });
    });
  }

  /**
   * Shows the units of the purchase (their new steps), then publishes what ended once the player
   * could see it. With the archive on, the new steps go in the record of the message that
   * showed them, or in a `shown` record of their own (a resumption, the sweeper's completion).
   */
  private update(units: readonly LiveUnit[], ended: readonly EndedReveal[]): void {
    this.units = units;
    const onTable = new Set(units.map((u) => u.sale.unitId));
    for (const unitId of this.uncovered.keys()) if (!onTable.has(unitId)) this.uncovered.delete(unitId);
    const shown = this.services.trace === undefined ? undefined : (this.shownByMessage ?? []);
    showUnits(this.state, units, shown);
    if (shown !== undefined && shown !== this.shownByMessage && shown.length > 0) this.trace('shown', this.ownerSession ?? '', { game: this.game }, shown);
    this.playerFirst.patch(() => this.broadcastPatch());
    // The server's own end (the sweeper's, past the abandon delay) is public, scratched or not.
    for (const end of ended) if (end.by === 'server' && onTable.has(end.unit.sale.unitId) && this.coveredOnScreen) this.uncovered.set(end.unit.sale.unitId, end.unit.steps.length);
    this.showWatchers();
    const { feed } = this.services, pseudonym = this.owner?.pseudonym ?? '';
    // Not seen, or still under silver on the player's screen: kept for when the player is shown
    // it (or uncovers it: `seeUncovered`), unless the server completed it.
    for (const end of ended) {
      const { unitId } = end.unit.sale;
      const covered = this.coveredOnScreen && onTable.has(unitId) && (this.uncovered.get(unitId) ?? 0) < end.unit.steps.length;
      this.playerFirst.afterPlayer((seen) => ((seen && !covered) || end.by === 'server' ? feed.publish(end, pseudonym) : feed.keepUnseen(end, pseudonym)));
    }
  }

  /** Records an exchange with the player (`services.trace`). */
  private trace(kind: string, session: string, payload: Record<string, unknown>, shown?: readonly ShownSteps[]): void {
    this.services.trace?.({ kind, player: this.owner!.playerId, session, table: this.roomId, payload, ...(shown && shown.length > 0 && { shown }) });
  }

  /**
   * Every player message: one at a time, in order; refusals answered to their client. A message
   * of a `traced` type is recorded with its answer (its refusal code, or the reply) and the
   * steps it showed (collected while it runs: messages run one at a time).
   */
  private async handle(client: Client, ctx: MessageContext, task: () => Promise<unknown>, traced?: string, message?: unknown): Promise<unknown> {
    if (client.sessionId !== this.ownerSession) return answerRefusal(client, ctx, this.owner ? readOnly('this table') : refuse('table/not_joined', 'join the table first'));
    if (this.services.verifier.now() >= this.owner!.expiresAt) return answerRefusal(client, ctx, refuse('auth/expired', 'the token has expired: sign in again'));
    const shown: ShownSteps[] = [];
    const reply = await this.serial.run(async () => {
      // Discarded if sent before its client was closed for flooding.
      if (this.playerFirst.flooded(client)) return refuse('table/flood', 'closed for flooding');
      if (traced !== undefined && this.services.trace) this.shownByMessage = shown;
      try {
        return await task();
      } finally {
        this.shownByMessage = undefined;
      }
    });
    if (traced !== undefined) this.trace(traced, client.sessionId, { game: this.game, message, ...(isRefusal(reply) ? { refused: reply.code } : { reply }) }, shown);
    return isRefusal(reply) ? answerRefusal(client, ctx, reply) : reply;
  }
}
