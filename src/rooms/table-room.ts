import { Room, ServerError, type Client, type MessageContext } from '@colyseus/core';
import { z } from 'zod';
import { AuthError, type Player } from '../auth/tokens';
import { GAME_IDS, type GameId } from '../games/types';
import type { LiveUnit } from '../play/play-service';
import { toHistoryLine, toRecall } from '../play/recall';
import { services } from '../server/services';
import { StepState, TableState, UnitState } from './table-state';

const CREATE = z.object({ game: z.enum(GAME_IDS) });
const BUY = z.object({ stake: z.number().int(), requestId: z.string(), picks: z.unknown().optional() }).strict();
const ACT = z.object({ action: z.unknown(), unitId: z.string().max(200).optional() }).strict();
const HISTORY = z.object({ offset: z.number().int().min(0).max(1_000_000).default(0), limit: z.number().int().min(1).max(100).default(20) }).strict();
const RECALL = z.object({ unitId: z.string().min(1).max(200) }).strict();

/** How long a dropped player's seat is kept; after that the unit still resumes in a new room. */
const RECONNECT_SECONDS = 30;

interface Refused {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
}

/**
 * One player's table for one game. Thin on purpose: validate the message, call the play
 * service (which calls the game's reducer and the stores), put the resulting steps into the
 * state, answer every refusal to the client that caused it. Messages of one table are handled
 * one at a time, in order.
 */
export class TableRoom extends Room<{ state: TableState }> {
  override maxClients = 1;
  private game!: GameId;
  private owner: Player | undefined;
  private live: LiveUnit[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  static override async onAuth(token: string, options: { token?: unknown } | undefined): Promise<Player> {
    try {
      return await services().verifier.verify(token || options?.token);
    } catch (err) {
      if (err instanceof AuthError) throw new ServerError(401, `${err.code}: ${err.message}`);
      throw err;
    }
  }

  override onCreate(options: unknown): void {
    const parsed = CREATE.safeParse(options);
    if (!parsed.success) throw new ServerError(400, `table/malformed: choose a game among ${GAME_IDS.join(', ')}`);
    this.game = parsed.data.game;
    this.maxMessagesPerSecond = services().config.maxMessagesPerSecond;
    this.setState(new TableState());
    this.state.game = this.game;
    // Patches go out when a step is applied, not on a timer: each step reaches the client at once.
    this.setPatchRate(null);

    this.onMessage('buy', (client, message, ctx) => this.serial(client, ctx, () => this.buy(client, message)));
    this.onMessage('act', (client, message, ctx) => this.serial(client, ctx, () => this.act(client, message)));
    this.onMessage('wallet', (client, _message, ctx) => this.serial(client, ctx, () => this.wallet(client)));
    this.onMessage('history', (client, message, ctx) => this.serial(client, ctx, () => this.history(message)));
    this.onMessage('recall', (client, message, ctx) => this.serial(client, ctx, () => this.recall(message)));
    this.onMessage('*', (client, type) => this.refuseTo(client, undefined, { ok: false, code: 'message/unknown_type', message: `unknown message type ${String(type)}` }));
  }

  override async onJoin(client: Client, _options: unknown, player: Player): Promise<void> {
    if (this.owner && this.owner.playerId !== player.playerId) {
      throw new ServerError(403, 'table/not_yours: this table belongs to another player');
    }
    this.owner = player;
    await this.run(async () => {
      // GLI-19 4.16: an unfinished unit of this game comes back exactly where it stopped.
      const unfinished = await services().play.unfinished(player.playerId, this.game);
      if (unfinished.length > 0) {
        this.show(unfinished);
        client.send('resumed', { unitIds: unfinished.map((u) => u.sale.unitId) });
      }
      client.send('wallet', await services().play.wallet(player.playerId));
    });
  }

  override async onDrop(client: Client): Promise<void> {
    await this.allowReconnection(client, RECONNECT_SECONDS);
  }

  override async onDispose(): Promise<void> {
    // Let a purchase or an action in flight finish: nothing is left half-done.
    await this.queue.catch(() => undefined);
  }

  private async buy(client: Client, message: unknown): Promise<unknown> {
    const parsed = BUY.safeParse(message);
    if (!parsed.success) return malformed('purchase/malformed', parsed.error);
    const result = await services().play.buy(this.owner!, { game: this.game, ...parsed.data });
    if (!result.ok) return result;
    this.show(result.units);
    client.send('wallet', await services().play.wallet(this.owner!.playerId));
    return { unitIds: result.units.map((u) => u.sale.unitId) };
  }

  private async act(client: Client, message: unknown): Promise<unknown> {
    const parsed = ACT.safeParse(message);
    if (!parsed.success) return malformed('action/malformed', parsed.error);
    const { unitId, action } = parsed.data;
    const targets = this.live.filter((u) => !u.finished && (unitId === undefined || u.sale.unitId === unitId));
    if (targets.length === 0) {
      return unitId === undefined
        ? { ok: false, code: 'action/no_unit', message: 'no unit in play: buy one first' }
        : { ok: false, code: 'action/unknown_unit', message: `no unit ${unitId} in play at this table` };
    }
    const play = services().play;
    let refusal: Refused | undefined;
    for (const unit of targets) {
      const result = await play.act(this.owner!.playerId, unit, action);
      if (result.ok) this.replace(result.unit);
      else {
        if (result.code === 'action/conflict') {
          const reloaded = await play.load(unit.sale.unitId);
          if (reloaded) this.replace(reloaded);
        }
        refusal ??= result;
      }
    }
    // Every target was unfinished: one that is finished now was finished by this action.
    if (this.live.some((u) => u.finished && targets.some((t) => t.sale.unitId === u.sale.unitId))) {
      client.send('wallet', await play.wallet(this.owner!.playerId));
    }
    return refusal ?? { unitIds: targets.map((u) => u.sale.unitId) };
  }

  private async wallet(_client: Client): Promise<unknown> {
    return services().play.wallet(this.owner!.playerId);
  }

  private async history(message: unknown): Promise<unknown> {
    const parsed = HISTORY.safeParse(message ?? {});
    if (!parsed.success) return malformed('history/malformed', parsed.error);
    const sales = await services().play.history(this.owner!.playerId, parsed.data.offset, parsed.data.limit);
    return { units: sales.map(toHistoryLine) };
  }

  private async recall(message: unknown): Promise<unknown> {
    const parsed = RECALL.safeParse(message);
    if (!parsed.success) return malformed('recall/malformed', parsed.error);
    const record = await services().play.recall(this.owner!.playerId, parsed.data.unitId);
    return record ?? { ok: false, code: 'recall/not_found', message: `no unit ${parsed.data.unitId} in your history` };
  }

  /** Puts units on the table: their steps so far become the state the client sees. */
  private show(units: readonly LiveUnit[]): void {
    this.live = [...units];
    this.state.units.clear();
    for (const unit of units) this.state.units.push(toUnitState(unit));
    this.broadcastPatch();
  }

  /** Swaps in a unit's next version, appending only the steps the client has not seen. */
  private replace(unit: LiveUnit): void {
    const i = this.live.findIndex((u) => u.sale.unitId === unit.sale.unitId);
    if (i < 0) return;
    this.live[i] = unit;
    const view = this.state.units[i]!;
    for (const step of unit.steps.slice(view.steps.length)) view.steps.push(toStepState(step));
    if (unit.finished) {
      view.prize = unit.sale.prize;
      view.status = 'finished';
    }
    this.broadcastPatch();
  }

  /** Runs `task` after every earlier message of this table: one at a time, in order. */
  private run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async serial(client: Client, ctx: MessageContext, task: () => Promise<unknown>): Promise<unknown> {
    if (!this.owner) return this.refuseTo(client, ctx, { ok: false, code: 'table/not_joined', message: 'join the table first' });
    const reply = await this.run(task);
    if (isRefusal(reply)) return this.refuseTo(client, ctx, reply);
    return reply;
  }

  /** Every refusal reaches its client: as a rejected request, or as a `refused` message. */
  private refuseTo(client: Client, ctx: MessageContext | undefined, refusal: Refused): unknown {
    const reason = { code: refusal.code, message: refusal.message };
    if (ctx?.id !== undefined) return ctx.reject(reason);
    client.send('refused', reason);
    return undefined;
  }
}

function isRefusal(value: unknown): value is Refused {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

function malformed(code: string, error: z.ZodError): Refused {
  const issue = error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, code, message: `${issue?.message ?? 'invalid message'}${where}` };
}

function toStepState(step: LiveUnit['steps'][number]): StepState {
  const state = new StepState();
  state.seq = step.seq;
  state.by = step.by;
  state.events = JSON.stringify(step.events);
  return state;
}

function toUnitState(unit: LiveUnit): UnitState {
  const state = new UnitState();
  state.unitId = unit.sale.unitId;
  state.stake = unit.sale.stake;
  for (const step of unit.steps) state.steps.push(toStepState(step));
  if (unit.finished) {
    state.status = 'finished';
    state.prize = unit.sale.prize;
  }
  return state;
}
